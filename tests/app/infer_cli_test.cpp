/// dpsynth release and dpsynth infer: a naive-Bayes release round trip, reproducibility with a
/// seed, and exit 2 with one line for bad input.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

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
  const char* rows[] = {"a,0,x,1", "a,0,y,2", "a,1,x,3", "b,1,z,4", "b,1,z,5", "b,0,y,6",
                        "a,0,x,7", "b,1,y,8", "a,1,z,9", "b,1,z,10", "a,0,x,11", "b,0,z,12"};
  for (const char* r : rows) {
    f.write(r);
    f.write("\n");
  }
  return path;
}

QStringList inferCliReleaseArgs(const QString& data, const QString& out) {
  return {"release", "--kind", "naive-bayes", "--data", data, "--class", "y", "--class-levels",
          "a|b", "--features", "u,v", "--levels", "u=0|1", "--levels", "v=x|y|z", "--epsilon",
          "2", "--out", out};
}

}  // namespace

class InferCliTest : public QObject {
  Q_OBJECT

 private slots:
  void roundTrip() {
    QTemporaryDir dir;
    const QString data = inferCliWriteData(dir);
    const QString release = dir.filePath("release.json");
    InferCliRun r = inferCli(inferCliReleaseArgs(data, release) << "--seed" << "4");
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
    const QStringList inferArgs{"infer", "--release", release, "--out", out, "--seed", "9",
                                "--iterations", "400", "--warmup", "100", "--chains", "2"};
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
    QVERIFY(p["q05"].toDouble() <= p["q50"].toDouble() && p["q50"].toDouble() <= p["q95"].toDouble());
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
