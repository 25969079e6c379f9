#include "core/data/dataset.h"

#include <QtTest>
#include <string>
#include <vector>

#include "core/data/csv_table.h"
#include "core/data/data_error.h"
#include "expect_data_error.h"

using dpsynth::core::data::buildDataset;
using dpsynth::core::data::CsvTable;
using dpsynth::core::data::DataError;
using dpsynth::core::data::Dataset;
using dpsynth::core::data::DatasetSpec;
using dpsynth::core::data::parseCsv;
using dpsynth::core::data::readCsv;
using dpsynth::core::data::suggestFamily;
using dpsynth::core::models::Family;
using Strings = std::vector<std::string>;
using Lines = std::vector<std::size_t>;

namespace {

DatasetSpec spec(std::string outcome, Strings covariates = {}, Family family = Family::normal,
                 bool dropMissing = false) {
  DatasetSpec s;
  s.outcome = std::move(outcome);
  s.covariates = std::move(covariates);
  s.family = family;
  s.dropMissing = dropMissing;
  return s;
}

Dataset build(const std::string& text, const DatasetSpec& s) {
  return buildDataset(parseCsv(text, "d.csv"), s);
}

}  // namespace

class DatasetTest : public QObject {
  Q_OBJECT

 private slots:
  void interceptOnly() {
    const Dataset d = build("y,z\n1.5,a\n-2,b\n3e1,c\n", spec("y"));
    QCOMPARE(d.size(), std::size_t{3});
    QVERIFY(d.interceptOnly());
    QCOMPARE(d.y[0], 1.5);
    QCOMPARE(d.y[1], -2.0);
    QCOMPARE(d.y[2], 30.0);
    QVERIFY((d.X.array() == 1.0).all());
    QVERIFY(d.designNames == (Strings{"(Intercept)"}));
    QVERIFY(d.fileLines == (Lines{2, 3, 4}));
    QCOMPARE(QString::fromStdString(d.outcomeName), QString("y"));
    QCOMPARE(QString::fromStdString(d.file), QString("d.csv"));
    QCOMPARE(d.family, Family::normal);
    QCOMPARE(d.droppedRows, std::size_t{0});
  }

  void dummyCodesTextCovariates() {
    // The first level seen (M) is the reference; the others follow in order of appearance.
    const Dataset d = build(
        "gender;age;region;y\n"
        "M;30;north;1\n"
        "F;41.5;south;2\n"
        "M;25;east;3\n"
        "F;60;south;4\n",
        spec("y", {"region", "gender", "age"}));
    QVERIFY(d.designNames ==
            (Strings{"(Intercept)", "region=south", "region=east", "gender=F", "age"}));
    Eigen::MatrixXd expected(4, 5);
    expected << 1, 0, 0, 0, 30,  //
        1, 1, 0, 1, 41.5,        //
        1, 0, 1, 0, 25,          //
        1, 1, 0, 1, 60;
    QVERIFY(d.X == expected);
    QVERIFY(!d.interceptOnly());
    QCOMPARE(d.source.delimiter, ';');
    QVERIFY(d.source.header == (Strings{"gender", "age", "region", "y"}));
  }

  void dropsRowsWithMissingValuesInUsedColumnsOnly() {
    const Dataset d = build(
        "y,g,unused\n"
        "1,a,NA\n"    // kept: missing only in an unused column
        "NA,a,x\n"    // dropped
        "2,,x\n"      // dropped
        "3,b,x\n"     // kept
        ".,b,x\n"     // dropped (Stata)
        "null,b,x\n"  // dropped
        "NaN,b,x\n"   // dropped
        "4,na,x\n",   // dropped
        spec("y", {"g"}, Family::normal, true));
    QCOMPARE(d.droppedRows, std::size_t{6});
    QCOMPARE(d.size(), std::size_t{2});
    QVERIFY(d.fileLines == (Lines{2, 5}));
    QCOMPARE(d.source.rows.size(), std::size_t{2});
    QVERIFY(d.source.rows[0] == (Strings{"1", "a", "NA"}));
    QVERIFY(d.source.rows[1] == (Strings{"3", "b", "x"}));
    QVERIFY(d.source.lineOfRow == (Lines{2, 5}));
    QVERIFY(d.designNames == (Strings{"(Intercept)", "g=b"}));
  }

  void rejectsMissingValuesUnlessDropping() {
    QVERIFY_THROWS_EXCEPTION(DataError, build("y\n1\nNA\n3\n", spec("y")));
    DPSYNTH_EXPECT_DATA_ERROR(build("y,g\n1,a\n2,\n3,NA\n4,b\n", spec("y", {"g"})), 3, "g",
                              "d.csv:3: column 'g': missing value (an empty field); 2 records "
                              "have missing values");
    DPSYNTH_EXPECT_DATA_ERROR(build("y\n1\nnull\n3\n", spec("y")), 3, "y",
                              "missing value ('null')");
  }

  void rejectsUnknownColumnsListingTheAvailableOnes() {
    DPSYNTH_EXPECT_DATA_ERROR(build("a,b\n1,2\n3,4\n", spec("c")), 0, "c",
                              "d.csv: column 'c': there is no column with this name. Available "
                              "columns: a, b.");
    DPSYNTH_EXPECT_DATA_ERROR(build("a,b\n1,2\n3,4\n", spec("a", {"x"})), 0, "x",
                              "Available columns: a, b.");
    DPSYNTH_EXPECT_DATA_ERROR(build("a,b\n1,2\n3,4\n", spec("")), 0, "", "no outcome column");
  }

  void rejectsTheOutcomeAsACovariate() {
    DPSYNTH_EXPECT_DATA_ERROR(build("a,b\n1,2\n3,4\n", spec("a", {"b", "a"})), 0, "a",
                              "the outcome is also listed as a covariate");
    DPSYNTH_EXPECT_DATA_ERROR(build("a,b\n1,2\n3,4\n", spec("a", {"b", "b"})), 0, "b",
                              "listed twice");
  }

  void rejectsNonNumericOutcomes() {
    DPSYNTH_EXPECT_DATA_ERROR(build("y\n1\n2\nlots\nmany\n", spec("y")), 4, "y",
                              "d.csv:4: column 'y': value 'lots' is not a number (2 values in "
                              "this column are not numbers)");
    DPSYNTH_EXPECT_DATA_ERROR(build("y;x\n1,5;1\n2;2\n", spec("y")), 2, "y",
                              "'.' as the decimal separator");
    DPSYNTH_EXPECT_DATA_ERROR(build("y\n1\ninf\n", spec("y")), 3, "y", "'inf' is not a number.");
    DPSYNTH_EXPECT_DATA_ERROR(
        buildDataset(
            readCsv(std::string(DPSYNTH_SOURCE_DIR) + "/tests/data/malformed/text_outcome.csv"),
            spec("count", {}, Family::negbin)),
        4, "count", "text_outcome.csv:4: column 'count': value 'lots' is not a number");
  }

  void rejectsInvalidCounts() {
    for (const Family family : {Family::poisson, Family::negbin}) {
      DPSYNTH_EXPECT_DATA_ERROR(build("y\n1\n2\n-3\n4\n-1\n", spec("y", {}, family)), 4, "y",
                                "2 of 5 values are not non-negative integers (first: '-3')");
      DPSYNTH_EXPECT_DATA_ERROR(build("y\n1\n2.5\n3\n", spec("y", {}, family)), 3, "y",
                                "1 of 3 values are not non-negative integers (first: '2.5')");
    }
    const Dataset d = build("y\n0\n2.0\n1e2\n", spec("y", {}, Family::poisson));
    QCOMPARE(d.y[2], 100.0);
  }

  void rejectsBetaValuesOutsideTheOpenInterval() {
    // Values at the boundary: suggest the squeeze transform with the actual n.
    DPSYNTH_EXPECT_DATA_ERROR(build("y\n0.2\n0\n0.5\n1\n", spec("y", {}, Family::beta)), 3, "y",
                              "2 of 4 values are outside the open interval (0, 1) (first: '0')");
    DPSYNTH_EXPECT_DATA_ERROR(build("y\n0.2\n0\n0.5\n1\n", spec("y", {}, Family::beta)), 3, "y",
                              "(y*(n-1)+0.5)/n, here n = 4.");
    // Values beyond [0, 1]: suggest rescaling by public bounds as well.
    DPSYNTH_EXPECT_DATA_ERROR(build("y\n0.2\n0.3\n37\n", spec("y", {}, Family::beta)), 4, "y",
                              "rescale by public bounds");
    const Dataset d = build("y\n0.001\n0.999\n", spec("y", {}, Family::beta));
    QCOMPARE(d.size(), std::size_t{2});
  }

  void rejectsFewerThanTwoRecords() {
    DPSYNTH_EXPECT_DATA_ERROR(build("y\n5\n", spec("y")), 0, "y", "only 1 usable record.");
    DPSYNTH_EXPECT_DATA_ERROR(build("y\n", spec("y")), 0, "y", "only 0 usable records");
    DPSYNTH_EXPECT_DATA_ERROR(build("y\n5\nNA\n.\n", spec("y", {}, Family::normal, true)), 0, "y",
                              "2 records were dropped for missing values");
  }

  void rejectsAConstantOutcome() {
    DPSYNTH_EXPECT_DATA_ERROR(build("y\n7\n7.0\n7\n", spec("y")), 0, "y",
                              "all 3 values are equal (7)");
  }

  void rejectsSingleLevelCovariates() {
    DPSYNTH_EXPECT_DATA_ERROR(build("y,g\n1,a\n2,a\n", spec("y", {"g"})), 0, "g",
                              "has only one level ('a')");
    DPSYNTH_EXPECT_DATA_ERROR(build("y,x\n1,3\n2,3\n", spec("y", {"x"})), 0, "x",
                              "has the same value (3) in every record");
    // The single level may be what is left after dropping incomplete records.
    DPSYNTH_EXPECT_DATA_ERROR(build("y,g\n1,a\n2,a\n3,\n", spec("y", {"g"}, Family::normal, true)),
                              0, "g", "only one level");
  }

  void suggestsAFamily() {
    const auto suggest = [](const std::string& text) {
      return suggestFamily(parseCsv(text, "s.csv"), "y");
    };
    QCOMPARE(suggest("y\n0\n3\n12\n"), Family::negbin);
    QCOMPARE(suggest("y\n0\n3\nNA\nabc\n12.0\n"), Family::negbin);  // text and missing ignored
    QCOMPARE(suggest("y\n0.1\n0.9\n0.5\n"), Family::beta);
    QCOMPARE(suggest("y\n0\n0.5\n"), Family::normal);
    QCOMPARE(suggest("y\n-1\n3\n"), Family::normal);
    QCOMPARE(suggest("y\n1.5\n3\n"), Family::normal);
    QCOMPARE(suggest("y\nabc\n"), Family::normal);
    QVERIFY_THROWS_EXCEPTION(DataError, suggestFamily(parseCsv("x\n1\n", "s.csv"), "y"));
  }
};

QTEST_APPLESS_MAIN(DatasetTest)
#include "dataset_test.moc"
