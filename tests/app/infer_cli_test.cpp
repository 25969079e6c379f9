/// dpsynth release and dpsynth infer: a naive-Bayes release round trip, reproducibility with a
/// seed, and exit 2 with one line for bad input.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include "core/data/sha256.h"
#include "core/pipeline/mechanism.h"
#include "core/session/session.h"
#include "support/cli_process.h"

namespace {

using InferCliRun = dpsynth::test::CliRun;
InferCliRun inferCli(const QStringList& args) { return dpsynth::test::runDpsynth(args); }

QByteArray inferCliRead(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return {};
  return f.readAll();
}

/// 12 records: class y in {a, b}, features u in {0, 1} and v in {x, y, z}.
QString inferCliWriteData(const QTemporaryDir& dir) {
  const QString path = dir.filePath("data.csv");
  QFile f(path);
  f.open(QIODevice::WriteOnly);
  f.write("y,u,v,other\n");
  const char* rows[] = {"a,0,x,1", "a,0,y,2", "a,1,x,3", "b,1,z,4",  "b,1,z,5",  "b,0,y,6",
                        "a,0,x,7", "b,1,y,8", "a,1,z,9", "b,1,z,10", "a,0,x,11", "b,0,z,12"};
  for (const char* r : rows) {
    f.write(r);
    f.write("\n");
  }
  return path;
}

QStringList inferCliReleaseArgs(const QString& data, const QString& out) {
  return {"release",        "--kind",    "naive-bayes", "--data", data,       "--class", "y",
          "--class-levels", "a|b",       "--features",  "u,v",    "--levels", "u=0|1",   "--levels",
          "v=x|y|z",        "--epsilon", "2",           "--out",  out};
}

/// A seeded session with the ph mechanism only, on 60 normal-ish values in [0, 10].
/// A seeded session (reproducible: its files go to internal/) unless `release`; add-remove
/// neighbours when `addRemove`.
QString inferCliPhSession(const QTemporaryDir& dir, bool release = false, bool addRemove = false) {
  const QString data = dir.filePath("values.csv");
  QFile f(data);
  f.open(QIODevice::WriteOnly);
  f.write("value,id\n");
  for (int i = 0; i < 60; ++i) {
    const double v = 5.0 + 2.0 * std::sin(i * 2.3) + 0.01 * i;
    f.write(QByteArray::number(v, 'f', 3) + "," + QByteArray::number(i) + "\n");
  }
  f.close();
  namespace session = dpsynth::core::session;
  namespace pipeline = dpsynth::core::pipeline;
  session::Session s;
  s.dataFile = "values.csv";
  s.dataSha256 = dpsynth::core::data::sha256File(data.toStdString());
  s.dataset.outcome = "value";
  s.dataset.family = dpsynth::core::models::Family::normal;
  pipeline::MechanismConfig ph;
  ph.mechanism = pipeline::Mechanism::ph;
  ph.epsilon = 1;
  ph.lower = 0;
  ph.upper = 10;
  ph.bins = 6;
  s.mechanisms = {ph};
  s.run.model.family = s.dataset.family;
  s.run.nuts.seed = 12;
  s.reproducible = !release;
  if (addRemove) s.run.neighbours = dpsynth::core::privacy::Neighbours::addRemove;
  const QString file = dir.filePath("ph.dpsynth");
  session::saveSession(file.toStdString(), s);
  return file;
}

}  // namespace

class InferCliTest : public QObject {
  Q_OBJECT

 private slots:
  void roundTrip() {
    QTemporaryDir dir;
    const QString data = inferCliWriteData(dir);
    const QString release = dir.filePath("release.json");
    InferCliRun r = inferCli(inferCliReleaseArgs(data, release) << "--seed"
                                                                << "4");
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QJsonObject rel = QJsonDocument::fromJson(inferCliRead(release)).object();
    QCOMPARE(rel["version"].toInt(), 1);
    QCOMPARE(rel["kind"].toString(), QString("naive-bayes"));
    QCOMPARE(rel["n"].toInt(), 12);
    QCOMPARE(rel["sensitivity"].toInt(), 4);
    QCOMPARE(rel["noisy_counts"].toArray().size(), 10);
    QVERIFY(rel["not_for_release"].toBool());
    QVERIFY(!inferCliRead(release).contains("other"));  // only the declared columns' layout

    const QString out = dir.filePath("posterior");
    const QStringList inferArgs{"infer", "--release",    release, "--out",    out,   "--seed",
                                "9",     "--iterations", "400",   "--warmup", "100", "--chains",
                                "2"};
    r = inferCli(inferArgs);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QJsonObject summary =
        QJsonDocument::fromJson(inferCliRead(out + "/summary.json")).object();
    QVERIFY(summary["min_acceptance"].toDouble() >= std::exp(-2.0) - 1e-12);
    QVERIFY(summary["mean_acceptance"].toDouble() >= summary["min_acceptance"].toDouble());
    const QJsonObject p = summary["parameters"].toObject()["p[a]"].toObject();
    for (const char* key : {"mean", "sd", "q05", "q50", "q95", "rhat", "ess"}) {
      QVERIFY2(p.contains(key), key);
    }
    QVERIFY(p["q05"].toDouble() <= p["q50"].toDouble() &&
            p["q50"].toDouble() <= p["q95"].toDouble());
    const QByteArray draws = inferCliRead(out + "/draws.csv");
    QVERIFY(draws.startsWith("chain,draw,p[a],p[b],"));
    QCOMPARE(draws.count('\n'), 1 + 2 * 300);
    QCOMPARE(inferCliRead(out + "/trace.csv").count('\n'), 1 + 2 * 400);

    // The same seed gives the same draws.
    const QString again = dir.filePath("again");
    QStringList againArgs = inferArgs;
    againArgs[4] = again;
    QCOMPARE(inferCli(againArgs).exitCode, 0);
    QCOMPARE(inferCliRead(again + "/draws.csv"), draws);
  }

  /// The smallest ε the option accepts makes a release (its rate was once rounded down from
  /// the double below 1e-6 to 0 and refused after the option check had passed it).
  void smallestEpsilonMakesARelease() {
    QTemporaryDir dir;
    const QString data = inferCliWriteData(dir);
    const QString release = dir.filePath("tiny.json");
    QStringList args = inferCliReleaseArgs(data, release);
    args[args.indexOf("--epsilon") + 1] = "0.000001";
    const InferCliRun r = inferCli(args << "--seed"
                                        << "4");
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QJsonObject rel = QJsonDocument::fromJson(inferCliRead(release)).object();
    QCOMPARE(rel["epsilon"].toDouble(), 1e-6);
    QCOMPARE(rel["noise_rate"].toObject()["numerator"].toInteger(), 1);
    // infer reads it back (its rate is checked against ε).
    const InferCliRun back =
        inferCli({"infer", "--release", release, "--out", dir.filePath("p"), "--seed", "1",
                  "--iterations", "60", "--warmup", "20", "--chains", "1"});
    QVERIFY2(back.exitCode == 0, qPrintable(back.err));
  }

  /// SPEC §0: a seeded release file is not for release and never goes into a release/ folder.
  void seededReleaseFilesStayOutOfRelease() {
    QTemporaryDir dir;
    const QString data = inferCliWriteData(dir);
    QVERIFY(QDir(dir.path()).mkpath("release"));
    const QString target = dir.filePath("release/nb.json");
    InferCliRun r = inferCli(inferCliReleaseArgs(data, target) << "--seed"
                                                               << "4");
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("release/"), qPrintable(r.err));
    QVERIFY(!QFile::exists(target));
    r = inferCli(inferCliReleaseArgs(data, target));  // a release: OS noise, allowed
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
  }

  void phExportThenInfer() {
    // `dpsynth run` exports the ph release file (into internal/ for this seeded session: a
    // seeded run never writes into release/); `dpsynth infer` analyses it.
    QTemporaryDir dir;
    const QString session = inferCliPhSession(dir);
    const QString exported = dir.filePath("export");
    InferCliRun r = inferCli({"run", "--session", session, "--out", exported, "--quiet"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY(!QFileInfo::exists(exported + "/release"));
    const QString release = exported + "/internal/ph-release_ph.json";
    const QJsonObject rel = QJsonDocument::fromJson(inferCliRead(release)).object();
    QCOMPARE(rel["kind"].toString(), QString("ph"));
    QCOMPARE(rel["bins"].toInt(), 6);
    QCOMPARE(rel["n"].toInt(), 60);
    QVERIFY(!inferCliRead(release).contains("id"));

    const QString out = dir.filePath("posterior");
    const QStringList args{"infer", "--release", release,  "--family", "normal",
                           "--out", out,         "--seed", "3",        "--iterations",
                           "300",   "--warmup",  "100",    "--chains", "2"};
    r = inferCli(args);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY(r.out.contains("gradient evaluations"));
    const QJsonObject summary =
        QJsonDocument::fromJson(inferCliRead(out + "/summary.json")).object();
    QCOMPARE(summary["kind"].toString(), QString("ph"));
    QCOMPARE(summary["family"].toString(), QString("normal"));
    QVERIFY(summary["gradient_evaluations"].toDouble() > 0);
    QVERIFY(summary["acceptance_bound"].toDouble() >= std::exp(-1.0) - 1e-12);
    QVERIFY(summary["min_acceptance"].toDouble() >= summary["acceptance_bound"].toDouble() - 1e-12);
    const QJsonObject params = summary["parameters"].toObject();
    QVERIFY(params.contains("beta[0]") && params.contains("sigma"));
    QVERIFY(std::abs(params["beta[0]"].toObject()["mean"].toDouble() - 5.0) < 1.5);
    QVERIFY(inferCliRead(out + "/draws.csv").startsWith("chain,draw,beta[0],sigma\n"));
    QCOMPARE(inferCliRead(out + "/draws.csv").count('\n'), 1 + 2 * 200);

    // The same seed with another thread count gives the same draws.
    QStringList again = args;
    again[again.indexOf(out)] = dir.filePath("again");
    again << "--threads"
          << "1";
    QCOMPARE(inferCli(again).exitCode, 0);
    QCOMPARE(inferCliRead(dir.filePath("again") + "/draws.csv"), inferCliRead(out + "/draws.csv"));

    // A ph release needs a family; a naive-Bayes one takes none; an unknown family is refused.
    struct PhCase {
      QStringList args;
      const char* expect;
    };
    const QString nb = dir.filePath("nb.json");
    QCOMPARE(inferCli(inferCliReleaseArgs(inferCliWriteData(dir), nb) << "--seed"
                                                                      << "1")
                 .exitCode,
             0);
    const PhCase cases[] = {
        {{"infer", "--release", release, "--out", dir.filePath("o")}, "--family"},
        {{"infer", "--release", release, "--family", "gamma", "--out", dir.filePath("o")}, "gamma"},
        {{"infer", "--release", nb, "--family", "normal", "--out", dir.filePath("o")}, "--family"},
        {{"infer", "--release", release, "--family", "normal", "--sd-scale", "0", "--out",
          dir.filePath("o")},
         "--sd-scale"},
    };
    for (const PhCase& c : cases) {
      const InferCliRun bad = inferCli(c.args);
      QVERIFY2(bad.exitCode == 2, qPrintable(c.args.join(' ') + " -> " + bad.err));
      QVERIFY2(bad.err.contains(c.expect), qPrintable(bad.err));
      QCOMPARE(bad.err.trimmed().count('\n'), 0);
    }
    QVERIFY(!QDir(dir.filePath("o")).exists());
  }

  /// SPEC §0: under add-remove a release's ph file publishes a noisy n (never the data's 60),
  /// the same n as the sidecar and the synthetic file's row count, and `dpsynth infer` reads it.
  void phReleaseUnderAddRemovePublishesTheNoisySize() {
    QTemporaryDir dir;
    const QString session = inferCliPhSession(dir, /*release=*/true, /*addRemove=*/true);
    const QString exported = dir.filePath("export");
    InferCliRun r = inferCli(
        {"run", "--session", session, "--out", exported, "--quiet", "--size-epsilon", "0.05"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QString release = exported + "/release/ph-release_ph.json";
    const QJsonObject rel = QJsonDocument::fromJson(inferCliRead(release)).object();
    QCOMPARE(rel["n_source"].toString(), QString("noisy"));
    QCOMPARE(rel["size_epsilon"].toDouble(), 0.05);
    QCOMPARE(rel["epsilon_total"].toDouble(), 1.05);
    const int n = rel["n"].toInt();
    QVERIFY(n >= 1);
    const QJsonObject side =
        QJsonDocument::fromJson(inferCliRead(exported + "/release/synthetic_ph.csv.json")).object();
    QCOMPARE(side["n"].toInt(), n);
    QCOMPARE(side["n_source"].toString(), QString("noisy"));
    QCOMPARE(side["epsilon"].toDouble(), 1.05);
    QCOMPARE(inferCliRead(exported + "/release/synthetic_ph.csv").count('\n'), 1 + n);
    const QString out = dir.filePath("posterior");
    r = inferCli({"infer", "--release", release, "--family", "normal", "--out", out, "--seed", "3",
                  "--iterations", "200", "--warmup", "100", "--chains", "2"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
  }

  void badInputExitsTwo() {
    QTemporaryDir dir;
    const QString data = inferCliWriteData(dir);
    const QString release = dir.filePath("release.json");
    struct Case {
      QStringList args;
      const char* expect;
    };
    QStringList undeclared = inferCliReleaseArgs(data, release);
    undeclared[undeclared.indexOf("v=x|y|z")] = "v=x|y";
    QStringList missingLevels = inferCliReleaseArgs(data, release);
    missingLevels.removeAt(missingLevels.indexOf("u=0|1") - 1);
    missingLevels.removeAt(missingLevels.indexOf("u=0|1"));
    QStringList badKind = inferCliReleaseArgs(data, release);
    badKind[2] = "histogram";
    QStringList badColumn = inferCliReleaseArgs(data, release);
    badColumn[badColumn.indexOf("u,v")] = "u,w";
    QStringList overwrite = inferCliReleaseArgs(data, data);
    const QString notJson = dir.filePath("broken.json");
    QFile f(notJson);
    f.open(QIODevice::WriteOnly);
    f.write("{\"version\": 2}");
    f.close();
    const Case cases[] = {
        {undeclared, "not one of the declared levels"},
        {missingLevels, "--levels u="},
        {badKind, "--kind"},
        {badColumn, "w"},
        {overwrite, "--out"},
        {{"infer", "--release", notJson, "--out", dir.filePath("o")}, "version"},
        {{"infer", "--release", dir.filePath("missing.json"), "--out", dir.filePath("o")},
         "missing.json"},
        {{"infer", "--release", notJson, "--out", dir.filePath("o"), "--iterations", "10",
          "--warmup", "10"},
         "--warmup"},
        // The fuzzer's finding (issue 19): a numerator beyond 2^64, and keys given twice.
        {{"infer", "--release",
          DPSYNTH_SOURCE_DIR "/fuzz/corpus/release/ph-numerator-beyond-uint64-min.json", "--out",
          dir.filePath("o"), "--family", "poisson"},
         "noise_rate.numerator must be a whole number >= 1"},
        {{"infer", "--release",
          DPSYNTH_SOURCE_DIR "/fuzz/corpus/release/ph-numerator-beyond-uint64.json", "--out",
          dir.filePath("o"), "--family", "poisson"},
         "appears twice"},
    };
    for (const Case& c : cases) {
      const InferCliRun r = inferCli(c.args);
      QVERIFY2(r.exitCode == 2, qPrintable(c.args.join(' ') + " -> " + r.err));
      QVERIFY2(r.err.contains(c.expect), qPrintable(r.err));
      QCOMPARE(r.err.trimmed().count('\n'), 0);
    }
    QVERIFY(!QFile::exists(release));
    QVERIFY(!QDir(dir.filePath("o")).exists());
  }
};

QTEST_GUILESS_MAIN(InferCliTest)
#include "infer_cli_test.moc"
