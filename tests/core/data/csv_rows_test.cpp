/// The flat cell store behind CsvTable::rows: cells read back as written (empty ones, quotes,
/// multi-byte text), a record of the wrong width is refused without a trace, copies share the
/// text until one of them changes, and select() keeps exactly the chosen records.
#include <QtTest>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/data/csv_rows.h"

using dpsynth::core::data::CsvRow;
using dpsynth::core::data::CsvRows;
using Rows = std::vector<std::vector<std::string>>;
using Strings = std::vector<std::string>;

namespace {

CsvRows make(const Rows& records) {
  CsvRows rows;
  for (const auto& record : records) rows.push_back(record);
  return rows;
}

}  // namespace

class CsvRowsTest : public QObject {
  Q_OBJECT

 private slots:
  void cellsReadBackAsWritten() {
    const Rows records{{"1", "", "x y"}, {"", "\"quoted\"", "José 𝄞"}, {"a,b", "\n", ""}};
    const CsvRows rows = make(records);
    QCOMPARE(rows.size(), std::size_t{3});
    QCOMPARE(rows.columns(), std::size_t{3});
    QVERIFY(rows == records);
    for (std::size_t r = 0; r < records.size(); ++r) {
      QCOMPARE(rows[r].size(), std::size_t{3});
      for (std::size_t c = 0; c < 3; ++c) QVERIFY(rows[r][c] == records[r][c]);
      QVERIFY(rows[r].toStrings() == records[r]);
    }
    QVERIFY(rows.toVectors() == records);
    QVERIFY(rows.front() == records.front());
    QVERIFY(rows.back() == records.back());
    // Iteration visits every record and cell in order.
    std::size_t r = 0;
    for (const CsvRow& row : rows) {
      std::size_t c = 0;
      for (const std::string_view cell : row) QVERIFY(cell == records[r][c++]);
      QCOMPARE(c, std::size_t{3});
      ++r;
    }
    QCOMPARE(r, records.size());
    QCOMPARE(rows.textBytes(), std::size_t{1 + 3 + 8 + std::string("José 𝄞").size() + 3 + 1});
  }

  void boundsAreChecked() {
    const CsvRows rows = make({{"a", "b"}});
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, rows.at(1));
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, rows.at(0).at(2));
    QVERIFY(rows.at(0).at(1) == "b");
  }

  void recordsOfAnotherWidthAreRefusedWithoutATrace() {
    CsvRows rows = make({{"1", "2"}});
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, rows.push_back(Strings{"3"}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, rows.push_back(Strings{"3", "4", "5"}));
    QVERIFY(rows == (Rows{{"1", "2"}}));
    QCOMPARE(rows.textBytes(), std::size_t{2});
    rows.push_back({"3", "4"});
    QVERIFY(rows == (Rows{{"1", "2"}, {"3", "4"}}));

    CsvRows fixed(2);  // the width given up front
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, fixed.push_back({"only one"}));
    QVERIFY(fixed.empty());
  }

  void anOpenRecordCanBeDiscarded() {
    CsvRows rows(2);
    rows.appendCell("a");
    rows.appendCell("b");
    rows.endRecord();
    rows.appendCell("dropped");
    rows.discardOpenRecord();
    rows.appendCell("c");
    rows.appendCell("d");
    rows.endRecord();
    QVERIFY(rows == (Rows{{"a", "b"}, {"c", "d"}}));
    QCOMPARE(rows.textBytes(), std::size_t{4});
  }

  void copiesShareTheCellsUntilOneChanges() {
    CsvRows original = make({{"1", "a"}, {"2", "b"}});
    CsvRows copy = original;
    QCOMPARE(copy[0][0].data(), original[0][0].data());  // one buffer for both
    copy.push_back({"3", "c"});
    QVERIFY(original == (Rows{{"1", "a"}, {"2", "b"}}));
    QVERIFY(copy == (Rows{{"1", "a"}, {"2", "b"}, {"3", "c"}}));
    QVERIFY(copy[0][0].data() != original[0][0].data());
    QVERIFY(original != copy);
  }

  void appendingARecordOfItselfIsSafe() {
    CsvRows rows = make({{"first", "row"}});
    for (int i = 0; i < 20; ++i) rows.push_back(rows[0]);  // the buffer grows meanwhile
    QCOMPARE(rows.size(), std::size_t{21});
    QVERIFY(rows.back() == (Strings{"first", "row"}));
  }

  void selectKeepsTheChosenRecordsInOrder() {
    const CsvRows rows = make({{"1", "a"}, {"2", ""}, {"3", "c"}, {"4", "dd"}});
    const CsvRows picked = rows.select({3, 1});
    QVERIFY(picked == (Rows{{"4", "dd"}, {"2", ""}}));
    QCOMPARE(picked.columns(), std::size_t{2});
    QCOMPARE(picked.textBytes(), std::size_t{4});
    QVERIFY(rows.select({}).empty());
    // All of them in order: the same cells, not a copy.
    const CsvRows all = rows.select({0, 1, 2, 3});
    QVERIFY(all == rows);
    QCOMPARE(all[2][1].data(), rows[2][1].data());
  }

  void equalityComparesCells() {
    QVERIFY(make({{"a", "b"}}) == make({{"a", "b"}}));
    QVERIFY(make({{"a", "b"}}) != make({{"ab", ""}}));  // same text, other cells
    QVERIFY(make({{"a", "b"}}) != make({{"a", "b"}, {"a", "b"}}));
    QVERIFY(!(make({{"a"}}) == (Rows{{"a", "b"}})));
    QVERIFY(CsvRows() == Rows{});
  }
};

QTEST_APPLESS_MAIN(CsvRowsTest)
#include "csv_rows_test.moc"
