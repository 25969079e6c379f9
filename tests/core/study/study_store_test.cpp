#include "core/study/study_store.h"

#include <QTemporaryDir>
#include <QtTest>
#include <filesystem>

#include "core/data/csv_table.h"
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
    QVERIFY_THROWS_EXCEPTION(study::ConfigError,
                             study::mergeStudies(dir.filePath("m").toStdString(),
                                                 {folder, otherFolder}));
    QCOMPARE(study::loadStoredConfig(folder).seed, std::uint64_t(11));
  }
};

QTEST_APPLESS_MAIN(StudyStoreTest)
#include "study_store_test.moc"
