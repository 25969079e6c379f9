/// dpsynth run: a studio session repeated from the command line gives the same folder every
/// time, refuses changed or missing data, and agrees with `dpsynth fit`.
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <memory>

#include "core/session/session.h"
#include "core/session/sha256.h"

namespace session = dpsynth::core::session;
namespace pipeline = dpsynth::core::pipeline;

namespace {

struct Run {
  int exitCode = -1;
  QString out, err;
};

Run cli(const QStringList& args) {
  QProcess p;
  p.start(DPSYNTH_CLI_PATH, args);
  if (!p.waitForFinished(180000)) qFatal("dpsynth did not finish");
  return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()),
          QString::fromUtf8(p.readAllStandardError())};
}

QByteArray readAll(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return {};
  return f.readAll();
}

/// JSON without the keys that measure time (they differ between runs by nature) and, when
/// asked, without "from_cache" (a run shares stages between mechanisms, fit does not).
QJsonValue withoutTimings(const QJsonValue& v, bool dropCache) {
  if (v.isObject()) {
    QJsonObject o;
    const QJsonObject in = v.toObject();
    for (auto it = in.begin(); it != in.end(); ++it) {
      if (it.key() == "seconds" || it.key() == "sampling_seconds" || it.key() == "wall_seconds")
        continue;
      if (dropCache && it.key() == "from_cache") continue;
      o.insert(it.key(), withoutTimings(it.value(), dropCache));
    }
    return o;
  }
  if (v.isArray()) {
    QJsonArray a;
    for (const auto& item : v.toArray()) a.append(withoutTimings(item, dropCache));
    return a;
  }
  return v;
}

/// dropCache: also drops the run's total gradient evaluations, which count only the stages
/// that were not served from the cache (a cost, not a result).
QJsonValue jsonFile(const QString& path, bool dropCache = false) {
  QJsonObject o =
      withoutTimings(QJsonDocument::fromJson(readAll(path)).object(), dropCache).toObject();
  if (dropCache) {
    QJsonObject sampler = o["sampler"].toObject();
    sampler.remove("gradient_evaluations");
    o["sampler"] = sampler;
  }
  return o;
}

const QStringList kFiles = {"internal_report.html",
                            "release_note.html",
                            "report_censor-w.json",
                            "report_lw.json",
                            "results.csv",
                            "session.dpsynth",
                            "synthetic_censor-w.csv",
                            "synthetic_censor-w.csv.json",
                            "synthetic_lw.csv",
                            "synthetic_lw.csv.json"};

}  // namespace

class RunTest : public QObject {
  Q_OBJECT
 private slots:
  void init() {
    dir_ = std::make_unique<QTemporaryDir>();
    QVERIFY(dir_->isValid());
    data_ = dir_->filePath("nbmix.csv");
    QVERIFY(QFile::copy(QString(DPSYNTH_SOURCE_DIR) + "/resources/samples/nbmix.csv", data_));
    QFile::setPermissions(data_, QFile::ReadOwner | QFile::WriteOwner);

    session::Session s;
    s.dataFile = "nbmix.csv";  // relative: resolved against the session file's folder
    s.dataSha256 = session::sha256File(data_.toStdString());
    s.dataset.outcome = "count";
    s.dataset.family = dpsynth::core::models::Family::negbin;
    pipeline::MechanismConfig lw, censor;
    lw.mechanism = pipeline::Mechanism::lw;
    censor.mechanism = pipeline::Mechanism::censorW;
    censor.epsilon = 6;
    s.mechanisms = {lw, censor};
    s.run.model.family = s.dataset.family;
    s.run.nuts.chains = 2;
    s.run.nuts.warmup = 150;
    s.run.nuts.draws = 150;
    s.run.nuts.seed = 5;
    session_ = dir_->filePath("study.dpsynth");
    session::saveSession(session_.toStdString(), s);
  }

  void runTwiceGivesIdenticalFolders() {
    const QString a = dir_->filePath("a"), b = dir_->filePath("b/nested");
    Run r1 = cli({"run", "--session", session_, "--out", a, "--threads", "2"});
    QVERIFY2(r1.exitCode == 0, qPrintable(r1.err));
    Run r2 = cli({"run", "--session", session_, "--out", b, "--threads", "1", "--quiet"});
    QVERIFY2(r2.exitCode == 0, qPrintable(r2.err));
    QVERIFY(r2.out.isEmpty());
    const auto all = QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot;
    QCOMPARE(QDir(a).entryList(all, QDir::Name), kFiles);  // no temporary folder left
    QCOMPARE(QDir(b).entryList(all, QDir::Name), kFiles);
    for (const QString& f : kFiles) {
      if (f.endsWith(".json")) {
        QVERIFY2(jsonFile(a + "/" + f) == jsonFile(b + "/" + f), qPrintable(f));
      } else {
        QVERIFY2(readAll(a + "/" + f) == readAll(b + "/" + f), qPrintable(f));
      }
    }
    QVERIFY(readAll(a + "/results.csv").startsWith("mechanism,guarantee,lipschitz,epsilon,"));
    for (const QString& f : kFiles) QVERIFY2(r1.out.contains(f), qPrintable(r1.out));
  }

  void changedOrMissingDataIsRefused() {
    {
      QFile f(data_);
      QVERIFY(f.open(QIODevice::Append));
      f.write("100\n");
    }
    const QString out = dir_->filePath("out");
    Run r = cli({"run", "--session", session_, "--out", out});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("changed"), qPrintable(r.err));
    QVERIFY2(r.err.contains("nbmix.csv"), qPrintable(r.err));
    QCOMPARE(r.err.trimmed().count('\n'), 0);
    QVERIFY(!QDir(out).exists());

    QVERIFY(QFile::remove(data_));
    r = cli({"run", "--session", session_, "--out", out});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("not found"), qPrintable(r.err));
    QVERIFY(!QDir(out).exists());
  }

  void badSessionIsBadInput() {
    const QString bad = dir_->filePath("bad.dpsynth");
    QFile f(bad);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("{\"version\": 1}");
    f.close();
    Run r = cli({"run", "--session", bad, "--out", dir_->filePath("o")});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("bad.dpsynth"), qPrintable(r.err));
    r = cli({"run", "--session", dir_->filePath("none.dpsynth"), "--out", dir_->filePath("o")});
    QCOMPARE(r.exitCode, 2);
    QVERIFY(!QDir(dir_->filePath("o")).exists());
  }

  void runAndFitAgree() {
    const QString out = dir_->filePath("run");
    Run r = cli({"run", "--session", session_, "--out", out, "--quiet"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QStringList common = {"--data",  data_,      "--outcome", "count",    "--family",
                                "negbin",  "--chains", "2",         "--warmup", "150",
                                "--draws", "150",      "--seed",    "5",        "--quiet"};
    const QString lw = dir_->filePath("fit_lw.json"), cw = dir_->filePath("fit_cw.json");
    r = cli(QStringList{"fit", "--mechanism", "lw", "--report", lw} + common);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    r = cli(QStringList{"fit", "--mechanism", "censor-w", "--epsilon", "6", "--report", cw} +
            common);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QCOMPARE(jsonFile(lw), jsonFile(out + "/report_lw.json"));
    // censor-w re-uses the unweighted and LW fits of the run's cache: only the cache flags and
    // the cost of the stages that ran differ.
    QCOMPARE(jsonFile(cw, true), jsonFile(out + "/report_censor-w.json", true));
  }

  void interruptWritesNothing() {
    session::Session s = session::loadSession(session_.toStdString());
    s.run.nuts.warmup = 20000;
    s.run.nuts.draws = 20000;
    const QString slow = dir_->filePath("slow.dpsynth");
    session::saveSession(slow.toStdString(), s);
    const QString out = dir_->filePath("slow_out");
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(DPSYNTH_CLI_PATH, {"run", "--session", slow, "--out", out});
    QVERIFY(p.waitForStarted());
    QByteArray output;
    QElapsedTimer timer;
    timer.start();
    while (!output.contains("running") && timer.elapsed() < 20000) {
      p.waitForReadyRead(100);
      output += p.readAll();
    }
    QVERIFY2(output.contains("running"), output.constData());
    QTest::qWait(300);  // well inside the sampler
    p.terminate();      // SIGTERM, handled like Ctrl-C
    QVERIFY(p.waitForFinished(20000));
    QCOMPARE(p.exitCode(), 130);
    QVERIFY(!QDir(out).exists());
  }

 private:
  std::unique_ptr<QTemporaryDir> dir_;
  QString data_, session_;
};

QTEST_GUILESS_MAIN(RunTest)
#include "run_test.moc"
