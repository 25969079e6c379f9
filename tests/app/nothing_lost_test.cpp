/// Nothing lost (issue 21) through the real binary, each case in a fresh folder with the SHA-256
/// of every file before and after: dpsynth replaces or deletes only what it can show it wrote,
/// two study processes sharing a folder keep every row, and a study that fails leaves nothing
/// that would make its corrected config "another study".
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>
#include <atomic>
#include <cstdio>
#include <memory>
#include <set>
#include <thread>

#include "core/data/sha256.h"
#include "core/pipeline/mechanism.h"
#include "core/session/session.h"
#include "support/cli_process.h"
#include "support/tiny_study.h"

namespace {

using Run = dpsynth::test::CliRun;
using dpsynth::test::folderSnapshot;

Run lostRun(const QStringList& args, const QString& cwd) {
  return dpsynth::test::runDpsynth(args, cwd, 120000);
}

void lostWrite(const QString& path, const QByteArray& bytes) {
  QFile f(path);
  QVERIFY(f.open(QIODevice::WriteOnly));
  f.write(bytes);
}

/// The distinct replicates in a study folder's replicates.csv, and its number of rows.
std::pair<std::set<int>, int> lostReplicates(const QString& folder) {
  QFile f(folder + "/replicates.csv");
  if (!f.open(QIODevice::ReadOnly)) return {};
  const QStringList lines = QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
  std::set<int> replicates;
  for (int i = 1; i < lines.size(); ++i) replicates.insert(lines[i].section(',', 0, 0).toInt());
  return {replicates, int(lines.size()) - 1};
}

/// A six-replicate version of the tiny study (four rows per replicate).
QByteArray sixReplicateStudy() {
  return QByteArray(dpsynth::test::tinyStudyJson())
      .replace("\"replicates\": 3", "\"replicates\": 6");
}

/// A session of lw on beta.csv (in `dir`) saved as `name`: a release, or seeded (whose run
/// writes nothing into release/).
void lostSession(const QTemporaryDir& dir, const QString& name, bool seeded) {
  namespace session = dpsynth::core::session;
  namespace pipeline = dpsynth::core::pipeline;
  session::Session s;
  s.dataFile = dir.filePath("beta.csv").toStdString();
  s.dataSha256 = dpsynth::core::data::sha256File(s.dataFile);
  s.dataset.outcome = "value";
  s.dataset.family = dpsynth::core::models::Family::beta;
  pipeline::MechanismConfig lw;
  lw.mechanism = pipeline::Mechanism::lw;
  s.mechanisms = {lw};
  s.run.model.family = s.dataset.family;
  s.run.nuts.chains = 1;
  s.run.nuts.warmup = 50;
  s.run.nuts.draws = 50;
  if (seeded) s.run.nuts.seed = 5;
  s.reproducible = seeded;
  session::saveSession(dir.filePath(name).toStdString(), s);
}

}  // namespace

class NothingLostTest : public QObject {
  Q_OBJECT
 private slots:
  void init() {
    dir_ = std::make_unique<QTemporaryDir>();
    QVERIFY(dir_->isValid());
    QVERIFY(QFile::copy(QString(DPSYNTH_SOURCE_DIR) + "/resources/samples/beta.csv",
                        dir_->filePath("beta.csv")));
  }

  /// Issue 21, 1: a release replaces the files of an earlier one only while they are as written.
  void fitKeepsADatasetTheUserEdited() {
    const QStringList fit{
        "fit",      "--data",  "beta.csv",        "--outcome", "value",   "--family", "beta",
        "--chains", "1",       "--warmup",        "50",        "--draws", "50",       "--seed",
        "3",        "--quiet", "--synthetic-out", "r.csv"};
    QCOMPARE(lostRun(fit + QStringList{"--datasets", "3"}, dir_->path()).exitCode, 0);
    // The earlier release as written is superseded whole (no r_3.csv left beside two new ones).
    QCOMPARE(lostRun(fit + QStringList{"--datasets", "2"}, dir_->path()).exitCode, 0);
    QVERIFY(!QFile::exists(dir_->filePath("r_3.csv")));
    // An edited dataset is the user's now: refused, naming it, and nothing changes.
    QFile edited(dir_->filePath("r_2.csv"));
    QVERIFY(edited.open(QIODevice::Append));
    edited.write("0.5\n");
    edited.close();
    const auto before = folderSnapshot(dir_->path());
    const Run r = lostRun(fit, dir_->path());
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("r_2.csv has changed since dpsynth wrote it"), qPrintable(r.err));
    QCOMPARE(r.err.trimmed().count('\n'), 0);
    QCOMPARE(folderSnapshot(dir_->path()), before);
  }

  /// Issue 21, 4: `run --out DIR` replaces DIR/release and DIR/internal as a whole; files the
  /// user put there are refused, not deleted, unless --replace.
  void runRefusesToDeleteFilesItDidNotWrite() {
    lostSession(*dir_, "a.dpsynth",
                /*seeded=*/false);  // a release: seeded runs write internal/ only
    const QStringList run{"run", "--session", "a.dpsynth", "--out", "out", "--quiet"};

    Run r = lostRun(run, dir_->path());
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    lostWrite(dir_->filePath("out/release/notes.txt"), "my notes\n");
    lostWrite(dir_->filePath("out/internal/mine.csv"), "a\n1\n");
    auto before = folderSnapshot(dir_->path());
    r = lostRun(run, dir_->path());
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("release/notes.txt") && r.err.contains("internal/mine.csv") &&
                 r.err.contains("--replace"),
             qPrintable(r.err));
    QCOMPARE(r.err.trimmed().count('\n'), 0);
    QCOMPARE(folderSnapshot(dir_->path()), before);

    // A file dpsynth wrote and the user then edited counts as the user's too.
    QVERIFY(QFile::remove(dir_->filePath("out/release/notes.txt")));
    QVERIFY(QFile::remove(dir_->filePath("out/internal/mine.csv")));
    QFile note(dir_->filePath("out/release/release_note.html"));
    QVERIFY(note.open(QIODevice::Append));
    note.write("<!-- edited -->");
    note.close();
    before = folderSnapshot(dir_->path());
    r = lostRun(run, dir_->path());
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("release/release_note.html"), qPrintable(r.err));
    QCOMPARE(folderSnapshot(dir_->path()), before);

    // --replace says: delete them.
    r = lostRun(run + QStringList{"--replace"}, dir_->path());
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    // Each folder lists what dpsynth wrote: the same export again is replaced without a word.
    QVERIFY(QFile::exists(dir_->filePath("out/release/.dpsynth-manifest.json")));
    QVERIFY(QFile::exists(dir_->filePath("out/internal/.dpsynth-manifest.json")));
    r = lostRun(run, dir_->path());
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QFile replaced(dir_->filePath("out/release/release_note.html"));
    QVERIFY(replaced.open(QIODevice::ReadOnly));
    QVERIFY(!replaced.readAll().contains("edited"));
  }

  /// A run's release/ and internal/ are one set: a run with nothing releasable (here seeded)
  /// into the folder of an earlier release removes that release/ as it replaces internal/,
  /// and says so; it used to leave the old release/ beside a new internal/ that did not
  /// describe it.
  void runLeavesNoReleaseOfAnotherRun() {
    lostSession(*dir_, "release.dpsynth", /*seeded=*/false);
    lostSession(*dir_, "seeded.dpsynth", /*seeded=*/true);
    Run r =
        lostRun({"run", "--session", "release.dpsynth", "--out", "out", "--quiet"}, dir_->path());
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY(QFile::exists(dir_->filePath("out/release/synthetic_lw.csv")));
    r = lostRun({"run", "--session", "seeded.dpsynth", "--out", "out", "--quiet"}, dir_->path());
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.err.contains("removed") && r.err.contains("release") &&
                 r.err.contains("nothing releasable"),
             qPrintable(r.err));
    QVERIFY(!QFileInfo::exists(dir_->filePath("out/release")));
    QVERIFY(QFile::exists(dir_->filePath("out/internal/synthetic_lw.csv")));
  }

  /// Issue 21, 3: two shards started together on one folder both keep all their rows.
  void studyShardsSharingAFolderKeepEveryRow() {
    lostWrite(dir_->filePath("c.json"), sixReplicateStudy());
    QProcess shard0, shard1;
    for (QProcess* p : {&shard0, &shard1}) p->setWorkingDirectory(dir_->path());
    const QStringList base{"study",     "--config", "c.json",  "--out",  "o",
                           "--threads", "1",        "--quiet", "--shard"};
    shard0.start(DPSYNTH_CLI_PATH, base + QStringList{"0/2"});
    shard1.start(DPSYNTH_CLI_PATH, base + QStringList{"1/2"});
    QVERIFY(shard0.waitForFinished(180000) && shard1.waitForFinished(180000));
    QVERIFY2(shard0.exitCode() == 0, shard0.readAllStandardError().constData());
    QVERIFY2(shard1.exitCode() == 0, shard1.readAllStandardError().constData());
    const auto [replicates, rows] = lostReplicates(dir_->filePath("o"));
    QCOMPARE(replicates, (std::set<int>{0, 1, 2, 3, 4, 5}));
    QCOMPARE(rows, 6 * 4);
    // The summary written last saw every replicate.
    QFile summary(dir_->filePath("o/summary.md"));
    QVERIFY(summary.open(QIODevice::ReadOnly));
    QVERIFY2(summary.readAll().contains("| mean | 6 |"),
             "the summary counts fewer than 6 replicates");
  }

  /// Issue 21, 12: a shard holding replicate 999 of a 3-replicate study is refused, not merged
  /// into "4 of 3 replicates".
  void studyMergeRefusesAReplicateOutsideTheStudy() {
    lostWrite(dir_->filePath("c.json"), dpsynth::test::tinyStudyJson());
    Run r = lostRun({"study", "--config", "c.json", "--out", "s0", "--shard", "0/2", "--threads",
                     "1", "--quiet"},
                    dir_->path());
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QFile rows(dir_->filePath("s0/replicates.csv"));
    QVERIFY(rows.open(QIODevice::ReadWrite));
    const QByteArray text = rows.readAll();
    const QByteArray first = text.split('\n').value(1);
    rows.write("999" + first.mid(first.indexOf(',')) + "\n");  // a row of replicate 999
    rows.close();
    const auto before = folderSnapshot(dir_->path());
    r = lostRun({"study", "merge", "--out", "m", "s0"}, dir_->path());
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("replicate 999 is not one of this study's 3 replicates"),
             qPrintable(r.err));
    QCOMPARE(r.err.trimmed().count('\n'), 0);
    QCOMPARE(folderSnapshot(dir_->path()), before);
  }

  /// Issue 21, 13: a study that fails after opening its folder leaves nothing behind, so the
  /// corrected config runs there instead of being refused as "another study".
  void aFailedStudyDoesNotBlockItsCorrectedConfig() {
    lostWrite(dir_->filePath("bad.json"),
              R"J({"version": 1, "source": {"bootstrap": "absent.csv", "outcome": "y",
              "family": "poisson"}, "mechanisms": ["unweighted"], "replicates": 2, "seed": 1})J");
    const auto before = folderSnapshot(dir_->path());
    Run r = lostRun({"study", "--config", "bad.json", "--out", "o", "--quiet"}, dir_->path());
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("absent.csv"), qPrintable(r.err));
    QCOMPARE(folderSnapshot(dir_->path()), before);  // no folder, no study.json
    lostWrite(dir_->filePath("good.json"), dpsynth::test::tinyStudyJson());
    r = lostRun({"study", "--config", "good.json", "--out", "o", "--threads", "1", "--quiet"},
                dir_->path());
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
  }

  /// A study's --out folder holding the user's own study.json (no study.sha256 beside it) is
  /// refused before anything is written; the study used to write its config over it and,
  /// failing (a bootstrap file missing, a full disk), delete it as "the study.json it created".
  void aStudyKeepsTheUsersStudyJson() {
    QVERIFY(QDir(dir_->path()).mkpath("proj"));
    lostWrite(dir_->filePath("proj/study.json"), "{\"note\": \"my study plan, the only copy\"}\n");
    lostWrite(dir_->filePath("boot.json"),
              R"J({"version": 1, "source": {"bootstrap": "absent.csv", "outcome": "y",
              "family": "poisson"}, "mechanisms": ["unweighted"], "replicates": 2, "seed": 1})J");
    lostWrite(dir_->filePath("good.json"), dpsynth::test::tinyStudyJson());
    const auto before = folderSnapshot(dir_->path());
    for (const char* config : {"boot.json", "good.json"}) {
      const Run r =
          lostRun({"study", "--config", config, "--out", "proj", "--quiet"}, dir_->path());
      QCOMPARE(r.exitCode, 2);
      QVERIFY2(r.err.contains("proj") && r.err.contains("study.json that dpsynth did not write") &&
                   r.err.contains("another output folder"),
               qPrintable(r.err));
      QCOMPARE(r.err.trimmed().count('\n'), 0);
      QCOMPARE(folderSnapshot(dir_->path()), before);
    }
  }

  /// infer --out and study --out write files of fixed names (summary.json, summary.md, ...)
  /// into a folder that is often the user's own: a file of those names that dpsynth did not
  /// write is refused before any sampling unless --replace, and dpsynth's own earlier outputs
  /// are replaced as before. A file the user made read-only is never replaced.
  void fixedNamesReplaceOnlyDpsynthsOwnFiles() {
    QByteArray data = "y,u\n";
    for (int i = 0; i < 40; ++i)
      data += QByteArray(i % 3 ? "a," : "b,") + (i % 2 ? "1" : "0") + "\n";
    lostWrite(dir_->filePath("nb.csv"), data);
    Run r = lostRun(
        {"release", "--kind", "naive-bayes", "--data", "nb.csv", "--class", "y", "--class-levels",
         "a|b", "--features", "u", "--levels", "u=0|1", "--epsilon", "1", "--out", "release.json"},
        dir_->path());
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY(QDir(dir_->path()).mkpath("analysis"));
    lostWrite(dir_->filePath("analysis/summary.json"), "{\"mine\": \"irreplaceable\"}\n");
    lostWrite(dir_->filePath("analysis/notes.txt"), "mine\n");
    const QStringList infer{"infer",        "--release", "release.json", "--out", "analysis",
                            "--iterations", "400",       "--warmup",     "200"};
    auto before = folderSnapshot(dir_->path());
    r = lostRun(infer, dir_->path());
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("summary.json") && r.err.contains("did not write") &&
                 r.err.contains("--replace"),
             qPrintable(r.err));
    QCOMPARE(r.err.trimmed().count('\n'), 0);
    QCOMPARE(folderSnapshot(dir_->path()), before);
    r = lostRun(infer + QStringList{"--replace"}, dir_->path());
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    r = lostRun(infer, dir_->path());  // its own outputs: replaced without a word
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY(QFile::exists(dir_->filePath("analysis/notes.txt")));

    QVERIFY(QDir(dir_->path()).mkpath("proj"));
    lostWrite(dir_->filePath("proj/summary.md"), "# my own summary\n");
    lostWrite(dir_->filePath("good.json"), dpsynth::test::tinyStudyJson());
    const QStringList study{"study", "--config",  "good.json", "--out",
                            "proj",  "--threads", "1",         "--quiet"};
    before = folderSnapshot(dir_->path());
    r = lostRun(study, dir_->path());
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("summary.md") && r.err.contains("--replace"), qPrintable(r.err));
    QCOMPARE(folderSnapshot(dir_->path()), before);
    QVERIFY(QFile::remove(dir_->filePath("proj/summary.md")));
    r = lostRun(study, dir_->path());
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    r = lostRun(study, dir_->path());  // resumed: its own summaries written again
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));

    // A single file named on the command line is replaced as any CLI would, unless read-only.
    lostWrite(dir_->filePath("survey.csv"), "mine\n");
    QVERIFY(QFile::setPermissions(dir_->filePath("survey.csv"), QFile::ReadOwner));
    before = folderSnapshot(dir_->path());
    r = lostRun({"generate", "--kind", "beta", "--out", "survey.csv"}, dir_->path());
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("survey.csv is read-only"), qPrintable(r.err));
    QCOMPARE(folderSnapshot(dir_->path()), before);
    QVERIFY(
        QFile::setPermissions(dir_->filePath("survey.csv"), QFile::ReadOwner | QFile::WriteOwner));
    r = lostRun({"generate", "--kind", "beta", "--out", "survey.csv"}, dir_->path());
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
  }

  /// Issue 21, 10: run --session parses the very bytes it hashed. The data file is swapped
  /// between the session's data (2,000 records) and other data (1,000 records) as fast as a
  /// thread can while runs go on: each run either refuses the changed file or has results
  /// from the session's data; never "SHA-256 verified" and the other data's results (the
  /// previous binary, which hashed one read and parsed another, failed about one try in three).
  void runParsesTheBytesItVerified() {
    namespace session = dpsynth::core::session;
    namespace pipeline = dpsynth::core::pipeline;
    const auto counts = [](int records) {
      QByteArray b = "y\n";
      for (int i = 0; i < records; ++i) b += QByteArray::number(i % 9) + "\n";
      return b;
    };
    const QByteArray saved = counts(2000), other = counts(1000);
    const QString data = dir_->filePath("data.csv");
    lostWrite(data, saved);
    session::Session s;
    s.dataFile = data.toStdString();
    s.dataSha256 = dpsynth::core::data::sha256File(s.dataFile);
    s.dataset.outcome = "y";
    s.dataset.family = dpsynth::core::models::Family::poisson;
    pipeline::MechanismConfig unweighted;
    s.mechanisms = {unweighted};
    s.run.model.family = s.dataset.family;
    s.run.nuts.chains = 1;
    s.run.nuts.warmup = 30;
    s.run.nuts.draws = 30;
    s.run.nuts.seed = 5;
    s.reproducible = true;
    session::saveSession(dir_->filePath("a.dpsynth").toStdString(), s);

    std::atomic<bool> done{false};
    std::thread swapper([&] {
      const std::string target = data.toStdString(), staged = target + ".next";
      for (int k = 0; !done; ++k) {
        QFile f(QString::fromStdString(staged));
        if (!f.open(QIODevice::WriteOnly)) return;
        f.write(k % 2 ? other : saved);
        f.close();
        std::rename(staged.c_str(), target.c_str());  // the file is whole at every moment
      }
    });
    int verified = 0;
    for (int i = 0; i < 10; ++i) {
      const QString out = QString("out%1").arg(i);
      const Run r = lostRun({"run", "--session", "a.dpsynth", "--out", out}, dir_->path());
      if (r.exitCode == 2) {
        QVERIFY2(r.err.contains("has changed since the session was saved"), qPrintable(r.err));
        continue;
      }
      QVERIFY2(r.exitCode == 0, qPrintable(r.err));
      QVERIFY2(r.err.contains("SHA-256 verified"), qPrintable(r.err));
      QFile report(dir_->filePath(out + "/internal/report_unweighted.json"));
      QVERIFY(report.open(QIODevice::ReadOnly));
      QCOMPARE(QJsonDocument::fromJson(report.readAll()).object()["n"].toInt(), 2000);
      ++verified;
    }
    done = true;
    swapper.join();
    qInfo("%d of 10 runs read the session's data, the others were refused", verified);
  }

  /// Issue 21, 14: staging folders a killed run left are removed by the next run that stages
  /// in the same folder, after what they had set aside is put back where nothing replaced it;
  /// a staging folder whose owner still runs (it holds the lock) is never touched.
  void staleStagingFoldersAreCleanedLiveOnesKept() {
    const QString d = dir_->path();
    // A run killed while moving its files: old.csv set aside, its place still empty; a report
    // set aside whose place the run had already filled; a new file never moved.
    QVERIFY(QDir(d).mkpath(".dpsynth-stage-0badc0de/.replaced"));
    lostWrite(d + "/.dpsynth-stage-0badc0de/.replaced/old.csv", "keep me\n");
    lostWrite(d + "/.dpsynth-stage-0badc0de/s.csv", "half-moved\n");
    QVERIFY(QDir(d).mkpath(".dpsynth-confidential-0000beef/.replaced"));
    lostWrite(d + "/.dpsynth-confidential-0000beef/.replaced/old-report.json", "{}");
    lostWrite(d + "/old-report.json", "{\"newer\": true}");
    // A live run's staging folder: locked, as its owner holds it.
    QVERIFY(QDir(d).mkpath(".dpsynth-stage-11112222"));
    lostWrite(d + "/.dpsynth-stage-11112222/work.csv", "in progress\n");
    const int live = ::open(QFile::encodeName(d + "/.dpsynth-stage-11112222").constData(),
                            O_RDONLY | O_DIRECTORY);
    QVERIFY(live >= 0);
    QCOMPARE(::flock(live, LOCK_EX | LOCK_NB), 0);
    // Not a staging name: never touched.
    QVERIFY(QDir(d).mkpath(".dpsynth-stage-notmine"));

    const Run r = lostRun(
        {"fit",      "--data",  "beta.csv",        "--outcome", "value",    "--family",   "beta",
         "--chains", "1",       "--warmup",        "50",        "--draws",  "50",         "--seed",
         "3",        "--quiet", "--synthetic-out", "s.csv",     "--report", "report.json"},
        d);
    ::close(live);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY(!QFile::exists(d + "/.dpsynth-stage-0badc0de"));
    QVERIFY(!QFile::exists(d + "/.dpsynth-confidential-0000beef"));
    QFile restored(d + "/old.csv");
    QVERIFY(restored.open(QIODevice::ReadOnly));
    QCOMPARE(restored.readAll(), QByteArray("keep me\n"));
    QFile kept(d + "/old-report.json");
    QVERIFY(kept.open(QIODevice::ReadOnly));
    QCOMPARE(kept.readAll(), QByteArray("{\"newer\": true}"));
    QVERIFY(QFile::exists(d + "/.dpsynth-stage-11112222/work.csv"));
    QVERIFY(QFile::exists(d + "/.dpsynth-stage-notmine"));
    // The run's own staging folders went with it.
    const QStringList hidden = QDir(d).entryList({".dpsynth-*"}, QDir::AllEntries | QDir::Hidden);
    QCOMPARE(hidden, (QStringList{".dpsynth-stage-11112222", ".dpsynth-stage-notmine"}));
  }

 private:
  std::unique_ptr<QTemporaryDir> dir_;
};

QTEST_GUILESS_MAIN(NothingLostTest)
#include "nothing_lost_test.moc"
