#include "core/data/dataset.h"

#include <QtTest>
#include <algorithm>
#include <limits>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <vector>

#include "core/data/covariate_levels.h"
#include "core/data/csv_table.h"
#include "core/data/data_error.h"
#include "expect_data_error.h"

using dpsynth::core::data::buildDataset;
using dpsynth::core::data::categoricalLevels;
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
    // Levels in sorted order whatever the order of the records: the first (F, east) is the
    // reference.
    const Dataset d = build(
        "gender;age;region;y\n"
        "M;30;north;1\n"
        "F;41.5;south;2\n"
        "M;25;east;3\n"
        "F;60;south;4\n",
        spec("y", {"region", "gender", "age"}));
    QVERIFY(d.designNames ==
            (Strings{"(Intercept)", "region=north", "region=south", "gender=M", "age"}));
    Eigen::MatrixXd expected(4, 5);
    expected << 1, 1, 0, 1, 30,  //
        1, 0, 1, 0, 41.5,        //
        1, 0, 0, 1, 25,          //
        1, 0, 1, 0, 60;
    QVERIFY(d.X == expected);
    QVERIFY(!d.interceptOnly());
    QCOMPARE(d.source.delimiter, ';');
    QVERIFY(d.source.header == (Strings{"gender", "age", "region", "y"}));
  }

  /// A file written on macOS spells "é" as "e" + U+0301; a name typed elsewhere composes it.
  /// The columns match, and the dataset takes the file's spelling (its design and synthetic
  /// files name the column as the file does).
  void namesMatchInAnyUnicodeForm() {
    const std::string decomposedAge = "a\xcc\x81ge";  // "áge", a + combining acute
    const std::string composedAge = "\xc3\xa1ge";     // the same with U+00E1
    const std::string decomposedRegion = "re\xcc\x81gion";
    const std::string composedRegion = "r\xc3\xa9gion";
    const std::string text =
        "y," + decomposedAge + "," + decomposedRegion + "\n1,30,north\n2,41,south\n3,25,north\n";
    DatasetSpec s = spec("y", {composedRegion, composedAge});
    s.referenceLevels[composedRegion] = "south";
    const Dataset d = build(text, s);
    QVERIFY(d.designNames == (Strings{"(Intercept)", decomposedRegion + "=north", decomposedAge}));
    QVERIFY(d.covariateNames == (Strings{decomposedRegion, decomposedAge}));
    const CsvTable table = parseCsv(text, "d.csv");
    QCOMPARE(table.columnIndex(composedAge), std::size_t{1});
    QCOMPARE(table.columnIndex(decomposedAge), std::size_t{1});
    QVERIFY_THROWS_EXCEPTION(DataError, table.columnIndex("age"));  // no accent: no match
    // Two columns that are one name in two forms (a + dot below + acute, and a + acute + dot
    // below): the exact spelling is taken first; a third form of it is guessed as neither.
    const std::string dotAcute = "a\xcc\xa3\xcc\x81";
    const std::string acuteDot = "a\xcc\x81\xcc\xa3";
    const CsvTable twice = parseCsv("y," + dotAcute + "," + acuteDot + "\n1,2,3\n4,5,6\n", "d.csv");
    QCOMPARE(twice.columnIndex(acuteDot), std::size_t{2});
    QVERIFY_THROWS_EXCEPTION(DataError, twice.columnIndex("\xe1\xba\xa1\xcc\x81"));
  }

  /// A statistical file's labelled column: the reader makes the labels its levels only when
  /// every record's code has one. A record dropped for its missing outcome, whose code has no
  /// label, must not turn the covariate numeric: the two files below differ only there, and
  /// give the same dataset (it gave label dummies for one and a numeric slope for the other).
  void labelsAreLevelsOnTheKeptRecordsAlone() {
    const std::string kept = "1,1\n2,3\n0,2\n3,1\n";
    CsvTable coded = parseCsv("y,health\n" + kept + ",4\n", "d.sav");
    coded.columns.resize(2);
    coded.columns[1].valueLabels = {{"1", "poor"}, {"2", "average"}, {"3", "excellent"}};
    coded.columns[1].labelsAreLevels = false;  // "4" has no label
    CsvTable texts =
        parseCsv("y,health\n1,poor\n2,excellent\n0,average\n3,poor\n,excellent\n", "d.sav");
    texts.columns = coded.columns;
    texts.columns[1].labelsAreLevels = true;  // every code has a label
    const DatasetSpec s = spec("y", {"health"}, Family::poisson, true);
    const Dataset a = buildDataset(coded, s);
    const Dataset b = buildDataset(texts, s);
    QVERIFY(a.designNames == (Strings{"(Intercept)", "health=average", "health=excellent"}));
    QVERIFY(a.designNames == b.designNames);
    QVERIFY(a.X == b.X);
    QVERIFY(a.source.columns[1].labelsAreLevels);
    // The copied cells are the label texts in both.
    const dpsynth::core::data::SourceCells cellsA(a), cellsB(b);
    for (std::size_t r = 0; r < a.size(); ++r)
      QCOMPARE(std::string(cellsA(r, 1).view()), std::string(cellsB(r, 1).view()));
    // A kept record whose code has no label: the labels are not the levels, the codes are
    // numbers (as the reader would have typed the whole file).
    CsvTable partly = parseCsv("y,health\n" + kept + "5,4\n", "d.sav");
    partly.columns = coded.columns;
    QVERIFY(buildDataset(partly, s).designNames == (Strings{"(Intercept)", "health"}));
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
    // The source holds the kept records' covariate cells only.
    QCOMPARE(d.source.size(), std::size_t{2});
    QCOMPARE(std::string(d.source.cell(0, 1).view()), std::string("a"));
    QCOMPARE(std::string(d.source.cell(1, 1).view()), std::string("b"));
    QVERIFY(!d.source.holds(0) && !d.source.holds(2));
    QVERIFY(d.designNames == (Strings{"(Intercept)", "g=b"}));
  }

  void dummyCodesManyLevelsAfterDroppedRows() {
    // 60 levels (each level a column; blanks around a level do not make another one), with
    // records dropped in between: every kept record has a single 1, in its own level's column.
    std::string text = "y,site\n";
    std::vector<int> keptLevels;
    for (int i = 0; i < 600; ++i) {
      const int level = (i * 7) % 60;
      const bool missing = i % 9 == 4;
      text += (missing ? std::string("NA") : std::to_string(i % 5)) + ", s" +
              std::to_string(level) + (i % 2 ? " " : "") + "\n";
      if (!missing) keptLevels.push_back(level);
    }
    const Dataset d = build(text, spec("y", {"site"}, Family::poisson, true));
    QCOMPARE(d.size(), keptLevels.size());
    QCOMPARE(d.X.cols(), Eigen::Index{60});  // intercept + 59 dummies
    // Levels in sorted order of their text (s0, s1, s10, s11, ...); the first is the reference.
    std::vector<int> order;
    for (int level : keptLevels) {
      if (std::find(order.begin(), order.end(), level) == order.end()) order.push_back(level);
    }
    std::sort(order.begin(), order.end(),
              [](int a, int b) { return std::to_string(a) < std::to_string(b); });
    QCOMPARE(order.size(), std::size_t{60});
    for (std::size_t k = 1; k < order.size(); ++k) {
      QCOMPARE(QString::fromStdString(d.designNames[k]), QString("site=s%1").arg(order[k]));
    }
    for (std::size_t i = 0; i < keptLevels.size(); ++i) {
      const auto row = static_cast<Eigen::Index>(i);
      const auto column = static_cast<Eigen::Index>(
          std::find(order.begin(), order.end(), keptLevels[i]) - order.begin());
      QCOMPARE(d.X(row, 0), 1.0);
      QCOMPARE(d.X.row(row).tail(59).sum(), column == 0 ? 0.0 : 1.0);
      if (column > 0) QCOMPARE(d.X(row, column), 1.0);
    }
  }

  void sourceKeepsTheCovariatesTypedAndTheirText() {
    const CsvTable table = parseCsv("y,g,x,id\n1,a,0.50,p\n2,b,1e2,q\n3,a,-7,r\n", "d.csv");
    const Dataset d = buildDataset(table, spec("y", {"g", "x"}));
    QCOMPARE(d.source.size(), table.rows.size());
    const dpsynth::core::data::SourceCells cells(d);
    for (std::size_t r = 0; r < table.rows.size(); ++r)
      for (const std::size_t c : {std::size_t{1}, std::size_t{2}})
        QCOMPARE(cells(r, c).view(), table.rows[r][c]);
    // Typed: the numeric covariate's numbers once, in X; the text one as codes into its levels.
    QVERIFY(d.source.cells[2].kind() == dpsynth::core::data::SourceColumn::Kind::numeric);
    QVERIFY(d.source.cells[2].values().empty());
    QVERIFY_THROWS_EXCEPTION(std::logic_error, d.source.cell(0, 2));
    QCOMPARE(d.source.cells[1].levels().size(), std::size_t{2});
    QVERIFY(d.fileLines == table.lineOfRow);
  }

  void aStopRequestEndsTheBuildWithNothing() {
    std::string text = "y,g\n";
    for (int i = 0; i < 200000; ++i) text += std::to_string(i % 11) + (i % 3 ? ",a\n" : ",b\n");
    const CsvTable table = parseCsv(text, "d.csv");
    std::stop_source stop;
    QVERIFY(buildDataset(table, spec("y", {"g"}), stop.get_token()).has_value());
    stop.request_stop();
    QVERIFY(!buildDataset(table, spec("y", {"g"}), stop.get_token()).has_value());
    // Bad choices are still reported, stop or not.
    QVERIFY_THROWS_EXCEPTION(DataError, buildDataset(table, spec("nope"), stop.get_token()));
  }

  void rejectsMissingValuesUnlessDropping() {
    QVERIFY_THROWS_EXCEPTION(DataError, build("y\n1\nNA\n3\n", spec("y")));
    DPSYNTH_EXPECT_DATA_ERROR(build("y,g\n1,a\n2,\n3,NA\n4,b\n", spec("y", {"g"})), 3, "g",
                              "d.csv:3: column 'g': missing value (an empty field); 2 records "
                              "have missing values");
    DPSYNTH_EXPECT_DATA_ERROR(build("y\n1\nnull\n3\n", spec("y")), 3, "y",
                              "missing value ('null')");
    // An outcome that is no number comes first: the missing value's advice (drop incomplete
    // records) would only lead to it.
    DPSYNTH_EXPECT_DATA_ERROR(build("y\n1\nabc\n3\nNA\n", spec("y")), 3, "y",
                              "value 'abc' is not a number");
  }

  void rejectsNumbersOutOfRangeInsteadOfMakingTextLevels() {
    // One 1e400 among numbers used to turn the column into a factor with a dummy per value.
    DPSYNTH_EXPECT_DATA_ERROR(build("y,x\n1,2\n2,1e400\n3,4\n4,5\n", spec("y", {"x"})), 3, "x",
                              "d.csv:3: column 'x': value '1e400' is out of range. The value is "
                              "too large or too small");
    DPSYNTH_EXPECT_DATA_ERROR(build("y,x\n1,2\n2,-1e999\n3,1e-400\n4,5\n", spec("y", {"x"})), 3,
                              "x", "(2 values in this column are out of range)");
    // In the outcome the message says why the number is not one.
    DPSYNTH_EXPECT_DATA_ERROR(build("y\n1\n1e400\n3\n", spec("y")), 3, "y",
                              "value '1e400' is not a number. The value is too large");
    // A genuine text column may hold such a code as one of its levels.
    const Dataset d = build("y,x\n1,a\n2,1e400\n3,a\n4,b\n", spec("y", {"x"}));
    QVERIFY(d.designNames == (Strings{"(Intercept)", "x=a", "x=b"}));  // 1e400 sorts first
  }

  void rejectsInfiniteCovariatesInsteadOfMakingTextLevels() {
    // One Inf among numbers made the column a factor with a dummy per distinct number.
    DPSYNTH_EXPECT_DATA_ERROR(build("y,x\n1,2\n2,Inf\n3,4\n4,5\n", spec("y", {"x"})), 3, "x",
                              "d.csv:3: column 'x': value 'Inf' is infinite");
    DPSYNTH_EXPECT_DATA_ERROR(build("y,x\n1,2\n2,-infinity\n3,+INF\n4,5\n", spec("y", {"x"})), 3,
                              "x", "(2 values in this column are)");
    // A text column may still have a level spelt "inf".
    const Dataset d = build("y,x\n1,a\n2,inf\n3,a\n4,b\n", spec("y", {"x"}));
    QVERIFY(d.designNames == (Strings{"(Intercept)", "x=b", "x=inf"}));
  }

  void rejectsTextCovariatesWithALevelPerRecord() {
    // 120 records, 61 levels: more than max(50, 120/2) = 60.
    std::string text = "y,id\n";
    for (int i = 0; i < 120; ++i) {
      text += std::to_string(i % 7) + "," + (i < 61 ? "id" + std::to_string(i) : "id0") + "\n";
    }
    DPSYNTH_EXPECT_DATA_ERROR(build(text, spec("y", {"id"})), 0, "id",
                              "column 'id': is text with 61 distinct values in 120 records (first "
                              "value that is not a number: 'id0' on line 2)");
    DPSYNTH_EXPECT_DATA_ERROR(build(text, spec("y", {"id"})), 0, "id",
                              "at most 60 levels are allowed here");
    // Exactly 60 levels are allowed, and small files may always have 50.
    std::string sixty = "y,id\n";
    for (int i = 0; i < 120; ++i) {
      sixty += std::to_string(i % 7) + ",id" + std::to_string(i % 60) + "\n";
    }
    QCOMPARE(build(sixty, spec("y", {"id"})).X.cols(), Eigen::Index{60});
    std::string small = "y,id\n";
    for (int i = 0; i < 50; ++i) small += std::to_string(i % 3) + ",id" + std::to_string(i) + "\n";
    QCOMPARE(build(small, spec("y", {"id"})).X.cols(), Eigen::Index{50});
    std::string over = small + "9,id50\n";
    DPSYNTH_EXPECT_DATA_ERROR(build(over, spec("y", {"id"})), 0, "id", "51 distinct values");
  }

  void quotesValuesShortAndEscaped() {
    const std::string huge(10 * 1024 * 1024, '7');
    const auto error =
        dpsynth::test::catchDataError([&] { build("y\n1\nx" + huge + "\n2\n", spec("y")); });
    QVERIFY(error.has_value());
    QVERIFY2(std::string(error->what()).size() < 400, error->what());
    QVERIFY(std::string(error->what()).find("(10485761 bytes)") != std::string::npos);
    DPSYNTH_EXPECT_DATA_ERROR(build("y\n1\n\x1b[2J\x1b]0;pwned\x07\n2\n", spec("y")), 3, "y",
                              "value '\\x1b[2J\\x1b]0;pwned\\x07' is not a number");
    DPSYNTH_EXPECT_DATA_ERROR(build("y\n1\n\"a\nb\"\n2\n", spec("y")), 3, "y", "value 'a\\nb'");
    DPSYNTH_EXPECT_DATA_ERROR(build("y,x\n1,\x1b[1m\n2,\x1b[1m\n", spec("y", {"x"})), 0, "x",
                              "has only one level ('\\x1b[1m')");
    DPSYNTH_EXPECT_DATA_ERROR(build("y\n1\n2.5\n", spec("y", {}, Family::poisson)), 3, "y",
                              "first: '2.5'");
  }

  void doesNotEchoTheFirstLineOfAFileThatIsNoCsv() {
    // A single "column" is likely a file that is not a CSV at all (a password file, say).
    DPSYNTH_EXPECT_DATA_ERROR(build("root:x:0:0:secret:/root:/bin/bash\nbin:x:1:1\n", spec("y")), 0,
                              "y", "holds a single column");
    const auto error = dpsynth::test::catchDataError(
        [&] { build("root:x:0:0:secret:/root:/bin/bash\nbin:x:1:1\n", spec("y")); });
    QVERIFY(std::string(error->what()).find("secret") == std::string::npos);
    // Many columns: a few are listed, each quoted short.
    std::string header;
    for (int j = 0; j < 30; ++j)
      header += (j ? "," : "") + std::string(100, 'c') + std::to_string(j);
    DPSYNTH_EXPECT_DATA_ERROR(build(header + "\n" + header + "\n", spec("y")), 0, "y",
                              "and 18 more.");
  }

  void rejectsUnknownColumnsListingTheAvailableOnes() {
    DPSYNTH_EXPECT_DATA_ERROR(build("a,b\n1,2\n3,4\n", spec("c")), 0, "c",
                              "d.csv: column 'c': there is no column with this name. Available "
                              "columns: 'a', 'b'.");
    DPSYNTH_EXPECT_DATA_ERROR(build("a,b\n1,2\n3,4\n", spec("a", {"x"})), 0, "x",
                              "Available columns: 'a', 'b'.");
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

  void rejectsFewerThanTwoRecordsWhereTheirCountIsPublic() {
    DPSYNTH_EXPECT_DATA_ERROR(build("y\n5\n", spec("y")), 0, "y", "only 1 usable record.");
    DPSYNTH_EXPECT_DATA_ERROR(build("y\n", spec("y")), 0, "y", "no usable records");
    // Every record with a missing value: dropping them is no way out, and the hint says so.
    DPSYNTH_EXPECT_DATA_ERROR(build("y\n\nNA\n", spec("y")), 2, "y",
                              "dropping incomplete records would leave none");
    DPSYNTH_EXPECT_DATA_ERROR(build("y\n\n4\n", spec("y")), 2, "y", "--drop-missing");
    // With covariates the copied covariate rows show the count: still refused.
    DatasetSpec covariate = spec("y", {"x"}, Family::normal, true);
    covariate.countConfidential = true;
    DPSYNTH_EXPECT_DATA_ERROR(build("y,x\n5,1\nNA,2\n.,3\n", covariate), 0, "y",
                              "2 records were dropped for missing values");
  }

  /// SPEC §0: where the count is confidential (add-remove, or the complete records after
  /// dropping missing values), refusing a small database would tell it from its neighbour with
  /// one record more; an intercept-only one is built down to no records.
  void acceptsFewRecordsWhereTheirCountIsConfidential() {
    const Dataset one = build("y\n5\nNA\n.\n", spec("y", {}, Family::normal, true));
    QCOMPARE(one.size(), std::size_t{1});
    const Dataset none = build("y\nNA\n", spec("y", {}, Family::poisson, true));
    QCOMPARE(none.size(), std::size_t{0});
    QVERIFY(none.interceptOnly());
    DatasetSpec addRemove = spec("y");
    addRemove.countConfidential = true;
    QCOMPARE(build("y\n", addRemove).size(), std::size_t{0});
    QCOMPARE(build("y\n5\n", addRemove).size(), std::size_t{1});
  }

  void anEmptyLineOfAOneColumnFileIsAMissingValue() {
    DPSYNTH_EXPECT_DATA_ERROR(build("y\n1\n\n2\n", spec("y")), 3, "y", "an empty field");
    QCOMPARE(build("y\n1\n\n2\n3\n", spec("y", {}, Family::normal, true)).droppedRows,
             std::size_t{1});
  }

  void acceptsAConstantOutcome() {
    // Refusing it told a constant database from a neighbour whose one changed record breaks the
    // tie (SPEC §0: no data may make a release be refused).
    const Dataset d = build("y\n7\n7.0\n7\n", spec("y"));
    QCOMPARE(d.size(), std::size_t{3});
    QCOMPARE(d.y[1], 7.0);
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

  void theDesignDoesNotDependOnTheOrderOfTheRecords() {
    // The same records in two orders give the same design names and the same design per record.
    const std::string a = "y,g,h\n1,b,x\n2,c,y\n3,a,x\n4,b,y\n";
    const std::string b = "y,g,h\n3,a,x\n4,b,y\n2,c,y\n1,b,x\n";
    const Dataset da = build(a, spec("y", {"g", "h"}));
    const Dataset db = build(b, spec("y", {"g", "h"}));
    QVERIFY(da.designNames == (Strings{"(Intercept)", "g=b", "g=c", "h=y"}));
    QVERIFY(db.designNames == da.designNames);
    for (Eigen::Index i = 0; i < 4; ++i) {
      Eigen::Index j = 0;
      while (db.y[j] != da.y[i]) ++j;
      QVERIFY(db.X.row(j) == da.X.row(i));
    }
  }

  void aChosenReferenceLevelComesFirst() {
    DatasetSpec s = spec("y", {"g", "x"});
    s.referenceLevels = {{"g", "c"}};
    const Dataset d = build("y,g,x\n1,b,0.5\n2,c,1\n3,a,2\n4,b,3\n", s);
    // c is the reference; the others keep their sorted order.
    QVERIFY(d.designNames == (Strings{"(Intercept)", "g=a", "g=b", "x"}));
    Eigen::MatrixXd expected(4, 4);
    expected << 1, 0, 1, 0.5,  //
        1, 0, 0, 1,            //
        1, 1, 0, 2,            //
        1, 0, 1, 3;
    QVERIFY(d.X == expected);
    // The levels a front end offers: sorted order (not the records'), c marked the reference;
    // the numeric x is not among them.
    const CsvTable table = parseCsv("y,g,x\n1,b,0.5\n2,c,1\n3,a,2\n4,b,3\n", "d.csv");
    const auto chosen = categoricalLevels(table, s);
    QCOMPARE(chosen.size(), std::size_t(1));
    QCOMPARE(chosen[0].column, std::string("g"));
    QVERIFY(chosen[0].levels == (Strings{"a", "b", "c"}));
    QCOMPARE(chosen[0].reference, std::size_t(2));
    QVERIFY(chosen[0].chosen);
    DatasetSpec byDefault = s;
    byDefault.referenceLevels.clear();
    const auto first = categoricalLevels(table, byDefault);
    QVERIFY(first[0].levels == (Strings{"a", "b", "c"}));
    QCOMPARE(first[0].reference, std::size_t(0));
    QVERIFY(!first[0].chosen);
    // No record kept (a header alone, or every row dropped): no levels, no crash. Typing a
    // covariate of no records read the first of none.
    QVERIFY(categoricalLevels(parseCsv("y,g,x\n", "d.csv"), byDefault).empty());
    DatasetSpec dropping = byDefault;
    dropping.dropMissing = true;
    QVERIFY(categoricalLevels(parseCsv("y,g,x\nNA,a,1\nNA,b,2\n", "d.csv"), dropping).empty());
    // Blanks around the level are not part of it, as in the file's cells.
    s.referenceLevels = {{"g", " b "}};
    QVERIFY(build("y,g,x\n1,b,0.5\n2,c,1\n3,a,2\n4,b,3\n", s).designNames ==
            (Strings{"(Intercept)", "g=a", "g=c", "x"}));
  }

  void refusesAReferenceLevelThatCannotBeUsed() {
    const std::string text = "y,g,x\n1,b,0.5\n2,c,1\n3,a,2\n4,b,3\n";
    DatasetSpec s = spec("y", {"g", "x"});
    s.referenceLevels = {{"g", "d"}};
    DPSYNTH_EXPECT_DATA_ERROR(build(text, s), 0, "g",
                              "d.csv: column 'g': has no level 'd' to be the reference. Its "
                              "levels are 'a', 'b', 'c'.");
    s.referenceLevels = {{"x", "1"}};
    DPSYNTH_EXPECT_DATA_ERROR(build(text, s), 0, "x",
                              "is numeric, so it has no reference level (asked for '1')");
    s.referenceLevels = {{"G", "a"}};
    DPSYNTH_EXPECT_DATA_ERROR(build(text, s), 0, "G",
                              "is not a covariate, so it has no reference level (asked for 'a'). "
                              "Name one of the covariates: g, x.");
    s.referenceLevels = {{"y", "1"}};
    DPSYNTH_EXPECT_DATA_ERROR(build(text, s), 0, "y", "is not a covariate");
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
    // Missing and text values are no numbers: normal is then a default, not a suggestion.
    QVERIFY(!dpsynth::core::data::holdsANumber(parseCsv("y,x\n,1\nNA,2\n", "s.csv"), "y"));
    QVERIFY(dpsynth::core::data::holdsANumber(parseCsv("y,x\n,1\n0.5,2\n", "s.csv"), "y"));
  }

  void numericDatasetWithoutText() {
    Eigen::MatrixXd X(3, 2);
    X << 1, 0.5, 1, -2, 1, 7;
    const Eigen::Vector3d y(1.0, 2.0, 4.0);
    const Dataset d =
        dpsynth::core::data::numericDataset("count", Family::poisson, y, X, {"(Intercept)", "x"});
    QCOMPARE(d.size(), std::size_t{3});
    QVERIFY(d.X == X);
    QCOMPARE(d.covariateNames, Strings{"x"});
    QCOMPARE(d.fileLines, (Lines{2, 3, 4}));
    QVERIFY(d.source.empty());
    using dpsynth::core::data::numericDataset;
    Eigen::MatrixXd noIntercept = X;
    noIntercept(1, 0) = 0.0;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             numericDataset("y", Family::normal, y, noIntercept, {"a", "b"}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             numericDataset("y", Family::normal, y, X, {"(Intercept)"}));
    Eigen::Vector3d bad = y;
    bad[2] = std::numeric_limits<double>::infinity();
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             numericDataset("y", Family::normal, bad, X, {"(Intercept)", "x"}));
  }
};

QTEST_APPLESS_MAIN(DatasetTest)
#include "dataset_test.moc"
