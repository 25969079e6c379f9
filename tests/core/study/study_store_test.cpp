#include "core/study/study_store.h"

#include <QTemporaryDir>
#include <QtTest>
#include <filesystem>
#include <fstream>

#include "core/data/csv_table.h"
#include "core/data/csv_writer.h"
#include "core/data/regular_file.h"
#include "core/study/study_plan.h"
#include "support/tiny_study.h"

namespace study = dpsynth::core::study;

namespace {

/// Runs the given replicates of `config` into `folder`, stopping after `stopAfter` of them when
/// stopAfter >= 0 (a stop request, as Ctrl-C makes).
study::StudyOutcome studyStoreRun(const study::StudyConfig& config, const std::string& folder,
                                  const study::Shard& shard, int stopAfter = -1) {
  study::StudyStore store(folder, config);
  std::vector<int> todo;
  for (int r : study::shardReplicates(config, shard))
    if (!store.completed().count(r)) todo.push_back(r);
  std::stop_source stop;
  int done = 0;
  return study::runStudy(
      config, todo, 1,
      [&](const study::ReplicateRows& rows) {
        store.append(rows);
        if (++done == stopAfter) stop.request_stop();
      },
      {}, stop.get_token());
}

/// The rows of a folder with the timing column blanked (seconds differ between runs).
std::vector<std::vector<std::string>> studyStoreRows(const std::string& folder) {
  const auto table = dpsynth::core::data::readCsv(study::StudyStore::replicatesPath(folder));
  std::vector<std::vector<std::string>> rows;
  for (std::size_t i = 0; i < table.rows.size(); ++i) {
    rows.push_back(table.rows[i].toStrings());
    rows.back().back().clear();
  }
  return rows;
}

/// One replicate's rows in the study layout (two cells), without running anything.
study::ReplicateRows fakeReplicate(int r) {
  study::ReplicateRows out{r, {}};
  for (int cell = 0; cell < 2; ++cell) {
    std::vector<std::string> row(study::studyHeader().size(), "0.5");
    row[0] = std::to_string(r);
    row[1] = std::to_string(cell);
    out.rows.push_back(row);
  }
  return out;
}

}  // namespace

class StudyStoreTest : public QObject {
  Q_OBJECT

 private slots:
  void resumeAfterAnInterruptionGivesTheUninterruptedRows() {
    QTemporaryDir dir;
    const auto config = dpsynth::test::tinyStudyConfig(3);
    const std::string whole = dir.filePath("whole").toStdString();
    const std::string resumed = dir.filePath("resumed").toStdString();
    QCOMPARE(studyStoreRun(config, whole, {}), study::StudyOutcome::completed);
    QCOMPARE(studyStoreRun(config, resumed, {}, 1), study::StudyOutcome::cancelled);
    {
      const study::StudyStore partial(resumed, config);
      QCOMPARE(partial.completed().size(), std::size_t(1));  // whole replicates only
      QCOMPARE(partial.rows().size(), std::size_t(4));
    }
    QCOMPARE(studyStoreRun(config, resumed, {}), study::StudyOutcome::completed);
    QCOMPARE(study::StudyStore(resumed, config).completed().size(), std::size_t(3));
    QCOMPARE(studyStoreRun(config, resumed, {}), study::StudyOutcome::completed);  // nothing left
    QVERIFY(studyStoreRows(resumed) == studyStoreRows(whole));
    QCOMPARE(studyStoreRows(whole).size(), std::size_t(12));
  }

  void shardsMergedEqualTheUnshardedStudy() {
    QTemporaryDir dir;
    const auto config = dpsynth::test::tinyStudyConfig(3);
    const std::string whole = dir.filePath("whole").toStdString();
    QCOMPARE(studyStoreRun(config, whole, {}), study::StudyOutcome::completed);
    std::vector<std::string> shards;
    for (int i = 0; i < 2; ++i) {
      shards.push_back(dir.filePath(QString("shard%1").arg(i)).toStdString());
      QCOMPARE(studyStoreRun(config, shards.back(), {i, 2}), study::StudyOutcome::completed);
    }
    QCOMPARE(study::StudyStore(shards[0], config).completed(), (std::set<int>{0, 2}));
    const std::string merged = dir.filePath("merged").toStdString();
    study::mergeStudies(merged, shards);
    QVERIFY(studyStoreRows(merged) == studyStoreRows(whole));
    // Merging a shard twice is refused, naming the replicate.
    const std::string again = dir.filePath("again").toStdString();
    try {
      study::mergeStudies(again, {shards[0], shards[1], shards[0]});
      QFAIL("a duplicate replicate was accepted");
    } catch (const study::ConfigError& e) {
      QVERIFY2(std::string(e.what()).find("replicate 0 is in both") != std::string::npos, e.what());
    }
    QVERIFY_THROWS_EXCEPTION(study::ConfigError, study::mergeStudies(shards[0], {shards[0]}));
  }

  void twoWritersOfOneFolderKeepEveryRow() {
    // Two stores on one folder, as two shards given the same --out: each append starts from the
    // rows on disk under the folder's lock, so neither replaces the rows the other stored.
    QTemporaryDir dir;
    const std::string folder = dir.filePath("s").toStdString();
    const auto config = dpsynth::test::tinyStudyConfig(6);
    study::StudyStore a(folder, config), b(folder, config);
    a.append(fakeReplicate(0));
    b.append(fakeReplicate(1));
    a.append(fakeReplicate(2));
    b.append(fakeReplicate(3));
    b.append(fakeReplicate(0));  // stored by `a` meanwhile: kept once, as stored
    QCOMPARE(study::StudyStore(folder, config).completed(), (std::set<int>{0, 1, 2, 3}));
    QCOMPARE(study::StudyStore(folder, config).rows().size(), std::size_t(8));
    // Summaries written under the lock see every row, whichever store writes them.
    std::size_t seen = 0;
    a.withAllRows([&](const auto& rows) { seen = rows.size(); });
    QCOMPARE(seen, std::size_t(8));
  }

  void aReplicateOutsideTheStudyIsRefused() {
    // A shard whose replicates.csv holds replicate 999 of a 6-replicate study ("7 of 6").
    QTemporaryDir dir;
    const auto config = dpsynth::test::tinyStudyConfig(6);
    const std::string shard = dir.filePath("shard").toStdString();
    {
      study::StudyStore store(shard, config);
      store.append(fakeReplicate(1));
    }
    auto table = dpsynth::core::data::readCsv(study::StudyStore::replicatesPath(shard));
    std::vector<std::vector<std::string>> rows;
    for (std::size_t i = 0; i < table.rows.size(); ++i) rows.push_back(table.rows[i].toStrings());
    rows.push_back(rows.front());
    rows.back()[0] = "999";
    dpsynth::core::data::writeCsvAtomic(study::StudyStore::replicatesPath(shard), table.header,
                                        rows);
    try {
      study::mergeStudies(dir.filePath("m").toStdString(), {shard});
      QFAIL("a replicate outside the study was merged");
    } catch (const study::ConfigError& e) {
      QVERIFY2(std::string(e.what()).find("replicate 999 is not one of this study's 6") !=
                   std::string::npos,
               e.what());
    }
    QVERIFY_THROWS_EXCEPTION(study::ConfigError, study::StudyStore(shard, config));
    QVERIFY(!std::filesystem::exists(dir.filePath("m/replicates.csv").toStdString()));
  }

  void aRunThatFailsBeforeAnyReplicateLeavesNoStudyBehind() {
    // A study that fails after its folder was opened (a missing bootstrap file, data the model
    // refuses) must not leave study.json behind: the corrected config would be "another study".
    QTemporaryDir dir;
    const std::string folder = dir.filePath("s").toStdString();
    const auto config = dpsynth::test::tinyStudyConfig(2);
    try {
      study::StudyStore store(folder, config);
      QVERIFY(std::filesystem::exists(study::StudyStore::configPath(folder)));
      throw std::runtime_error("the run failed");
    } catch (const std::runtime_error&) {
    }
    QVERIFY(!std::filesystem::exists(folder));  // it created the folder: gone again
    auto corrected = config;
    corrected.seed = 12;
    { const study::StudyStore store(folder, corrected); }
    // A folder that holds rows keeps its study, whatever fails later.
    try {
      study::StudyStore store(folder, corrected);
      store.append(fakeReplicate(0));
      throw std::runtime_error("the run failed");
    } catch (const std::runtime_error&) {
    }
    QCOMPARE(study::StudyStore(folder, corrected).completed(), std::set<int>{0});
    // A folder that existed before (with the user's files) stays, only the study's files go.
    const std::string existing = dir.filePath("mine").toStdString();
    std::filesystem::create_directories(existing);
    std::ofstream(existing + "/notes.txt") << "mine";
    try {
      const study::StudyStore store(existing, config);
      throw std::runtime_error("the run failed");
    } catch (const std::runtime_error&) {
    }
    QVERIFY(std::filesystem::exists(existing + "/notes.txt"));
    QVERIFY(!std::filesystem::exists(study::StudyStore::configPath(existing)));
  }

  void aStudyJsonTheStudyDidNotWriteIsNeitherReplacedNorDeleted() {
    // study.json is the natural name for a study plan: a folder holding one without
    // study.sha256 is refused before anything is written, and a failed study removes only the
    // files it created (it used to write its config over the user's, then delete it).
    QTemporaryDir dir;
    const std::string folder = dir.filePath("s").toStdString();
    std::filesystem::create_directories(folder);
    const std::string config = study::StudyStore::configPath(folder);
    std::ofstream(config) << "{\"note\": \"my study plan, the only copy\"}\n";
    const auto tiny = dpsynth::test::tinyStudyConfig(2);
    try {
      const study::StudyStore store(folder, tiny);
      QFAIL("a folder with the user's study.json was accepted");
    } catch (const study::ConfigError& e) {
      QVERIFY2(std::string(e.what()).find("study.json that dpsynth did not write") !=
                       std::string::npos &&
                   std::string(e.what()).find("another output folder") != std::string::npos,
               e.what());
    }
    QCOMPARE(dpsynth::core::data::readRegularFile(config),
             std::string("{\"note\": \"my study plan, the only copy\"}\n"));
    QVERIFY(!std::filesystem::exists(folder + "/study.sha256"));
    QVERIFY(!study::foreignConfigProblem(folder, study::storeIdentity(tiny)).empty());
    // The study's own text (left by a run stopped between its two files) is taken up, and a
    // failure then removes only study.sha256, the one file this store created.
    const std::string own = study::storeIdentity(tiny).configJson;
    std::ofstream(config, std::ios::trunc) << own;
    QVERIFY(study::foreignConfigProblem(folder, study::storeIdentity(tiny)).empty());
    try {
      const study::StudyStore store(folder, tiny);
      QVERIFY(std::filesystem::exists(folder + "/study.sha256"));
      throw std::runtime_error("the run failed");
    } catch (const std::runtime_error&) {
    }
    QCOMPARE(dpsynth::core::data::readRegularFile(config), own);
    QVERIFY(!std::filesystem::exists(folder + "/study.sha256"));
  }

  void anotherConfigIsRefused() {
    QTemporaryDir dir;
    const std::string folder = dir.filePath("s").toStdString();
    const auto config = dpsynth::test::tinyStudyConfig(2);
    { const study::StudyStore store(folder, config); }
    auto other = config;
    other.seed = 12;
    try {
      const study::StudyStore store(folder, other);
      QFAIL("a different config was accepted");
    } catch (const study::ConfigError& e) {
      QVERIFY2(std::string(e.what()).find("holds another study") != std::string::npos, e.what());
    }
    // Merge refuses shards of different studies too.
    const std::string otherFolder = dir.filePath("o").toStdString();
    { const study::StudyStore store(otherFolder, other); }
    QVERIFY_THROWS_EXCEPTION(
        study::ConfigError,
        study::mergeStudies(dir.filePath("m").toStdString(), {folder, otherFolder}));
    QCOMPARE(study::loadStoredConfig(folder).seed, std::uint64_t(11));
  }
};

QTEST_APPLESS_MAIN(StudyStoreTest)
#include "study_store_test.moc"
