/// dpsynth study: a tiny study from the command line, its shards run through GNU parallel and
/// merged equal to the unsharded study row for row; bad configs and shards exit 2.
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include "support/cli_process.h"
#include "support/tiny_study.h"

namespace {

/// replicates.csv of a study folder without its last column (seconds vary from run to run).
QStringList studyCliRows(const QString& folder) {
  QFile f(folder + "/replicates.csv");
  if (!f.open(QIODevice::ReadOnly)) return {"unreadable"};
  QStringList rows;
  for (const QString& line : QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts))
    rows << line.left(line.lastIndexOf(','));
  return rows;
}

void writeStudyCliConfig(const QString& path, const char* text) {
  QFile f(path);
  QVERIFY(f.open(QIODevice::WriteOnly));
  f.write(text);
}

}  // namespace

class StudyCliTest : public QObject {
  Q_OBJECT

 private slots:
  void shardsThroughGnuParallelMergeToTheUnshardedStudy() {
    const QString parallel = QStandardPaths::findExecutable("parallel");
    if (parallel.isEmpty()) QSKIP("GNU parallel is not installed (packaging/install-deps.sh)");
    QTemporaryDir dir;
    const QString config = dir.filePath("tiny.json");
    writeStudyCliConfig(config, dpsynth::test::tinyStudyJson());

    const auto whole = dpsynth::test::runDpsynth(
        {"study", "--config", config, "--out", dir.filePath("whole"), "--threads", "1"});
    QVERIFY2(whole.exitCode == 0, qPrintable(whole.err));
    QVERIFY2(whole.err.contains("replicates 3/3"), qPrintable(whole.err));
    for (const char* name : {"replicates.csv", "summary.json", "summary.md", "lipschitz.svg",
                             "study.json", "study.sha256"})
      QVERIFY2(QFile::exists(dir.filePath("whole/") + name), name);

    // Three shards, two at a time, as the README's GNU parallel line runs them.
    QProcess p;
    p.setWorkingDirectory(dir.path());
    p.start(parallel, {"-j", "2", DPSYNTH_CLI_PATH, "study", "--config", config, "--out", "shard{}",
                       "--shard", "{}/3", "--threads", "1", "--quiet", ":::", "0", "1", "2"});
    QVERIFY(p.waitForFinished(180000));
    QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());

    const auto merged = dpsynth::test::runDpsynth({"study", "merge", "--out",
                                                   dir.filePath("merged"), dir.filePath("shard0"),
                                                   dir.filePath("shard1"), dir.filePath("shard2")});
    QVERIFY2(merged.exitCode == 0, qPrintable(merged.err));
    QCOMPARE(studyCliRows(dir.filePath("merged")).size(), 1 + 12);
    QCOMPARE(studyCliRows(dir.filePath("merged")), studyCliRows(dir.filePath("whole")));

    // Re-running the finished study resumes with nothing to do and keeps its rows.
    const auto again = dpsynth::test::runDpsynth(
        {"study", "--config", config, "--out", dir.filePath("whole"), "--threads", "1"});
    QVERIFY2(again.exitCode == 0, qPrintable(again.err));
    QVERIFY2(again.err.contains("0 replicate(s) to run (3 kept)"), qPrintable(again.err));
  }

  void badInputExitsTwoWithOneLine() {
    QTemporaryDir dir;
    const QString config = dir.filePath("bad.json");
    writeStudyCliConfig(config, R"J({"version": 1, "source": {"generator": "poisson(20)", "n": 100},
      "mechanisms": ["unweighted"], "replicates": 0, "seed": 1})J");
    auto r = dpsynth::test::runDpsynth({"study", "--config", config, "--out", dir.filePath("o")});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("replicates must be between 1 and"), qPrintable(r.err));
    QCOMPARE(r.err.trimmed().count('\n'), 0);

    const QString good = dir.filePath("tiny.json");
    writeStudyCliConfig(good, dpsynth::test::tinyStudyJson());
    r = dpsynth::test::runDpsynth(
        {"study", "--config", good, "--out", dir.filePath("o"), "--shard", "3/3"});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("--shard"), qPrintable(r.err));
    r = dpsynth::test::runDpsynth({"study", "--out", dir.filePath("o")});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("--config"), qPrintable(r.err));
  }
};

QTEST_GUILESS_MAIN(StudyCliTest)
#include "study_cli_test.moc"
