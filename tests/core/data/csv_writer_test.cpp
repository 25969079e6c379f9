#include "core/data/csv_writer.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <charconv>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "core/data/csv_table.h"
#include "core/data/value_parsing.h"
#include "core/random/rng.h"
#include "support/test_files.h"

namespace data = dpsynth::core::data;
namespace fs = std::filesystem;
using dpsynth::core::data::formatNumber;
using Rows = std::vector<std::vector<std::string>>;
using Strings = std::vector<std::string>;

namespace {

/// Names in a folder, to show that a failed write left nothing behind.
std::vector<std::string> listing(const std::string& folder) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(folder)) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

double readBack(const std::string& text) {
  double value = 0.0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || ptr != text.data() + text.size()) return std::nan("");
  return value;
}

}  // namespace

class CsvWriterTest : public QObject {
  Q_OBJECT

 private slots:
  void formatsNumbersShortestAndExact() {
    QCOMPARE(QString::fromStdString(formatNumber(1.0)), QString("1"));
    QCOMPARE(QString::fromStdString(formatNumber(-42.0)), QString("-42"));
    QCOMPARE(QString::fromStdString(formatNumber(0.1)), QString("0.1"));
    QCOMPARE(QString::fromStdString(formatNumber(-0.0)), QString("0"));
    QCOMPARE(QString::fromStdString(formatNumber(123456789.0)), QString("123456789"));
    QCOMPARE(QString::fromStdString(formatNumber(2.5e-7)), QString("2.5e-07"));
    QCOMPARE(QString::fromStdString(formatNumber(std::nan(""))), QString(""));
    QCOMPARE(QString::fromStdString(formatNumber(std::numeric_limits<double>::infinity())),
             QString("Inf"));
    QCOMPARE(QString::fromStdString(formatNumber(-std::numeric_limits<double>::infinity())),
             QString("-Inf"));
    QCOMPARE(readBack(formatNumber(1.0 / 3.0)), 1.0 / 3.0);
    // Round trip is exact for arbitrary doubles across magnitudes.
    auto rng = dpsynth::core::random::makeRng(7);
    for (int i = 0; i < 2000; ++i) {
      const double x = dpsynth::core::random::normal(rng, 0.0, 1.0) *
                       std::pow(10.0, static_cast<double>(i % 40) - 20.0);
      const std::string text = formatNumber(x);
      QVERIFY2(readBack(text) == x, text.c_str());
      QVERIFY(text.find(',') == std::string::npos);
    }
  }

  void quotesOnlyWhenNeeded() {
    QCOMPARE(QString::fromStdString(data::quoteCsvField("plain")), QString("plain"));
    QCOMPARE(QString::fromStdString(data::quoteCsvField("")), QString(""));
    QCOMPARE(QString::fromStdString(data::quoteCsvField("a,b")), QString("\"a,b\""));
    // Every delimiter the reader could detect is quoted, whichever one is in use.
    QCOMPARE(QString::fromStdString(data::quoteCsvField("a,b", ';')), QString("\"a,b\""));
    QCOMPARE(QString::fromStdString(data::quoteCsvField("a;b")), QString("\"a;b\""));
    QCOMPARE(QString::fromStdString(data::quoteCsvField("a\tb")), QString("\"a\tb\""));
    QCOMPARE(QString::fromStdString(data::quoteCsvField("a.b-c_d", '\t')), QString("a.b-c_d"));
    QCOMPARE(QString::fromStdString(data::quoteCsvField("a;b", ';')), QString("\"a;b\""));
    QCOMPARE(QString::fromStdString(data::quoteCsvField("say \"hi\"")),
             QString("\"say \"\"hi\"\"\""));
    QCOMPARE(QString::fromStdString(data::quoteCsvField("x\ny")), QString("\"x\ny\""));
    QCOMPARE(QString::fromStdString(data::quoteCsvField("x\r")), QString("\"x\r\""));
    QCOMPARE(QString::fromStdString(data::quoteCsvField(" lead")), QString("\" lead\""));
    QCOMPARE(QString::fromStdString(data::quoteCsvField("trail\t")), QString("\"trail\t\""));
  }

  void formatsWholeTables() {
    const std::string text = data::formatCsv({"id", "note"}, {{"1", "a,b"}, {"2", ""}});
    QCOMPARE(QString::fromStdString(text), QString("id,note\n1,\"a,b\"\n2,\n"));
    // A lone empty field would be a blank line, which readers skip.
    QCOMPARE(QString::fromStdString(data::formatCsv({"v"}, {{"1"}, {""}})),
             QString("v\n1\n\"\"\n"));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, data::formatCsv({"a", "b"}, {{"1"}}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, data::formatCsv({"a"}, {{"1"}}, '"'));
  }

  void roundTripsAwkwardFields_data() {
    QTest::addColumn<char>("delimiter");
    QTest::newRow("comma") << ',';
    QTest::newRow("semicolon") << ';';
    QTest::newRow("tab") << '\t';
  }

  void roundTripsAwkwardFields() {
    QFETCH(char, delimiter);
    const Strings header{"id", "note, \"quoted\"", "città"};
    const Rows rows{{"1", "a,b;c\td", "x"},
                    {"2", "she said \"no\"", "\"\""},
                    {"3", "two\nlines", "crlf\r\ninside"},
                    {"4", "  padded  ", "\ttabbed\t"},
                    {"5", "", "NA"},
                    {"6", "€ 𝄞 é", "-0.5"}};
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = dir.filePath("out.csv").toStdString();
    data::writeCsvAtomic(path, header, rows, delimiter);
    const data::CsvTable back = data::readCsv(path);
    QCOMPARE(back.delimiter, delimiter);
    QVERIFY(back.header == header);
    QVERIFY(back.rows == rows);
    const std::string bytes = dpsynth::test::readFile(path);
    QVERIFY(!bytes.starts_with("\xEF\xBB\xBF"));
    QVERIFY(bytes.ends_with("\"-0.5\"\n") || bytes.ends_with(std::string(1, delimiter) + "-0.5\n"));
  }

  void roundTripsAHeaderWithOtherDelimitersInside() {
    // A quoted column name holding ';' or a tab made the reader pick the wrong delimiter.
    for (const char delimiter : {',', ';', '\t'}) {
      // The first name holds each of the two other delimiters twice: unquoted, they would
      // outnumber the one real delimiter on the header line.
      std::string name = "a";
      for (const char other : {',', ';', '\t'}) {
        if (other != delimiter) name += std::string{other, 'b', other, 'c'};
      }
      const Strings header{name, "h"};
      const Rows rows{{"1;2", "3\t4"}, {"5,6", "7"}};
      const data::CsvTable back = data::parseCsv(data::formatCsv(header, rows, delimiter), "h.csv");
      QCOMPARE(back.delimiter, delimiter);
      QVERIFY(back.header == header);
      QVERIFY(back.rows == rows);
    }
  }

  void roundTripsRandomTables() {
    // Property: whatever table dpsynth writes (header names without surrounding blanks, as the
    // reader trims them), dpsynth reads back to the same table. Seeded, so a failure repeats.
    static const std::vector<std::string> kPieces{
        "a",  "Z",    "0",   "1.5", "-",    " ", "\t", ",",
        ";",  "\"",   "\r",  "\n",  "\r\n", "é", "€",  "\xF0\x9D\x84\x9E",
        "NA", "\"\"", "x y", "#",   "'",    "\\"};
    auto rng = dpsynth::core::random::makeRng(20260801);
    const auto pick = [&](std::uint64_t n) {
      return static_cast<std::size_t>(dpsynth::core::random::uniformIndex(rng, n));
    };
    const auto field = [&](std::size_t maxPieces) {
      std::string text;
      const std::size_t count = pick(maxPieces + 1);
      for (std::size_t k = 0; k < count; ++k) text += kPieces[pick(kPieces.size())];
      return text;
    };
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const char kDelimiters[] = {',', ';', '\t'};
    for (int t = 0; t < 400; ++t) {
      const char delimiter = kDelimiters[pick(3)];
      const std::size_t columns = 1 + pick(6);
      Strings header;
      while (header.size() < columns) {
        const std::string name(data::trimBlanks(field(4)));
        if (name.empty() || std::find(header.begin(), header.end(), name) != header.end()) {
          continue;
        }
        header.push_back(name);
      }
      Rows rows(pick(9));
      for (auto& row : rows) {
        for (std::size_t j = 0; j < columns; ++j) row.push_back(field(5));
      }
      const std::string text = data::formatCsv(header, rows, delimiter);
      data::CsvTable back;
      if (t % 10 == 0) {  // also through the file functions
        const std::string path = dir.filePath(QString("t%1.csv").arg(t)).toStdString();
        data::writeCsvAtomic(path, header, rows, delimiter);
        back = data::readCsv(path);
      } else {
        back = data::parseCsv(text, "random.csv");
      }
      const QByteArray shown = QByteArray::fromStdString(text).toPercentEncoding(" ,;\"");
      QVERIFY2(back.header == header, shown.constData());
      QVERIFY2(back.rows == rows, shown.constData());
      if (columns > 1) QVERIFY2(back.delimiter == delimiter, shown.constData());
    }
  }

  void roundTripsASingleColumnWithEmptyValues() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("one.csv").toStdString();
    data::writeCsvAtomic(path, {"value"}, {{"1"}, {""}, {"3"}});
    QVERIFY(data::readCsv(path).rows == (Rows{{"1"}, {""}, {"3"}}));
  }

  /// A write that fails is the user's environment (exit 2), with the path in the message.
  void aFailedWriteIsBadInputNamingThePath() {
    QTemporaryDir tmp;
    const std::string inFile = tmp.filePath("file").toStdString() + "/x.csv";
    std::ofstream(tmp.filePath("file").toStdString()) << "x";
    for (const auto& write :
         {&dpsynth::core::data::writeTextAtomic, &dpsynth::core::data::writeStagedText}) {
      try {
        write(inFile, "y\n1\n");
        QFAIL("a file inside a file");
      } catch (const dpsynth::core::data::WriteError& e) {
        QCOMPARE(e.path(), inFile);
        QVERIFY2(QString(e.what()).contains(QString::fromStdString(inFile)), e.what());
        QCOMPARE(dpsynth::core::classify(e), dpsynth::core::Error::Kind::badInput);
      }
    }
    // A staged file holds exactly its text, and a flush of its file system succeeds.
    const std::string staged = tmp.filePath("s.csv").toStdString();
    dpsynth::core::data::writeStagedText(staged, "y\n1\n");
    QCOMPARE(dpsynth::test::readFile(staged), std::string("y\n1\n"));
    dpsynth::core::data::syncFolder(tmp.path().toStdString());
  }

  void writesTextExactly() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("report.json").toStdString();
    const std::string text = "{\"a\": 1}\n\xC3\xA9";
    data::writeTextAtomic(path, text);
    QCOMPARE(QString::fromStdString(dpsynth::test::readFile(path)), QString::fromStdString(text));
    QVERIFY(listing(dir.path().toStdString()) == (Strings{"report.json"}));
  }

  void aWriteRemovesTheStaleTemporariesOfItsName() {
    // A write killed by SIGKILL leaves ".NAME.tmp-XXXXXX" in the user's folder, which nothing
    // removed. The next write of NAME there removes those no live writer holds that are older
    // than this process; a live one, other names and files of another shape stay.
    QTemporaryDir dir;
    const std::string folder = dir.path().toStdString();
    const auto make = [&](const std::string& name, bool old) {
      std::ofstream(folder + "/" + name) << "partial";
      if (old) {
        const struct timespec times[2] = {{std::time(nullptr) - 3600, 0},
                                          {std::time(nullptr) - 3600, 0}};
        QCOMPARE(::utimensat(AT_FDCWD, (folder + "/" + name).c_str(), times, 0), 0);
      }
    };
    make(".out.csv.tmp-Ab3xY9", true);    // killed: removed
    make(".out.csv.tmp-Qq1Zz0", true);    // a live writer's (locked below): kept
    make(".out.csv.tmp-Nw4Nw4", false);   // written since this process started: kept
    make(".out.csv.tmp-notes", true);     // not mkstemp's shape: kept
    make(".other.csv.tmp-Ab3xY9", true);  // another name's: left to its own next write
    const int live = ::open((folder + "/.out.csv.tmp-Qq1Zz0").c_str(), O_RDONLY);
    QVERIFY(live >= 0);
    QCOMPARE(::flock(live, LOCK_EX), 0);
    data::writeTextAtomic(folder + "/out.csv", "y\n1\n");
    ::close(live);
    QCOMPARE(listing(folder), (Strings{".other.csv.tmp-Ab3xY9", ".out.csv.tmp-Nw4Nw4",
                                       ".out.csv.tmp-Qq1Zz0", ".out.csv.tmp-notes", "out.csv"}));
  }

  void newFilesGetTheUsualPermissions() {
    const mode_t previous = ::umask(022);
    QTemporaryDir dir;
    const std::string path = dir.filePath("new.csv").toStdString();
    data::writeTextAtomic(path, "x\n");
    struct stat info {};
    QCOMPARE(::stat(path.c_str(), &info), 0);
    ::umask(previous);
    QCOMPARE(info.st_mode & 0777, static_cast<mode_t>(0644));
  }

  void replacesAnExistingFileKeepingItsPermissions() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("data.csv").toStdString();
    data::writeCsvAtomic(path, {"a"}, {{"old"}});
    QCOMPARE(::chmod(path.c_str(), 0640), 0);
    data::writeCsvAtomic(path, {"a"}, {{"new"}, {"rows"}});
    QCOMPARE(QString::fromStdString(dpsynth::test::readFile(path)), QString("a\nnew\nrows\n"));
    struct stat info {};
    QCOMPARE(::stat(path.c_str(), &info), 0);
    QCOMPARE(info.st_mode & 0777, static_cast<mode_t>(0640));
    QVERIFY(listing(dir.path().toStdString()) == (Strings{"data.csv"}));
  }

  void writesRelativePaths() {
    QTemporaryDir dir;
    const fs::path previous = fs::current_path();
    fs::current_path(dir.path().toStdString());
    data::writeTextAtomic("plain.txt", "ok");
    fs::current_path(previous);
    QCOMPARE(
        QString::fromStdString(dpsynth::test::readFile(dir.filePath("plain.txt").toStdString())),
        QString("ok"));
  }

  void failureInAMissingFolderLeavesNothing() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("no/such/folder/out.csv").toStdString();
    try {
      data::writeCsvAtomic(path, {"a"}, {{"1"}});
      QFAIL("expected std::runtime_error");
    } catch (const std::runtime_error& error) {
      const std::string message = error.what();
      QVERIFY2(message.find(path) != std::string::npos, error.what());
      QVERIFY2(message.find("No such file or directory") != std::string::npos, error.what());
    }
    QVERIFY(listing(dir.path().toStdString()).empty());
  }

  void failureWhenTheTargetIsAFolderRemovesTheTemporaryFile() {
    // The temporary file is written in full; only the final rename fails.
    QTemporaryDir dir;
    const std::string target = dir.filePath("taken").toStdString();
    fs::create_directory(target);
    std::ofstream(target + "/inside.txt") << "keep";
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, data::writeCsvAtomic(target, {"a"}, {{"1"}}));
    QVERIFY(listing(dir.path().toStdString()) == (Strings{"taken"}));
    QVERIFY(listing(target) == (Strings{"inside.txt"}));
    QVERIFY_THROWS_EXCEPTION(std::runtime_error,
                             data::writeTextAtomic(dir.path().toStdString() + "/", "x"));
  }

  void failureInAReadOnlyFolderLeavesTheOldFile() {
    if (::geteuid() == 0) QSKIP("running as root: folder permissions are not enforced");
    QTemporaryDir dir;
    const std::string path = dir.filePath("data.csv").toStdString();
    data::writeTextAtomic(path, "old\n");
    QCOMPARE(::chmod(dir.path().toStdString().c_str(), 0555), 0);
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, data::writeTextAtomic(path, "new\n"));
    ::chmod(dir.path().toStdString().c_str(), 0755);
    QCOMPARE(QString::fromStdString(dpsynth::test::readFile(path)), QString("old\n"));
    QVERIFY(listing(dir.path().toStdString()) == (Strings{"data.csv"}));
  }
};

QTEST_APPLESS_MAIN(CsvWriterTest)
#include "csv_writer_test.moc"
