// Tables written as SPSS, Stata and SAS transport files and read back: labels, levels,
// missing cells and names survive, and what a format cannot hold is said before anything is
// written.
#include "core/data/readstat_writer.h"

#include <QtTest>
#include <string>
#include <vector>

#include "core/data/csv_writer.h"
#include "core/data/data_file.h"
#include "core/data/dataset.h"
#include "core/data/stat_format.h"

using dpsynth::core::data::ColumnInfo;
using dpsynth::core::data::CsvRows;
using dpsynth::core::data::CsvTable;
using dpsynth::core::data::formatStatFile;
using dpsynth::core::data::parseDataFile;
using dpsynth::core::data::readDataFile;
using dpsynth::core::data::StatFormat;
using dpsynth::core::data::ValueLabel;
using dpsynth::core::data::WriteError;

namespace {

std::string writerSurveyPath(const std::string& extension) {
  return std::string(DPSYNTH_SOURCE_DIR) + "/tests/data/formats/survey." + extension;
}

std::vector<std::string> labelTexts(const ColumnInfo& info) {
  std::vector<std::string> out;
  for (const auto& v : info.valueLabels) out.push_back(v.label);
  return out;
}

/// Whether `back` holds the cells of `in`, but in its dates, datetimes and times the cells of
/// `dates` (the same records as read from a file of the output's format): a date is written
/// as the same date, counted as the output's program counts it.
bool sameCellsDatesAs(const CsvTable& back, const CsvTable& in, const CsvTable& dates) {
  if (back.rows.size() != in.rows.size() || back.header != in.header) return false;
  for (std::size_t j = 0; j < in.header.size(); ++j) {
    const bool dated = in.info(j) && in.info(j)->isDateOrTime();
    const CsvTable& expected = dated ? dates : in;
    for (std::size_t i = 0; i < in.rows.size(); ++i)
      if (back.rows[i][j] != expected.rows[i][j]) return false;
  }
  return true;
}

/// The table written in `format` and read back.
CsvTable roundTrip(StatFormat format, const std::string& extension, const CsvTable& table) {
  const std::string path = "out." + extension;
  const auto bytes = formatStatFile(format, path, table.header, table.columns, table.rows);
  if (!bytes) throw std::logic_error("stopped without a stop request");
  return parseDataFile(*bytes, path);
}

}  // namespace

class ReadstatWriterTest : public QObject {
  Q_OBJECT
 private slots:
  /// read → write → read keeps cells, levels in label order, the labels of partly labelled
  /// columns, variable labels and missing cells (SPSS and Stata).
  void roundTripKeepsLabels_data() {
    QTest::addColumn<QString>("from");
    QTest::addColumn<QString>("to");
    QTest::newRow("sav to sav") << "sav"
                                << "sav";
    QTest::newRow("dta to dta") << "dta"
                                << "dta";
    QTest::newRow("sav to dta") << "sav"
                                << "dta";
    QTest::newRow("dta to sav") << "dta"
                                << "sav";
    QTest::newRow("por to sav") << "por"
                                << "sav";
  }
  void roundTripKeepsLabels() {
    QFETCH(QString, from);
    QFETCH(QString, to);
    const CsvTable in = readDataFile(writerSurveyPath(from.toStdString()));
    const StatFormat format = to == "sav" ? StatFormat::sav : StatFormat::dta;
    const CsvTable back = roundTrip(format, to.toStdString(), in);
    QCOMPARE(back.header, in.header);
    // Label text, numbers, strings and missing cells alike; the dates as the output's own
    // fixture holds them (a .dta counts days where a .sav counts seconds).
    QVERIFY(sameCellsDatesAs(back, in, readDataFile(writerSurveyPath(to.toStdString()))));
    for (std::size_t j = 0; j < in.header.size(); ++j) {
      QCOMPARE(back.columns[j].description, in.columns[j].description);
      QCOMPARE(back.columns[j].labelsAreLevels, in.columns[j].labelsAreLevels);
      QCOMPARE(labelTexts(back.columns[j]), labelTexts(in.columns[j]));
    }
    QCOMPARE(labelTexts(back.columns[1]).front(), std::string("poor"));  // health
  }

  /// A SAS transport file holds no value labels: a labelled column is written as its label
  /// text, so the categories still read as such.
  void transportWritesLabelText() {
    const CsvTable in = readDataFile(writerSurveyPath("sav"));
    const CsvTable back = roundTrip(StatFormat::xpt, "xpt", in);
    QCOMPARE(back.header, in.header);
    QVERIFY(sameCellsDatesAs(back, in, readDataFile(writerSurveyPath("xpt"))));
    QCOMPARE(back.columns[1].kind, dpsynth::core::data::ValueKind::text);
    QCOMPARE(std::string(back.rows[0][1]), std::string("excellent"));
    QCOMPARE(back.columns[0].description, std::string("Doctor visits in the last year"));
  }

  /// A table from a CSV (no information): numbers stay numeric, text becomes strings.
  void csvTableTypedByContent() {
    const CsvTable in = parseDataFile("y,group,x\n1,a,0.5\n2,bb,\n3,a,-2\n", "d.csv");
    for (auto [format, ext] :
         {std::pair{StatFormat::sav, "sav"}, {StatFormat::dta, "dta"}, {StatFormat::xpt, "xpt"}}) {
      const CsvTable back = roundTrip(format, ext, in);
      QCOMPARE(back.header, in.header);
      QVERIFY(back.rows == in.rows);
      QCOMPARE(back.columns[0].kind, dpsynth::core::data::ValueKind::number);
      QCOMPARE(back.columns[1].kind, dpsynth::core::data::ValueKind::text);
    }
  }

  /// The same table gives the same bytes (a fixed timestamp): a seeded run is reproducible.
  void sameTableSameBytes() {
    const CsvTable in = readDataFile(writerSurveyPath("sav"));
    for (auto format : {StatFormat::sav, StatFormat::dta, StatFormat::xpt}) {
      const auto a = formatStatFile(format, "a", in.header, in.columns, in.rows);
      const auto b = formatStatFile(format, "b", in.header, in.columns, in.rows);
      QVERIFY(a && b && *a == *b);
    }
  }

  void namesTheFormatRefuses() {
    const CsvTable in = parseDataFile("y,my group\n1,a\n2,b\n", "d.csv");
    try {
      formatStatFile(StatFormat::dta, "out.dta", in.header, in.columns, in.rows);
      QFAIL("a name with a space was written to a Stata file");
    } catch (const WriteError& e) {
      const std::string m = e.what();
      QVERIFY2(m.find("out.dta") != std::string::npos && m.find("my group") != std::string::npos,
               m.c_str());
    }
    QVERIFY_THROWS_EXCEPTION(
        WriteError, dpsynth::core::data::checkStatColumns(StatFormat::sav, "o.sav", in.header, {}));
    QVERIFY_THROWS_EXCEPTION(
        std::invalid_argument,
        formatStatFile(StatFormat::sas7bdat, "o.sas7bdat", in.header, in.columns, in.rows));
  }

  /// An outcome whose labels cover its values (a Likert item, say) is read as its codes; as a
  /// covariate the same column is categorical in label order.
  void labelledOutcomeReadAsCodes() {
    CsvTable t = parseDataFile("y,x\nhigh,1\nlow,2\nhigh,3\nmid,4\n", "d.csv");
    ColumnInfo likert;
    likert.valueLabels = {{"1", "low"}, {"2", "mid"}, {"3", "high"}};
    likert.labelsAreLevels = true;
    t.columns = {likert, ColumnInfo{}};
    const auto bytes = formatStatFile(StatFormat::sav, "l.sav", t.header, t.columns, t.rows);
    QVERIFY(bytes);
    const CsvTable back = parseDataFile(*bytes, "l.sav");
    QVERIFY(back.columns[0].labelsAreLevels);
    QCOMPARE(std::string(back.rows[0][0]), std::string("high"));
    dpsynth::core::data::DatasetSpec spec;
    spec.outcome = "y";
    spec.family = dpsynth::core::models::Family::poisson;
    const auto d = dpsynth::core::data::buildDataset(back, spec);
    QCOMPARE(d.y, (Eigen::VectorXd(4) << 3, 1, 3, 2).finished());
    spec.outcome = "x";
    spec.covariates = {"y"};
    const auto asCovariate = dpsynth::core::data::buildDataset(back, spec);
    QCOMPARE(asCovariate.designNames, (std::vector<std::string>{"(Intercept)", "y=mid", "y=high"}));
  }

  void stopRequested() {
    const CsvTable in = readDataFile(writerSurveyPath("sav"));
    std::stop_source source;
    source.request_stop();
    QVERIFY(!formatStatFile(StatFormat::sav, "s.sav", in.header, in.columns, in.rows,
                            source.get_token()));
  }
};

QTEST_APPLESS_MAIN(ReadstatWriterTest)
#include "readstat_writer_test.moc"
