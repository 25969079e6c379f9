/// The typed covariate cells behind Dataset::source: every cell gives back exactly the text it
/// was read from ("1.50", "007", "1e3", "-0", blanks...), whether its number makes it (the
/// shortest form, a fixed number of decimals) or the text is kept; readPlainNumber reads what
/// parseNumber reads and knows the form only when std::to_chars agrees; a text column keeps its
/// levels once; buildDataset's source holds only the declared covariates.
// clang-format off
#include <QtTest>
#include "core/data/source_columns.h"
// clang-format on
#include <charconv>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/data/csv_table.h"
#include "core/data/dataset.h"
#include "core/data/value_parsing.h"

using dpsynth::core::data::PlainNumber;
using dpsynth::core::data::readPlainNumber;
using dpsynth::core::data::SourceColumn;
namespace data = dpsynth::core::data;

namespace {

/// Appends as buildDataset does: readPlainNumber first, parseNumber otherwise.
void appendCell(SourceColumn& column, const std::string& text) {
  const PlainNumber plain = readPlainNumber(text);
  if (plain.ok) {
    column.appendPlain(plain, text);
  } else {
    column.appendNumber(*data::parseNumber(text), text);
  }
}

std::string shortestText(double value) {
  char buffer[64];
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
  return {buffer, end};
}

std::string fixedText(double value, int decimals) {
  char buffer[512];
  const auto end =
      std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed, decimals).ptr;
  return {buffer, end};
}

/// Random decimal texts of every plain shape: signs, leading and trailing zeros, long and short
/// mantissas, points anywhere, and now and then an exponent or a '+'.
std::vector<std::string> randomTexts(std::size_t count, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<std::uint64_t>(n)); };
  std::vector<std::string> out;
  for (std::size_t k = 0; k < count; ++k) {
    std::string text;
    if (pick(3) == 0) text += '-';
    if (pick(40) == 0) text += '+';
    const int whole = 1 + pick(pick(4) == 0 ? 20 : 6);
    for (int i = 0; i < whole; ++i) text += static_cast<char>('0' + (pick(3) == 0 ? 0 : pick(10)));
    if (pick(4) != 0) {
      text += '.';
      const int fraction = 1 + pick(pick(4) == 0 ? 24 : 12);
      for (int i = 0; i < fraction; ++i)
        text += static_cast<char>('0' + (pick(3) == 0 ? 0 : pick(10)));
    }
    if (pick(20) == 0) text += "e" + std::to_string(pick(60) - 30);
    if (data::parseNumber(text)) out.push_back(text);
  }
  return out;
}

}  // namespace

class SourceColumnsTest : public QObject {
  Q_OBJECT

 private slots:
  void numericCellsGiveBackTheirText() {
    const std::vector<std::string> texts{"1.5",
                                         "1.50",
                                         "2",
                                         "007",
                                         "1e3",
                                         "1E3",
                                         "-0",
                                         "0",
                                         "-0.0",
                                         "0.0",
                                         ".5",
                                         "+4",
                                         " 12",
                                         "12 ",
                                         "0.0001",
                                         "1e-04",
                                         "100000",
                                         "1e+05",
                                         "10000",
                                         "3.14159265358979",
                                         "0.1000000000000000055511151231257827",
                                         "-12.000",
                                         "123456789012345678",
                                         "1234567890.12345678901",
                                         "5e-324",
                                         "1.7976931348623157e308"};
    SourceColumn column;
    column.startNumeric(texts.size());
    for (const auto& text : texts) appendCell(column, text);
    column.finish();
    QCOMPARE(column.size(), texts.size());
    for (std::size_t i = 0; i < texts.size(); ++i)
      QCOMPARE(std::string(column.text(i).view()), texts[i]);
    // The values are the numbers read, exactly.
    for (std::size_t i = 0; i < texts.size(); ++i)
      QCOMPARE(column.values()[i], *data::parseNumber(texts[i]));
  }

  void onlyTextsNoRuleMakesAreKept() {
    SourceColumn column;
    column.startNumeric(6);
    for (const std::string text : {"1.5", "1.50", "-0.250", "100", "0.0001", "1e3"})
      appendCell(column, text);
    // "1e3" alone: 1.5 is shortest, 1.50 and -0.250 two and three decimals, 100 shortest,
    // 0.0001 four decimals (its shortest form is 1e-04).
    QCOMPARE(column.exceptions(), std::size_t{1});
  }

  void randomTextsRoundTrip() {
    const std::vector<std::string> texts = randomTexts(200000, 7);
    QVERIFY(texts.size() > 150000);
    SourceColumn column;
    column.startNumeric(texts.size());
    for (const auto& text : texts) appendCell(column, text);
    for (std::size_t i = 0; i < texts.size(); ++i) {
      if (column.text(i).view() != texts[i])
        QFAIL(qPrintable(QString::fromStdString("cell " + texts[i] + " came back as " +
                                                std::string(column.text(i).view()))));
    }
  }

  void plainNumbersReadAsParseNumberAndKnowTheirForm() {
    std::vector<std::string> texts = randomTexts(200000, 11);
    // And every shortest form of random doubles of many magnitudes.
    std::mt19937_64 rng(3);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    for (int k = 0; k < 50000; ++k)
      texts.push_back(shortestText(unit(rng) * std::pow(10.0, static_cast<int>(rng() % 40) - 20)));
    std::size_t plain = 0, shortest = 0;
    for (const auto& text : texts) {
      const PlainNumber number = readPlainNumber(text);
      if (!number.ok) continue;
      ++plain;
      const auto parsed = data::parseNumber(text);
      QVERIFY(parsed);
      // Bit for bit (-0 included).
      QCOMPARE(std::signbit(number.value), std::signbit(*parsed));
      QCOMPARE(number.value, *parsed);
      const bool isShortest = shortestText(number.value) == text;
      if (number.shortest != isShortest)
        QFAIL(qPrintable(QString::fromStdString("shortest form of " + text + " misjudged")));
      shortest += isShortest ? 1 : 0;
      if (number.decimals >= 0) QCOMPARE(fixedText(number.value, number.decimals), text);
    }
    // The fast path covers most texts, and both answers occur.
    QVERIFY(plain > texts.size() / 2);
    QVERIFY(shortest > 1000 && shortest < plain);
  }

  void textCellsKeepEachLevelOnce() {
    SourceColumn column;
    column.startText(5);
    for (const std::string text : {"north", " north", "south", "north", ""})
      column.appendText(text);
    column.finish();
    QCOMPARE(column.levels().size(), std::size_t{4});  // the blank-led one is its own text
    const std::vector<std::string> expected{"north", " north", "south", "north", ""};
    for (std::size_t i = 0; i < expected.size(); ++i)
      QCOMPARE(std::string(column.text(i).view()), expected[i]);
  }

  void cellTextCopiesStayValid() {
    SourceColumn column;
    column.startNumeric(1);
    appendCell(column, "2.5");
    std::vector<data::CellText> copies;
    for (int k = 0; k < 100; ++k) copies.push_back(column.text(0));  // reallocations move them
    for (const auto& copy : copies) QCOMPARE(std::string(copy.view()), std::string("2.5"));
  }

  void datasetSourceHoldsOnlyTheCovariates() {
    const auto table = data::parseCsv(
        "id,y,x,g\n"
        "a,1.0,1.50,north\n"
        "b,2.5,007,south\n"
        "c,3,1e3,\" north\"\n",
        "t.csv");
    data::DatasetSpec spec;
    spec.outcome = "y";
    spec.covariates = {"x", "g"};
    const data::Dataset d = data::buildDataset(table, spec);
    QCOMPARE(d.source.size(), std::size_t{3});
    QVERIFY(!d.source.holds(0));  // id never leaves
    QVERIFY(!d.source.holds(1));  // the outcome is synthesised
    QVERIFY(d.source.holds(2) && d.source.holds(3));
    const std::vector<std::string> x{"1.50", "007", "1e3"}, g{"north", "south", " north"};
    const data::SourceCells cells(d);
    for (std::size_t r = 0; r < 3; ++r) {
      QCOMPARE(std::string(cells(r, 2).view()), x[r]);
      QCOMPARE(std::string(cells(r, 3).view()), g[r]);
    }
    QVERIFY_THROWS_EXCEPTION(std::logic_error, cells(0, 0));
    QVERIFY_THROWS_EXCEPTION(std::logic_error, d.source.cell(0, 1));
  }
};

QTEST_APPLESS_MAIN(SourceColumnsTest)
#include "source_columns_test.moc"
