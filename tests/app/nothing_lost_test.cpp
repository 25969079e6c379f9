/// Nothing lost (issue 21) through the real binary, each case in a fresh folder with the SHA-256
/// of every file before and after: dpsynth replaces or deletes only what it can show it wrote,
/// two study processes sharing a folder keep every row, and a study that fails leaves nothing
/// that would make its corrected config "another study".
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>
#include <memory>
#include <set>

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
  return QByteArray(dpsynth::test::tinyStudyJson()).replace("\"replicates\": 3", "\"replicates\": 6");
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
    const QStringList fit{"fit", "--data", "beta.csv", "--outcome", "value", "--family", "beta",
                          "--chains", "1", "--warmup", "50", "--draws", "50", "--seed", "3",
                          "--quiet", "--synthetic-out", "r.csv"};
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
    namespace session = dpsynth::core::session;
    namespace pipeline = dpsynth::core::pipeline;
    session::Session s;
    s.dataFile = dir_->filePath("beta.csv").toStdString();
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
    s.reproducible = false;  // a release: seeded runs write internal/ only
    const QString sessionFile = dir_->filePath("a.dpsynth");
    session::saveSession(sessionFile.toStdString(), s);
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

  /// Issue 21, 3: two shards started together on one folder both keep all their rows.
  void studyShardsSharingAFolderKeepEveryRow() {
    lostWrite(dir_->filePath("c.json"), sixReplicateStudy());
    QProcess shard0, shard1;
    for (QProcess* p : {&shard0, &shard1}) p->setWorkingDirectory(dir_->path());
    const QStringList base{"study", "--config", "c.json", "--out", "o", "--threads", "1",
                           "--quiet", "--shard"};
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
    QVERIFY2(summary.readAll().contains("| mean | 6 |"), "the summary counts fewer than 6 replicates");
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

 private:
  std::unique_ptr<QTemporaryDir> dir_;
};

QTEST_GUILESS_MAIN(NothingLostTest)
#include "nothing_lost_test.moc"
