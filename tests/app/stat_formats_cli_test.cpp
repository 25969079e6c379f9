/// SPSS, Stata and SAS files through the real binary (issue 25): `dpsynth fit --data FILE.sav`
/// fits with the value labels as levels, and `--synthetic-out out.sav|.dta|.xpt` writes the
/// synthetic data in that format, with the labels of the released columns only and a sidecar
/// whose digest is of the bytes written; read back, labels and levels are those of the input.
#include <QCryptographicHash>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include "core/data/data_file.h"
#include "core/data/dataset.h"
#include "support/cli_process.h"

using dpsynth::core::data::CsvTable;
using dpsynth::core::data::readDataFile;

namespace {

QString formatsSurvey(const QString& extension) {
  return QString(DPSYNTH_SOURCE_DIR) + "/tests/data/formats/survey." + extension;
}

const QStringList kStatSampler = {"--chains", "1",   "--warmup", "150",
                                  "--draws",  "150", "--seed",   "1"};

std::vector<std::string> statLabels(const CsvTable& t, std::size_t column) {
  std::vector<std::string> out;
  for (const auto& v : t.columns[column].valueLabels) out.push_back(v.label);
  return out;
}

}  // namespace

class StatFormatsCliTest : public QObject {
  Q_OBJECT
 private slots:
  void fitAndWriteBack_data() {
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("output");
    QTest::newRow("sav to sav") << "sav"
                                << "sav";
    QTest::newRow("dta to dta") << "dta"
                                << "dta";
    QTest::newRow("sav to xpt") << "sav"
                                << "xpt";
    QTest::newRow("zsav to dta") << "zsav"
                                 << "dta";
    QTest::newRow("xpt to xpt") << "xpt"
                                << "xpt";
    QTest::newRow("sas7bdat to csv") << "sas7bdat"
                                     << "csv";
  }
  void fitAndWriteBack() {
    QFETCH(QString, input);
    QFETCH(QString, output);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString out = dir.filePath("synthetic." + output);
    const QString report = dir.filePath("report.json");
    const auto run = dpsynth::test::runDpsynth(
        QStringList{"fit", "--data", formatsSurvey(input), "--outcome", "visits", "--covariates",
                    "health,sex", "--family", "poisson", "--drop-missing", "--synthetic-out", out,
                    "--report", report, "--quiet"} +
        kStatSampler);
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));

    // The sidecar vouches for the very bytes written.
    QFile written(out), sidecar(out + ".json");
    QVERIFY(written.open(QIODevice::ReadOnly) && sidecar.open(QIODevice::ReadOnly));
    const QJsonObject side = QJsonDocument::fromJson(sidecar.readAll()).object();
    QCOMPARE(side["files"].toArray().first().toString(), QString("synthetic." + output));
    const QByteArray bytes = written.readAll();
    QCOMPARE(side["files_sha256"].toArray().first().toString(),
             QString(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex()));
    // Nothing of the dropped columns leaves: neither their names nor their labels.
    for (const char* dropped : {"income", "Yearly income", "no income", "region",
                                "Region of residence", "Date of the last visit"})
      QVERIFY2(!bytes.contains(dropped), dropped);

    // Read back: the released columns only, with the input's labels and levels.
    const CsvTable in = readDataFile(formatsSurvey(input).toStdString());
    const CsvTable back = readDataFile(out.toStdString());
    QCOMPARE(back.header, (std::vector<std::string>{"visits", "health", "sex"}));
    QVERIFY(back.rows.size() > 10);
    const bool labelled = input != "xpt" && input != "sas7bdat";
    if (output == "csv") return;
    QCOMPARE(back.columns[0].description, in.columns[0].description);
    QCOMPARE(back.columns[1].description, std::string("Self-rated health"));
    if (labelled && output != "xpt") {
      QVERIFY(back.columns[1].labelsAreLevels);
      QCOMPARE(statLabels(back, 1), statLabels(in, 1));
      QCOMPARE(statLabels(back, 2), (std::vector<std::string>{"male", "female"}));
    }
    if (labelled) {
      // Every released health value is one of the input's levels (as labels or, in a SAS
      // transport file, as their text).
      for (const auto& row : back.rows) {
        const std::string h(row[1]);
        QVERIFY2(h == "poor" || h == "average" || h == "excellent", h.c_str());
      }
    }
    // The report names the design by its levels, reference first in label order.
    QFile r(report);
    QVERIFY(r.open(QIODevice::ReadOnly));
    const QByteArray text = r.readAll();
    if (labelled) QVERIFY2(text.contains("health=average"), text.left(400).constData());
  }

  /// Issue 25, readable designs: the reference level is the first in label order (labelled
  /// files) or sorted order (text), or the one --reference names; the posterior table and the
  /// report's parameter_labels use the design names, and a synthetic file read back gives the
  /// same design.
  void referenceLevelsAndDesignNames() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString out = dir.filePath("synthetic.sav");
    const QString report = dir.filePath("report.json");
    const auto run = dpsynth::test::runDpsynth(
        QStringList{"fit", "--data", formatsSurvey("sav"), "--outcome", "visits", "--covariates",
                    "health,sex", "--family", "poisson", "--drop-missing", "--reference",
                    "health=excellent", "--reference", "sex=female", "--synthetic-out", out,
                    "--report", report} +
        kStatSampler);
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    // The posterior table names parameters by the design, never beta[j].
    QVERIFY2(run.out.contains("health=poor") && run.out.contains("health=average") &&
                 run.out.contains("sex=male") && run.out.contains("intercept") &&
                 !run.out.contains("beta["),
             qPrintable(run.out));
    QFile r(report);
    QVERIFY(r.open(QIODevice::ReadOnly));
    const QJsonObject json = QJsonDocument::fromJson(r.readAll()).object();
    const QJsonObject labels = json["parameter_labels"].toObject();
    QCOMPARE(labels["beta[0]"].toString(), QString("intercept"));
    QCOMPARE(labels["beta[1]"].toString(), QString("health=poor"));
    QCOMPARE(labels["beta[2]"].toString(), QString("health=average"));
    QCOMPARE(labels["beta[3]"].toString(), QString("sex=male"));
    // The stable keys stay as they were.
    QVERIFY(json["posterior"].toObject().contains("beta[3]"));

    // Round trip: the synthetic file, read back with the same choices, has the same design.
    dpsynth::core::data::DatasetSpec spec;
    spec.outcome = "visits";
    spec.covariates = {"health", "sex"};
    spec.family = dpsynth::core::models::Family::poisson;
    spec.dropMissing = true;
    spec.referenceLevels = {{"health", "excellent"}, {"sex", "female"}};
    const auto input =
        dpsynth::core::data::buildDataset(readDataFile(formatsSurvey("sav").toStdString()), spec);
    const auto back = dpsynth::core::data::buildDataset(readDataFile(out.toStdString()), spec);
    QVERIFY(back.designNames == input.designNames);
    QVERIFY(input.designNames ==
            (std::vector<std::string>{"(Intercept)", "health=poor", "health=average", "sex=male"}));
    // Without --reference: the first label (poor, male) in a labelled file ...
    spec.referenceLevels.clear();
    QVERIFY(
        dpsynth::core::data::buildDataset(readDataFile(formatsSurvey("dta").toStdString()), spec)
            .designNames == (std::vector<std::string>{"(Intercept)", "health=average",
                                                      "health=excellent", "sex=female"}));
    // ... and the first in sorted order in a text column (region: east, north, south).
    spec.covariates = {"health", "region"};
    QVERIFY(
        dpsynth::core::data::buildDataset(readDataFile(formatsSurvey("sav").toStdString()), spec)
            .designNames ==
        (std::vector<std::string>{"(Intercept)", "health=average", "health=excellent",
                                  "region=north", "region=south"}));
  }

  /// A reference level that cannot be used is bad input: exit 2, one line, nothing written.
  void badReferenceLevelsRefused_data() {
    QTest::addColumn<QStringList>("reference");
    QTest::addColumn<QStringList>("fragments");
    QTest::newRow("unknown level") << QStringList{"--reference", "health=great"}
                                   << QStringList{"'health'", "'great'", "'poor'"};
    QTest::newRow("unknown column") << QStringList{"--reference", "helth=poor"}
                                    << QStringList{"'helth'", "not a covariate", "health, sex"};
    QTest::newRow("the outcome") << QStringList{"--reference", "visits=1"}
                                 << QStringList{"'visits'", "not a covariate"};
    QTest::newRow("not COL=LEVEL")
        << QStringList{"--reference", "health"} << QStringList{"--reference", "COLUMN=LEVEL"};
    QTest::newRow("a column twice") << QStringList{"--reference", "sex=male,sex=female"}
                                    << QStringList{"--reference", "'sex'", "twice"};
  }
  void badReferenceLevelsRefused() {
    QFETCH(QStringList, reference);
    QFETCH(QStringList, fragments);
    QTemporaryDir dir;
    const auto before = dpsynth::test::folderSnapshot(dir.path());
    const auto run = dpsynth::test::runDpsynth(
        QStringList{"fit", "--data", formatsSurvey("sav"), "--outcome", "visits", "--covariates",
                    "health,sex", "--family", "poisson", "--drop-missing", "--synthetic-out",
                    dir.filePath("s.sav"), "--report", dir.filePath("r.json")} +
        reference + kStatSampler);
    QCOMPARE(run.exitCode, 2);
    QCOMPARE(run.err.count('\n'), 1);
    for (const auto& f : fragments) QVERIFY2(run.err.contains(f), qPrintable(run.err));
    QCOMPARE(dpsynth::test::folderSnapshot(dir.path()), before);
  }

  /// A read-only format as output is refused before any work, and nothing is written.
  void unwritableFormatRefused() {
    QTemporaryDir dir;
    const auto before = dpsynth::test::folderSnapshot(dir.path());
    const auto run = dpsynth::test::runDpsynth(
        QStringList{"fit", "--data", formatsSurvey("sav"), "--outcome", "visits", "--family",
                    "poisson", "--drop-missing", "--synthetic-out", dir.filePath("s.sas7bdat")} +
        kStatSampler);
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains("s.sas7bdat") && run.err.contains(".sav"), qPrintable(run.err));
    QCOMPARE(dpsynth::test::folderSnapshot(dir.path()), before);
  }

  void dateOutcomeRefused() {
    const auto run = dpsynth::test::runDpsynth(QStringList{
        "fit", "--data", formatsSurvey("dta"), "--outcome", "seen", "--family", "normal"});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains("survey.dta") && run.err.contains("'seen'") &&
                 run.err.contains("dates") && run.err.count('\n') == 1,
             qPrintable(run.err));
  }
};

QTEST_APPLESS_MAIN(StatFormatsCliTest)
#include "stat_formats_cli_test.moc"
