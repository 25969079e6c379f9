#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>
#include <fstream>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "core/data/csv_table.h"
#include "core/data/data_error.h"
#include "expect_data_error.h"

using dpsynth::core::data::CsvTable;
using dpsynth::core::data::DataError;
using dpsynth::core::data::parseCsv;
using dpsynth::core::data::ReadControl;
using dpsynth::core::data::readCsv;
using dpsynth::core::data::ReadProgress;
using dpsynth::test::qs;
using Rows = std::vector<std::vector<std::string>>;
using Strings = std::vector<std::string>;
using Lines = std::vector<std::size_t>;

namespace {

std::string malformed(const std::string& name) {
  return std::string(DPSYNTH_SOURCE_DIR) + "/tests/data/malformed/" + name;
}

/// `rows` records "i,x,text" (a quoted field with a delimiter every tenth record).
std::string numberedCsv(std::size_t rows) {
  std::string text = "i,x,label\n";
  for (std::size_t i = 0; i < rows; ++i) {
    text += std::to_string(i) + "," + std::to_string(i % 7) + "," +
            (i % 10 == 0 ? "\"a,b\"" : "plain") + "\n";
  }
  return text;
}

}  // namespace

class CsvReaderTest : public QObject {
  Q_OBJECT

 private slots:
  void readsCommaSeparatedText() {
    const CsvTable t = parseCsv("a,b,c\n1,2,3\n4,5,6\n", "t.csv");
    QCOMPARE(qs(t.file), QString("t.csv"));
    QCOMPARE(t.delimiter, ',');
    QVERIFY(t.header == (Strings{"a", "b", "c"}));
    QVERIFY(t.rows == (Rows{{"1", "2", "3"}, {"4", "5", "6"}}));
    QVERIFY(t.lineOfRow == (Lines{2, 3}));
  }

  void detectsSemicolonAndTab() {
    const CsvTable semi = parseCsv("a;b\n1,5;2\n", "s.csv");
    QCOMPARE(semi.delimiter, ';');
    QVERIFY(semi.rows == (Rows{{"1,5", "2"}}));
    const CsvTable tab = parseCsv("a\tb\tc\n 1 \t\t x y \n", "t.tsv");
    QCOMPARE(tab.delimiter, '\t');
    QVERIFY(tab.rows == (Rows{{"1", "", "x y"}}));
  }

  void countsDelimitersOutsideQuotesOnly() {
    // Two commas inside quotes, one semicolon outside: the semicolon wins.
    const CsvTable t = parseCsv("\"x,y,z\";b\n1;2\n", "q.csv");
    QCOMPARE(t.delimiter, ';');
    QVERIFY(t.header == (Strings{"x,y,z", "b"}));
    // Ties go to the comma; no delimiter at all means one column.
    QCOMPARE(parseCsv("a,b;c\n1,2;3\n", "tie.csv").delimiter, ',');
    const CsvTable one = parseCsv("count\n1\n2\n", "one.csv");
    QCOMPARE(one.delimiter, ',');
    QVERIFY(one.rows == (Rows{{"1"}, {"2"}}));
  }

  void handlesQuoting() {
    const CsvTable t = parseCsv(
        "name,comment\n"
        "\"Smith, J\",\"said \"\"hi\"\"\"\n"
        "  padded  ,\"  kept  \"\n"
        "\"\",\n",
        "q.csv");
    QVERIFY(t.rows == (Rows{{"Smith, J", "said \"hi\""}, {"padded", "  kept  "}, {"", ""}}));
  }

  void stripsByteOrderMarkAndHeaderBlanks() {
    const CsvTable t = parseCsv("\xEF\xBB\xBF a ,\" b \"\n1,2\n", "bom.csv");
    QVERIFY(t.header == (Strings{"a", "b"}));
    // Found by fuzz/csv_fuzzer: a BOM after blank lines (or quoted, or doubled) stayed in the
    // first name, and the written file then read back with a different header.
    DPSYNTH_EXPECT_DATA_ERROR(parseCsv("\n\n\xEF\xBB\xBF\n2\n70\n", "b.csv"), 3, "",
                              "column 1 of 1 in the header has no name");
    QVERIFY(parseCsv("\n\xEF\xBB\xBF"
                     "a,b\n1,2\n",
                     "b.csv")
                .header == (Strings{"a", "b"}));
    QVERIFY(parseCsv("\"\xEF\xBB\xBF"
                     "a\",b\n",
                     "b.csv")
                .header == (Strings{"a", "b"}));
    QVERIFY(parseCsv("\xEF\xBB\xBF\xEF\xBB\xBF x,y\n", "b.csv").header == (Strings{"x", "y"}));
    // Only the first name: elsewhere U+FEFF is an ordinary (if odd) character.
    QVERIFY(parseCsv("a,\xEF\xBB\xBF"
                     "b\n",
                     "b.csv")
                .header == (Strings{"a",
                                    "\xEF\xBB\xBF"
                                    "b"}));
  }

  void acceptsCrlfAndMissingFinalNewline() {
    const CsvTable t = parseCsv("a,b\r\n1,2\r\n3,4", "crlf.csv");
    QVERIFY(t.rows == (Rows{{"1", "2"}, {"3", "4"}}));
    QVERIFY(t.lineOfRow == (Lines{2, 3}));
  }

  void acceptsUtf8Text() {
    const CsvTable t = parseCsv("città,€\nJosé,𝄞\n", "u.csv");
    QVERIFY(t.header == (Strings{"città", "€"}));
    QVERIFY(t.rows == (Rows{{"José", "𝄞"}}));
  }

  void tracksFileLinesAcrossQuotedNewlines() {
    const CsvTable t = parseCsv(
        "id,note\n"
        "1,\"two\nlines\"\n"
        "2,\"three\r\nlines\r\nhere\"\r\n"
        "3,plain\n",
        "n.csv");
    QVERIFY(t.rows == (Rows{{"1", "two\nlines"}, {"2", "three\r\nlines\r\nhere"}, {"3", "plain"}}));
    QVERIFY(t.lineOfRow == (Lines{2, 4, 7}));
  }

  void skipsBlankLinesKeepingLineNumbers() {
    // In a file of two columns or more an empty line is no record; in a one-column file one
    // between records is an empty value (anEmptyLineInAOneColumnFileIsAnEmptyValue).
    const CsvTable t = parseCsv("a,b\n1,x\n\n   \n2,y\n\n\n", "b.csv");
    QVERIFY(t.rows == (Rows{{"1", "x"}, {"2", "y"}}));
    QVERIFY(t.lineOfRow == (Lines{2, 5}));
    const CsvTable one = parseCsv("a\n1\n\n   \n2\n\n\n", "b.csv");
    QVERIFY(one.rows == (Rows{{"1"}, {""}, {""}, {"2"}}));
    QVERIFY(one.lineOfRow == (Lines{2, 3, 4, 5}));
  }

  void headerOnlyGivesNoRows() {
    const CsvTable t = parseCsv("a,b\n", "h.csv");
    QVERIFY(t.header == (Strings{"a", "b"}));
    QVERIFY(t.rows.empty());
  }

  void columnIndexNamesTheAvailableColumns() {
    const CsvTable t = parseCsv("a,b\n1,2\n", "c.csv");
    QCOMPARE(t.columnIndex("b"), std::size_t{1});
    QVERIFY_THROWS_EXCEPTION(DataError, t.columnIndex("B"));
    DPSYNTH_EXPECT_DATA_ERROR(t.columnIndex("z"), 0, "z", "Available columns: 'a', 'b'.");
  }

  void rejectsMissingAndUnreadableFiles() {
    DPSYNTH_EXPECT_DATA_ERROR(readCsv("/nonexistent/dir/x.csv"), 0, "",
                              "/nonexistent/dir/x.csv: the file does not exist");
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    DPSYNTH_EXPECT_DATA_ERROR(readCsv(dir.path().toStdString()), 0, "", "folder, not a file");
    const std::string locked = dir.filePath("locked.csv").toStdString();
    std::ofstream(locked) << "a\n1\n";
    ::chmod(locked.c_str(), 0);
    if (::geteuid() == 0) QSKIP("running as root: file permissions are not enforced");
    DPSYNTH_EXPECT_DATA_ERROR(readCsv(locked), 0, "", "cannot be read");
  }

  void refusesFifosAndDevicesWithoutReading() {
    // Each of these would block or be read forever if it were opened and read like a file.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string fifo = dir.filePath("pipe.csv").toStdString();
    QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
    QElapsedTimer timer;
    timer.start();
    DPSYNTH_EXPECT_DATA_ERROR(readCsv(fifo), 0, "", "pipe.csv: this is a named pipe (FIFO)");
    DPSYNTH_EXPECT_DATA_ERROR(readCsv("/dev/zero"), 0, "", "/dev/zero: this is a device");
    DPSYNTH_EXPECT_DATA_ERROR(readCsv("/dev/null"), 0, "", "not an ordinary file");
    QVERIFY(timer.elapsed() < 5000);
    // A symbolic link is followed: to a regular file it reads, to a device it is refused.
    const std::string real = dir.filePath("real.csv").toStdString();
    std::ofstream(real) << "a\n1\n";
    const std::string goodLink = dir.filePath("good.csv").toStdString();
    const std::string badLink = dir.filePath("bad.csv").toStdString();
    QCOMPARE(::symlink(real.c_str(), goodLink.c_str()), 0);
    QCOMPARE(::symlink("/dev/zero", badLink.c_str()), 0);
    QCOMPARE(readCsv(goodLink).rows.size(), std::size_t{1});
    DPSYNTH_EXPECT_DATA_ERROR(readCsv(badLink), 0, "", "this is a device");
  }

  void capsTheSizeRead() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("big.csv").toStdString();
    std::ofstream(path, std::ios::binary) << "value\n" << std::string(2000, '1') << "\n";
    QCOMPARE(readCsv(path, 4096).rows.size(), std::size_t{1});
    DPSYNTH_EXPECT_DATA_ERROR(readCsv(path, 1024), 0, "",
                              "big.csv: the file is larger than 1 KiB. dpsynth holds its input in "
                              "memory and reads at most 1 KiB");
    // The default cap is 2 GiB and the message names it.
    QCOMPARE(dpsynth::core::data::kMaxInputBytes, std::uint64_t{2} << 30);
    QCOMPARE(qs(dpsynth::core::data::formatByteSize(dpsynth::core::data::kMaxInputBytes)),
             QString("2 GiB"));
    QCOMPARE(qs(dpsynth::core::data::formatByteSize(1000)), QString("1000 bytes"));
    // Files in /proc report size 0 but have content: the cap applies to what is read.
    DPSYNTH_EXPECT_DATA_ERROR(readCsv("/proc/self/maps", 16), 0, "", "larger than 16 bytes");
  }

  void readsAFileFromDisk() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("d.csv").toStdString();
    std::ofstream(path, std::ios::binary) << "x;y\r\n1;2\r\n";
    const CsvTable t = readCsv(path);
    QCOMPARE(qs(t.file), qs(path));
    QVERIFY(t.rows == (Rows{{"1", "2"}}));
  }

  /// Excel's "sep=;" first line names the delimiter (it was read as the header, and the real
  /// header as a record); line numbers still count it.
  void readsExcelsSeparatorLine() {
    const CsvTable t = parseCsv("sep=;\r\nvisits;region\r\n3;north, east\r\n4;west\r\n", "x.csv");
    QCOMPARE(t.delimiter, ';');
    QCOMPARE(t.header, (std::vector<std::string>{"visits", "region"}));
    QCOMPARE(t.rows.size(), std::size_t{2});
    QCOMPARE(std::string(t.rows[0][1]), std::string("north, east"));
    QCOMPARE(t.lineOfRow[0], std::size_t{3});
    QCOMPARE(parseCsv("SEP=\"\t\"\na\tb\n1\t2\n", "t.csv").delimiter, '\t');
    DPSYNTH_EXPECT_DATA_ERROR(parseCsv("sep=;\na;b\n1\n", "r.csv"), 3, "", "found 1");
    DPSYNTH_EXPECT_DATA_ERROR(parseCsv("sep=,\n\n", "e.csv"), 0, "", "empty");
    // A header that only looks like one stays a header.
    QCOMPARE(parseCsv("sep=1\n5\n", "h.csv").header, std::vector<std::string>{"sep=1"});
  }

  /// A one-column file's empty line between records is a record with an empty value (what a
  /// spreadsheet writes for an empty cell); it was dropped without a word. Empty lines at the
  /// end, and in files of more columns, are still skipped.
  void anEmptyLineInAOneColumnFileIsAnEmptyValue() {
    const CsvTable t = parseCsv("y\n1\n\n2\r\n\r\n3\n\n\n", "one.csv");
    QCOMPARE(t.rows.size(), std::size_t{5});
    QCOMPARE(std::string(t.rows[1][0]), std::string());
    QCOMPARE(std::string(t.rows[4][0]), std::string("3"));
    QCOMPARE(t.lineOfRow, (std::vector<std::size_t>{2, 3, 4, 5, 6}));
    QCOMPARE(parseCsv("a,b\n1,2\n\n3,4\n", "two.csv").rows.size(), std::size_t{2});
    QCOMPARE(parseCsv("\ny\n1\n", "lead.csv").rows.size(), std::size_t{1});
  }

  void rejectsBinaryContent() {
    DPSYNTH_EXPECT_DATA_ERROR(parseCsv(std::string("a,b\n1,\0\n", 8), "z.csv"), 2, "",
                              "z.csv:2: this looks like a binary file (e.g. a spreadsheet): it "
                              "contains NUL bytes");
    DPSYNTH_EXPECT_DATA_ERROR(parseCsv("a\ncaf\xE9\n", "l.csv"), 2, "", "not valid UTF-8");
    // The dialog shows the problem under "Problem" and the advice under "What to do": they were
    // the other way round, and Latin-1 text was called a binary file.
    for (const std::string& text : {std::string("a,b\n1,\0\n", 8), std::string("a\ncaf\xE9\n")}) {
      try {
        (void)parseCsv(text, "d.csv");
        QFAIL("no error");
      } catch (const DataError& e) {
        QVERIFY2(!QString::fromStdString(e.problem()).contains("Save", Qt::CaseInsensitive),
                 e.problem().c_str());
        QVERIFY2(QString::fromStdString(e.hint()).startsWith("Save it") ||
                     QString::fromStdString(e.hint()).startsWith("If it is text, save it again"),
                 e.hint().c_str());
        QCOMPARE(QString::fromStdString(e.problem()).contains("Latin-1"),
                 text.find('\0') == std::string::npos);
      }
    }
    DPSYNTH_EXPECT_DATA_ERROR(parseCsv("a\n\xC0\xAF\n", "o.csv"), 2, "", "0xC0");  // overlong
    DPSYNTH_EXPECT_DATA_ERROR(parseCsv("a\n1\n\xED\xA0\x80\n", "s.csv"), 3, "", "binary file");
    DPSYNTH_EXPECT_DATA_ERROR(parseCsv("a\n\xF4\x90\x80\x80\n", "h.csv"), 2, "", "binary file");
    DPSYNTH_EXPECT_DATA_ERROR(parseCsv("a\n\xE2\x82\n", "t.csv"), 2, "", "binary file");
  }

  void rejectsEmptyFiles() {
    DPSYNTH_EXPECT_DATA_ERROR(parseCsv("", "e.csv"), 0, "", "e.csv: the file is empty");
    DPSYNTH_EXPECT_DATA_ERROR(parseCsv("\n \r\n\n", "e.csv"), 0, "", "the file is empty");
    DPSYNTH_EXPECT_DATA_ERROR(parseCsv("\xEF\xBB\xBF", "e.csv"), 0, "", "the file is empty");
  }

  void rejectsUnnamedColumns() {
    DPSYNTH_EXPECT_DATA_ERROR(parseCsv("a,,c\n1,2,3\n", "u.csv"), 1, "",
                              "u.csv:1: column 2 of 3 in the header has no name");
    DPSYNTH_EXPECT_DATA_ERROR(parseCsv("a,  ,c\n1,2,3\n", "u.csv"), 1, "", "column 2 of 3");
    DPSYNTH_EXPECT_DATA_ERROR(parseCsv("a,b,\n1,2,3\n", "u.csv"), 1, "", "column 3 of 3");
    DPSYNTH_EXPECT_DATA_ERROR(parseCsv("\n\na,\" \"\n", "u.csv"), 3, "", "column 2 of 2");
  }

  void rejectsDuplicateColumns() {
    DPSYNTH_EXPECT_DATA_ERROR(parseCsv("x,y,x\n1,2,3\n", "d.csv"), 1, "x",
                              "d.csv:1: column 'x': the name is used by columns 1 and 3");
    DPSYNTH_EXPECT_DATA_ERROR(parseCsv("x, y ,\"y\"\n1,2,3\n", "d.csv"), 1, "y", "columns 2 and 3");
  }

  /// A header of many names finds a duplicate by hashing, not by comparing every pair (10^6
  /// names took about 20 minutes); the first of the two is named.
  void findsADuplicateAmongManyColumnNames() {
    std::string header;
    for (int j = 0; j < 200000; ++j) {
      if (j) header += ',';
      header += 'c';
      header += std::to_string(j);
    }
    header += ",c7\n";
    std::string row;
    for (int j = 0; j <= 200000; ++j) row += j ? ",1" : "1";
    DPSYNTH_EXPECT_DATA_ERROR(parseCsv(header + row + "\n", "wide.csv"), 1, "c7",
                              "wide.csv:1: column 'c7': the name is used by columns 8 and 200001");
  }

  void rejectsRaggedRows() {
    DPSYNTH_EXPECT_DATA_ERROR(parseCsv("a,b\n1,2\n1,2,3\n", "r.csv"), 3, "",
                              "r.csv:3: expected 2 fields (as in the header) but found 3");
    DPSYNTH_EXPECT_DATA_ERROR(parseCsv("a,b\n1,2\n1,2,3\n", "r.csv"), 3, "", "decimal comma");
    // The short row starts on line 4 because the record before it spans two lines.
    DPSYNTH_EXPECT_DATA_ERROR(parseCsv("a,b\n\"1\n1\",2\n5\n", "r.csv"), 4, "",
                              "expected 2 fields (as in the header) but found 1");
  }

  void rejectsUnclosedQuotes() {
    DPSYNTH_EXPECT_DATA_ERROR(parseCsv("a,b\n1,2\n3,\"x\n4,5\n", "q.csv"), 3, "",
                              "q.csv:3: a quoted value in the record starting on this line is "
                              "never closed");
  }

  void aControlledReadGivesTheSameTable() {
    const std::string text = numberedCsv(5000);
    std::vector<ReadProgress> seen;
    ReadControl control;
    control.progress = [&](const ReadProgress& p) { seen.push_back(p); };
    const std::optional<CsvTable> t = parseCsv(text, "n.csv", control);
    QVERIFY(t.has_value());
    const CsvTable plain = parseCsv(text, "n.csv");
    QVERIFY(t->header == plain.header);
    QVERIFY(t->rows == plain.rows);
    QVERIFY(t->lineOfRow == plain.lineOfRow);
    QCOMPARE(t->rows.size(), std::size_t{5000});
    QVERIFY(t->rows[10][2] == "a,b");
    // Progress every 1024 lines, growing, ending with everything parsed.
    QVERIFY(seen.size() >= 4);
    for (std::size_t k = 1; k < seen.size(); ++k) {
      QVERIFY(seen[k].fraction() >= seen[k - 1].fraction());
    }
    QCOMPARE(seen.back().bytesParsed, std::uint64_t{text.size()});
    QCOMPARE(seen.back().bytesTotal, std::uint64_t{text.size()});
    QCOMPARE(seen.back().fraction(), 1.0);
  }

  void aStopRequestEndsTheParseWithNothing() {
    const std::string text = numberedCsv(20000);
    std::stop_source stop;
    ReadControl control;
    control.stop = stop.get_token();
    int calls = 0;
    control.progress = [&](const ReadProgress&) {
      if (++calls == 2) stop.request_stop();  // part way through
    };
    QVERIFY(!parseCsv(text, "n.csv", control).has_value());
    QCOMPARE(calls, 2);  // the next check stops it

    std::stop_source before;
    before.request_stop();
    QVERIFY(!parseCsv(text, "n.csv", ReadControl{before.get_token(), {}}).has_value());
    // Errors found before the stop still count: a stop does not hide bad input.
    DPSYNTH_EXPECT_DATA_ERROR(
        parseCsv(std::string("a\n\0", 3), "b.csv", ReadControl{before.get_token(), {}}), 2, "",
        "binary file");
  }

  void aStopRequestEndsTheFileReadWithNothing() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("big.csv").toStdString();
    const std::string text = numberedCsv(300000);  // several MiB: several read chunks
    std::ofstream(path, std::ios::binary) << text;
    std::stop_source stop;
    ReadControl control;
    control.stop = stop.get_token();
    std::vector<ReadProgress> seen;
    control.progress = [&](const ReadProgress& p) {
      seen.push_back(p);
      stop.request_stop();  // after the first MiB
    };
    QVERIFY(!readCsv(path, control).has_value());
    QCOMPARE(seen.size(), std::size_t{1});
    QCOMPARE(seen.front().bytesRead, std::uint64_t{1} << 20);
    QCOMPARE(seen.front().bytesTotal, std::uint64_t{text.size()});
    QCOMPARE(seen.front().bytesParsed, std::uint64_t{0});

    // Without a stop, reading fills the first half of the progress and parsing the second.
    seen.clear();
    control = {};
    control.progress = [&](const ReadProgress& p) { seen.push_back(p); };
    const auto t = readCsv(path, control);
    QVERIFY(t.has_value());
    QCOMPARE(t->rows.size(), std::size_t{300000});
    QCOMPARE(qs(t->file), qs(path));
    bool sawHalf = false;
    for (std::size_t k = 1; k < seen.size(); ++k) {
      QVERIFY(seen[k].fraction() >= seen[k - 1].fraction());
      sawHalf = sawHalf || seen[k].fraction() == 0.5;
    }
    QVERIFY(sawHalf);
    QCOMPARE(seen.back().fraction(), 1.0);
  }

  void errorsKeepTheirOrder() {
    // Records are checked as they are parsed, but reported as before: an unclosed quote or a
    // bad header first, then the first ragged record.
    DPSYNTH_EXPECT_DATA_ERROR(parseCsv("a,b\n1\n2,3\n\"x\n", "o.csv"), 4, "", "never closed");
    DPSYNTH_EXPECT_DATA_ERROR(parseCsv("a,a\n1\n", "o.csv"), 1, "a", "columns 1 and 2");
    DPSYNTH_EXPECT_DATA_ERROR(parseCsv("a,b\n1,2\n3\n4,5,6\n", "o.csv"), 3, "", "found 1");
    // Binary content beats everything, wherever it is.
    DPSYNTH_EXPECT_DATA_ERROR(parseCsv(std::string("a,a\n1\n\xE9\n\0\n", 10), "o.csv"), 4, "",
                              "binary file");
  }

  void validatesUtf8AcrossItsScanBlocks() {
    // The UTF-8 check runs in 16 MiB blocks (with a stop check between them): a character
    // across a block boundary is fine, and a bad byte beyond it is found on its line.
    const std::size_t block = std::size_t{16} << 20;
    std::string text = "a\n";
    text.append(block - text.size() - 1, 'x');
    text += "\xC3\xA9\n";  // é straddles the boundary
    QCOMPARE(parseCsv(text, "u.csv").rows.size(), std::size_t{1});
    text += "ok\nbad \xE9 byte\n";
    DPSYNTH_EXPECT_DATA_ERROR(parseCsv(text, "u.csv"), 4, "", "0xE9");
  }

  void rejectsTheMalformedSamples() {
    DPSYNTH_EXPECT_DATA_ERROR(readCsv(malformed("ragged_row.csv")), 3, "", "found 3");
    DPSYNTH_EXPECT_DATA_ERROR(readCsv(malformed("binary_junk.csv")), 1, "",
                              "looks like a binary file");
    DPSYNTH_EXPECT_DATA_ERROR(readCsv(malformed("duplicate_header.csv")), 1, "count",
                              "columns 2 and 4");
    DPSYNTH_EXPECT_DATA_ERROR(readCsv(malformed("latin1_text.csv")), 2, "", "not valid UTF-8");
    DPSYNTH_EXPECT_DATA_ERROR(readCsv(malformed("unclosed_quote.csv")), 3, "", "never closed");
    // Text in the outcome is the dataset builder's business: the file itself reads fine.
    QCOMPARE(readCsv(malformed("text_outcome.csv")).rows.size(), std::size_t{4});
  }
};

QTEST_APPLESS_MAIN(CsvReaderTest)
#include "csv_reader_test.moc"
