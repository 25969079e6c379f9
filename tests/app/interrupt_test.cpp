/// Ctrl-C through the real binary while it reads a large input, while run exports many
/// synthetic datasets, while infer sweeps many latent records, and while a study runs: the
/// command stops at its next check, exits 130 with a line saying what it kept, and leaves no
/// output, staging folder or temporary file (a study keeps its complete replicates). Nothing
/// here is timed tightly: each test waits for a sign that dpsynth is in the phase it means to
/// interrupt, then signals, then allows many seconds for the exit (.ci/ctrl_c_latency.py
/// measures the latencies; a busy CI machine would make a time bound here flaky).
#include <signal.h>
#include <sys/types.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include "core/data/sha256.h"
#include "support/cli_process.h"

namespace {

struct Interrupted {
  int exitCode = -1;
  QByteArray err;
};

/// Starts dpsynth in `cwd`, waits until stderr holds `sign` (or `delayMs` after the start when
/// `sign` is empty) and `afterMs` more, sends SIGINT, and waits for the exit.
Interrupted interruptAt(const QStringList& args, const QString& cwd, const QByteArray& sign,
                        int afterMs, int delayMs = 0) {
  QProcess p;
  p.setWorkingDirectory(cwd);
  p.start(DPSYNTH_CLI_PATH, args);
  p.closeWriteChannel();
  Interrupted out;
  if (!p.waitForStarted(60000)) return out;
  QElapsedTimer waited;
  waited.start();
  while (!sign.isEmpty() && !out.err.contains(sign) && waited.elapsed() < 120000 &&
         p.state() == QProcess::Running) {
    p.waitForReadyRead(100);
    out.err += p.readAllStandardError();
  }
  QTest::qWait(afterMs + (sign.isEmpty() ? delayMs : 0));
  if (p.state() == QProcess::Running) ::kill(static_cast<pid_t>(p.processId()), SIGINT);
  if (!p.waitForFinished(60000)) {
    p.kill();
    p.waitForFinished();
    out.exitCode = -2;
    return out;
  }
  out.err += p.readAllStandardError();
  out.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
  return out;
}

/// About `megabytes` MB of "id,visits,age,income,region" records, written in 1 MB blocks.
bool writeLargeCsv(const QString& path, int megabytes) {
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly)) return false;
  static const char* const kRegions[] = {"north", "south", "east", "west"};
  QByteArray block;
  block.reserve(1 << 20);
  for (int i = 0; block.size() < (1 << 20); ++i) {
    block += QByteArray("P") + QByteArray::number(1000000 + i) + ',' + QByteArray::number(i % 9) +
             ',' + QByteArray::number(18 + i % 70) + ',' + QByteArray::number(15000 + i % 60000) +
             ".25," + kRegions[i % 4] + '\n';
  }
  if (file.write("id,visits,age,income,region\n") < 0) return false;
  for (int k = 0; k < megabytes; ++k) {
    if (file.write(block) != block.size()) return false;
  }
  return file.flush();
}

}  // namespace

class InterruptTest : public QObject {
  Q_OBJECT

 private slots:
  void ctrlCWhileReadingEndsTheCommandAndWritesNothing() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    // ~200 MB: reading and parsing it takes seconds even on a fast machine, so the signal
    // (sent as soon as dpsynth announces the read) lands in the read.
    const QString data = dir.filePath("large.csv");
    QVERIFY(writeLargeCsv(data, 200));

    QProcess p;
    p.start(DPSYNTH_CLI_PATH,
            {"fit", "--data", data, "--outcome", "visits", "--covariates", "age,region", "--family",
             "poisson", "--mechanism", "unweighted", "--seed", "1", "--report",
             dir.filePath("report.json"), "--synthetic-out", dir.filePath("synthetic.csv")});
    p.closeWriteChannel();
    QVERIFY(p.waitForStarted(60000));
    QByteArray err;
    QElapsedTimer waited;
    waited.start();
    while (!err.contains("reading ") && waited.elapsed() < 120000 &&
           p.state() == QProcess::Running) {
      p.waitForReadyRead(1000);
      err += p.readAllStandardError();
    }
    QVERIFY2(err.contains("reading " + data.toUtf8()), err.constData());
    QVERIFY(::kill(static_cast<pid_t>(p.processId()), SIGINT) == 0);

    QVERIFY2(p.waitForFinished(60000), "dpsynth did not stop after Ctrl-C");
    err += p.readAllStandardError();
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QCOMPARE(p.exitCode(), 130);
    QVERIFY2(err.contains("dpsynth: cancelled while reading " + data.toUtf8() +
                          "; no files were written"),
             err.constData());
    // Nothing after the read happened (the family was given, so the next line would be about
    // dropped columns or sampling), and nothing was written: not even a temporary file.
    QVERIFY2(!err.contains("stage"), err.constData());
    const QStringList entries =
        QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot);
    QCOMPARE(entries, QStringList{"large.csv"});
    QVERIFY(p.readAllStandardOutput().isEmpty());
  }

  /// Issue 21, 5: run's export (synthesis and writing) stops on Ctrl-C: 20,000 datasets of
  /// 1,000 records take seconds to write, and the signal lands among them. Nothing is left: no
  /// output folder, no staging folder.
  void ctrlCDuringRunsExportWritesNothing() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString data = dir.filePath("nbmix.csv");
    QVERIFY(QFile::copy(QString(DPSYNTH_SOURCE_DIR) + "/resources/samples/nbmix.csv", data));
    QFile session(dir.filePath("s.dpsynth"));
    QVERIFY(session.open(QIODevice::WriteOnly));
    session.write(R"J({"version": 1, "data": {"file": "nbmix.csv", "sample": "", "sha256": ")J" +
                  QByteArray::fromStdString(dpsynth::core::data::sha256File(data.toStdString())) +
                  R"J(", "outcome": "count", "covariates": [], "family": "negbin",
      "drop_missing": false, "weights_from": ""}, "mechanisms": [{"mechanism": "unweighted",
      "c": 1, "g": 0, "radius": 0, "radius_relative": false, "k": 0.95, "epsilon": null,
      "downscale": 1, "lower": null, "upper": null, "bins": 0, "reproducible_noise": false}],
      "run": {"seed": 5, "neighbours": "replace-one", "chains": 1, "warmup": 50, "draws": 50,
      "threads": 1, "metric": "auto", "sd_scale": 1}, "synthetic_datasets": 20000})J");
    session.close();
    const auto before = dpsynth::test::folderSnapshot(dir.path());
    const Interrupted r =
        interruptAt({"run", "--session", "s.dpsynth", "--out", "o"}, dir.path(), "stage", 300);
    QVERIFY2(r.exitCode == 130, r.err.constData());
    QVERIFY2(r.err.contains("dpsynth: cancelled; no files were written"), r.err.constData());
    // Issue 21, 16: the interrupt itself promises nothing; the command says what it kept.
    QVERIFY2(!r.err.contains("nothing will be written"), r.err.constData());
    QCOMPARE(dpsynth::test::folderSnapshot(dir.path()), before);
  }

  /// Issue 21, 6 and 9: infer polls Ctrl-C inside a sweep over 10^7 latent records (one sweep
  /// takes about a second) and writes nothing.
  void ctrlCDuringInferSweepsWritesNothing() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QFile release(dir.filePath("ph.json"));
    QVERIFY(release.open(QIODevice::WriteOnly));
    release.write(R"J({"version": 1, "kind": "ph", "mechanism": "perturbed histogram",
      "epsilon": 1.0, "neighbours": "replace-one", "n": 10000000, "bounds": {"lower": 0,
      "upper": 100}, "bins": 2, "edges": [0, 50, 100], "binning": "x", "integer": false,
      "sensitivity": 2, "noise_rate": {"numerator": 500000, "denominator": 1000000},
      "noise": "x", "noisy_counts": [5000000, 5000000], "noisy_counts_clamped_at_zero": false,
      "synthesizer_family": "normal", "model": "x", "not_for_release": true})J");
    release.close();
    const auto before = dpsynth::test::folderSnapshot(dir.path());
    const Interrupted r =
        interruptAt({"infer", "--release", "ph.json", "--family", "normal", "--out", "p",
                     "--chains", "1", "--iterations", "100", "--warmup", "50", "--seed", "1"},
                    dir.path(), {}, 0, 1500);
    QVERIFY2(r.exitCode == 130, r.err.constData());
    QVERIFY2(r.err.contains("infer cancelled; nothing was written"), r.err.constData());
    QCOMPARE(dpsynth::test::folderSnapshot(dir.path()), before);
  }

  /// bench stops at Ctrl-C as the other commands do: exit 130, --out not written, and its
  /// temporary CSV gone from TMPDIR (it used to die by the signal and leave the file behind).
  void ctrlCDuringBenchLeavesNoTemporaryFile() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(QDir(dir.path()).mkdir("tmp"));
    QProcess p;
    p.setWorkingDirectory(dir.path());
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("TMPDIR", dir.filePath("tmp"));
    p.setProcessEnvironment(env);
    p.start(DPSYNTH_CLI_PATH, {"bench", "--quick", "--out", "b.json", "--only", "csv import"});
    QVERIFY(p.waitForStarted(60000));
    // Interrupted once the temporary file exists, so the handler is certainly in place.
    QElapsedTimer waited;
    waited.start();
    while (QDir(dir.filePath("tmp")).isEmpty() && p.state() == QProcess::Running &&
           waited.elapsed() < 60000)
      QTest::qWait(5);
    QVERIFY(p.state() == QProcess::Running);
    QVERIFY(::kill(static_cast<pid_t>(p.processId()), SIGINT) == 0);
    QVERIFY(p.waitForFinished(60000));
    const QByteArray err = p.readAllStandardError();
    QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 130, err.constData());
    QVERIFY2(err.contains("bench cancelled; b.json was not written"), err.constData());
    QVERIFY(!QFile::exists(dir.filePath("b.json")));
    QVERIFY(QDir(dir.filePath("tmp")).isEmpty());
  }

  /// Issue 21, 16: a study keeps its complete replicates on Ctrl-C and says so; the interrupt
  /// line no longer claims that nothing will be written.
  void ctrlCDuringAStudyKeepsCompleteReplicatesAndSaysSo() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QFile config(dir.filePath("c.json"));
    QVERIFY(config.open(QIODevice::WriteOnly));
    config.write(R"J({"version": 1, "source": {"generator": "poisson(20)", "n": 2000},
      "mechanisms": ["unweighted"], "epsilon": [6], "replicates": 200,
      "sampler": {"chains": 1, "warmup": 100, "draws": 100}, "seed": 11})J");
    config.close();
    const Interrupted r =
        interruptAt({"study", "--config", "c.json", "--out", "st", "--threads", "1"}, dir.path(),
                    "replicates 1/", 0);
    QVERIFY2(r.exitCode == 130, r.err.constData());
    QVERIFY2(r.err.contains("complete replicate(s) kept in st"), r.err.constData());
    QVERIFY2(!r.err.contains("nothing will be written"), r.err.constData());
    QVERIFY(QFile::exists(dir.filePath("st/replicates.csv")));
  }
};

QTEST_GUILESS_MAIN(InterruptTest)
#include "interrupt_test.moc"
