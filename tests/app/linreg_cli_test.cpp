/// dpsynth release --kind linreg and dpsynth infer on its file: end to end on a small CSV, the
/// same seed giving the same draws, and exit 2 with one line for bad input.
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

dpsynth::test::CliRun linregCli(const QStringList& args) { return dpsynth::test::runDpsynth(args); }

QByteArray linregCliRead(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return {};
  return f.readAll();
}

/// 40 records y = 1 + 2a − b + noise, a and b on a fixed pattern, plus a column not released.
QString linregCliWriteData(const QTemporaryDir& dir) {
  const QString path = dir.filePath("data.csv");
  QFile f(path);
  f.open(QIODevice::WriteOnly);
  f.write("a,b,y,secret\n");
  for (int i = 0; i < 40; ++i) {
    const double a = std::sin(1.3 * i) * 2.0, b = std::cos(0.7 * i) * 1.5;
    const double y = 1.0 + 2.0 * a - b + 0.5 * std::sin(5.1 * i);
    f.write(QString("%1,%2,%3,%4\n").arg(a).arg(b).arg(y).arg(1000 + i).toUtf8());
  }
  return path;
}

QStringList linregCliReleaseArgs(const QString& data, const QString& out) {
  return {"release",
          "--kind",
          "linreg",
          "--data",
          data,
          "--outcome",
          "y",
          "--predictors",
          "a,b",
          "--bounds",
          "a=-3:3,b=-2:2,y=-10:10",
          "--predictor-dist",
          "a=normal:0:1.4,b=normal:0:1.1",
          "--sigma",
          "0.5",
          "--epsilon",
          "2",
          "--out",
          out};
}

}  // namespace

class LinregCliTest : public QObject {
  Q_OBJECT

 private slots:
  void releaseThenInfer() {
    QTemporaryDir dir;
    const QString data = linregCliWriteData(dir);
    const QString release = dir.filePath("release.json");
    auto r = linregCli(linregCliReleaseArgs(data, release) << "--seed"
                                                           << "3");
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QJsonObject rel = QJsonDocument::fromJson(linregCliRead(release)).object();
    QCOMPARE(rel["version"].toInt(), 1);
    QCOMPARE(rel["kind"].toString(), QString("linreg"));
    QCOMPARE(rel["neighbours"].toString(), QString("replace-one"));
    QCOMPARE(rel["n"].toInt(), 40);
    QCOMPARE(rel["sensitivity"].toInt(), 13);
    QCOMPARE(rel["noisy_statistics"].toArray().size(), 9);
    QCOMPARE(rel["layout"].toObject()["predictors"].toArray()[1].toObject()["lower"].toDouble(),
             -2.0);
    QCOMPARE(rel["model"].toObject()["sigma"].toDouble(), 0.5);
    QCOMPARE(rel["prior"].toObject()["beta_sd"].toDouble(), 2.0);
    QVERIFY(rel["not_for_release"].toBool());
    QVERIFY(!linregCliRead(release).contains("secret"));

    const QString out = dir.filePath("posterior");
    const QStringList inferArgs{"infer", "--release",    release, "--out",    out,   "--seed",
                                "5",     "--iterations", "300",   "--warmup", "100", "--chains",
                                "2"};
    r = linregCli(inferArgs);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QJsonObject summary =
        QJsonDocument::fromJson(linregCliRead(out + "/summary.json")).object();
    QCOMPARE(summary["kind"].toString(), QString("linreg"));
    QVERIFY(summary["min_acceptance"].toDouble() >= std::exp(-2.0) - 1e-12);
    QCOMPARE(summary["acceptance_bound"].toDouble(), std::exp(-2.0));
    const QJsonObject params = summary["parameters"].toObject();
    QCOMPARE(params.size(), 3);
    const QJsonObject slope = params["beta[a]"].toObject();
    for (const char* key : {"mean", "sd", "q05", "q50", "q95", "rhat", "ess"}) {
      QVERIFY2(slope.contains(key), key);
    }
    const QByteArray draws = linregCliRead(out + "/draws.csv");
    QVERIFY(draws.startsWith("chain,draw,beta[(Intercept)],beta[a],beta[b]\n"));
    QCOMPARE(draws.count('\n'), 1 + 2 * 200);
    QCOMPARE(linregCliRead(out + "/trace.csv").count('\n'), 1 + 2 * 300);

    QStringList againArgs = inferArgs;
    againArgs[4] = dir.filePath("again");
    QCOMPARE(linregCli(againArgs).exitCode, 0);
    QCOMPARE(linregCliRead(dir.filePath("again") + "/draws.csv"), draws);
  }

  void badInputExitsTwo() {
    QTemporaryDir dir;
    const QString data = linregCliWriteData(dir);
    const QString release = dir.filePath("release.json");
    const auto with = [&](const QString& flag, const QString& value) {
      QStringList a = linregCliReleaseArgs(data, release);
      a[a.indexOf(flag) + 1] = value;
      return a;
    };
    QStringList noSigma = linregCliReleaseArgs(data, release);
    noSigma.removeAt(noSigma.indexOf("--sigma") + 1);
    noSigma.removeAt(noSigma.indexOf("--sigma"));
    struct Case {
      QStringList args;
      const char* expect;
    };
    const Case cases[] = {
        {with("--bounds", "a=-3:3,b=-2:2"), "--bounds: give lower:upper of y"},
        {with("--bounds", "a=3:-3,b=-2:2,y=-10:10"), "bounds of 'a'"},
        {with("--bounds", "a=-3,b=-2:2,y=-10:10"), "--bounds a=-3"},
        {with("--bounds", "a=x:3,b=-2:2,y=-10:10"), "not a finite number"},
        {with("--predictor-dist", "a=uniform:0:1,b=normal:0:1"), "only normal"},
        {with("--predictor-dist", "a=normal:0:-1,b=normal:0:1"), "sd positive"},
        {with("--predictors", "a,c"), "c"},
        {with("--outcome", "secret"), "--bounds: give lower:upper of secret"},
        {noSigma, "--sigma"},
        {linregCliReleaseArgs(data, release) << "--class"
                                             << "y",
         "naive-bayes"},
        {linregCliReleaseArgs(data, data), "--out"},
    };
    for (const Case& c : cases) {
      const auto r = linregCli(c.args);
      QVERIFY2(r.exitCode == 2, qPrintable(c.args.join(' ') + " -> " + r.err));
      QVERIFY2(r.err.contains(c.expect), qPrintable(r.err));
      QCOMPARE(r.err.trimmed().count('\n'), 0);
    }
    QVERIFY(!QFile::exists(release));
  }
};

QTEST_GUILESS_MAIN(LinregCliTest)
#include "linreg_cli_test.moc"
