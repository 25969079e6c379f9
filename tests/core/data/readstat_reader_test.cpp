// SPSS, Stata and SAS files read into the CSV path's table: the labelled survey of
// tests/data/formats/ (see its README.md) in every format, and damaged copies of it.
#include "core/data/readstat_reader.h"

#include <QtTest>
#include <atomic>
#include <fstream>
#include <sstream>
#include <stop_token>
#include <string>
#include <vector>

#include "core/data/data_file.h"
#include "core/data/dataset.h"
#include "core/data/readstat_writer.h"
#include "core/data/value_parsing.h"
#include "expect_data_error.h"

using dpsynth::core::data::buildDataset;
using dpsynth::core::data::ColumnInfo;
using dpsynth::core::data::CsvTable;
using dpsynth::core::data::DatasetSpec;
using dpsynth::core::data::isMissingValue;
using dpsynth::core::data::parseDataFile;
using dpsynth::core::data::ReadControl;
using dpsynth::core::data::readDataFile;
using dpsynth::core::data::ValueKind;
using dpsynth::core::models::Family;

namespace {

std::string surveyPath(const std::string& extension) {
  return std::string(DPSYNTH_SOURCE_DIR) + "/tests/data/formats/survey." + extension;
}

std::string surveyBytes(const std::string& extension) {
  std::ifstream in(surveyPath(extension), std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

/// The column's index, case ignored (SPSS portable files spell names in capitals).
std::size_t columnOf(const CsvTable& t, const std::string& name) {
  for (std::size_t j = 0; j < t.header.size(); ++j) {
    if (QString::fromStdString(t.header[j])
            .compare(QString::fromStdString(name), Qt::CaseInsensitive) == 0)
      return j;
  }
  return t.header.size();
}

std::vector<std::string> levelsOf(const ColumnInfo& info) {
  std::vector<std::string> out;
  for (const auto& v : info.valueLabels) out.push_back(v.label);
  return out;
}

std::size_t missingIn(const CsvTable& t, std::size_t column) {
  std::size_t count = 0;
  for (const auto& row : t.rows) count += isMissingValue(row[column]) ? 1 : 0;
  return count;
}

}  // namespace

class ReadstatReaderTest : public QObject {
  Q_OBJECT
 private slots:
  void readsEveryFormat_data() {
    QTest::addColumn<QString>("extension");
    QTest::addColumn<bool>("labelled");  ///< SAS files keep value labels in a separate catalog
    for (const char* e : {"sav", "zsav", "por", "dta"}) QTest::newRow(e) << QString(e) << true;
    for (const char* e : {"sas7bdat", "xpt"}) QTest::newRow(e) << QString(e) << false;
  }
  void readsEveryFormat() {
    QFETCH(QString, extension);
    QFETCH(bool, labelled);
    const CsvTable t = readDataFile(surveyPath(extension.toStdString()));
    QCOMPARE(t.header.size(), std::size_t{6});
    QCOMPARE(t.rows.size(), std::size_t{40});
    QCOMPARE(t.columns.size(), std::size_t{6});
    QCOMPARE(t.lineOfRow.front(), std::size_t{1});  // case numbers
    QCOMPARE(t.lineOfRow.back(), std::size_t{40});
    const std::size_t visits = columnOf(t, "visits"), health = columnOf(t, "health"),
                      sex = columnOf(t, "sex"), region = columnOf(t, "region"),
                      income = columnOf(t, "income"), seen = columnOf(t, "seen");
    QVERIFY(seen < t.header.size());

    // Variable labels become descriptions.
    QCOMPARE(QString::fromStdString(t.columns[visits].description),
             QString("Doctor visits in the last year"));
    QCOMPARE(QString::fromStdString(t.columns[health].description), QString("Self-rated health"));
    // Record 12 is a user-defined (SPSS 99) or tagged (.a) missing value, record 18 system
    // missing: both are missing, nothing else is.
    QCOMPARE(missingIn(t, visits), std::size_t{2});
    QVERIFY(isMissingValue(t.rows[11][visits]));
    QVERIFY(isMissingValue(t.rows[17][visits]));
    for (const auto& row : t.rows) {
      const std::string r(row[region]);
      QVERIFY2(r == "north" || r == "south" || r == "east", r.c_str());
    }
    QCOMPARE(t.columns[region].kind, ValueKind::text);
    // Dates are recognised from the display format.
    QCOMPARE(t.columns[seen].kind, ValueKind::date);
    QCOMPARE(t.columns[visits].kind, ValueKind::number);

    if (labelled) {
      // Value labels in label order are the levels; the missing code's label is not one.
      QVERIFY(t.columns[health].labelsAreLevels);
      // Stata has no user-defined missing codes: its 9 "don't know" stays a label (no record
      // holds 9 there; the record is .a).
      QCOMPARE(levelsOf(t.columns[health]),
               extension == "dta"
                   ? (std::vector<std::string>{"poor", "average", "excellent", "don't know"})
                   : (std::vector<std::string>{"poor", "average", "excellent"}));
      QCOMPARE(std::string(t.rows[0][health]), std::string("excellent"));
      QCOMPARE(missingIn(t, health), std::size_t{1});  // 9 "don't know" / .a
      QVERIFY(isMissingValue(t.rows[5][health]));
      QVERIFY(t.columns[sex].labelsAreLevels);
      // One labelled value among numbers: the labels are kept, the codes stay.
      QVERIFY(!t.columns[income].labelsAreLevels);
      QCOMPARE(levelsOf(t.columns[income]), (std::vector<std::string>{"no income"}));
      QCOMPARE(std::string(t.rows[0][income]), std::string("0"));
    } else {
      QVERIFY(t.columns[health].valueLabels.empty());
      QCOMPARE(std::string(t.rows[0][health]), std::string("3"));
    }
  }

  /// The levels of a labelled covariate follow label order: "poor" is the reference although
  /// the first record is "excellent" and "average" sorts first.
  void labelledCovariateLevelsInLabelOrder() {
    for (const char* e : {"sav", "dta", "por", "zsav"}) {
      const CsvTable t = readDataFile(surveyPath(e));
      DatasetSpec spec;
      spec.outcome = t.header[columnOf(t, "visits")];
      spec.covariates = {t.header[columnOf(t, "health")], t.header[columnOf(t, "sex")]};
      spec.family = Family::poisson;
      spec.dropMissing = true;
      const auto d = buildDataset(t, spec);
      const std::string h = t.header[columnOf(t, "health")], s = t.header[columnOf(t, "sex")];
      QCOMPARE(d.designNames, (std::vector<std::string>{"(Intercept)", h + "=average",
                                                        h + "=excellent", s + "=female"}));
      QCOMPARE(d.size(), std::size_t{37});  // 40 less visits missing twice, health once
      QCOMPARE(d.droppedRows, std::size_t{3});
    }
  }

  void dateOutcomeRefused() {
    const CsvTable t = readDataFile(surveyPath("sav"));
    DatasetSpec spec;
    spec.outcome = "seen";
    DPSYNTH_EXPECT_DATA_ERROR(buildDataset(t, spec), 0, "seen", "holds dates");
    DPSYNTH_EXPECT_DATA_ERROR(buildDataset(t, spec), 0, "seen", "DATE11");
  }

  void missingValueNamesCaseNumber() {
    const CsvTable t = readDataFile(surveyPath("dta"));
    DatasetSpec spec;
    spec.outcome = "visits";
    spec.family = Family::poisson;
    DPSYNTH_EXPECT_DATA_ERROR(buildDataset(t, spec), 12, "visits", "survey.dta:12:");
  }

  /// A damaged or truncated file is one DataError naming the file, never a crash.
  void damagedFiles_data() {
    QTest::addColumn<QString>("extension");
    for (const char* e : {"sav", "zsav", "por", "dta", "sas7bdat", "xpt"})
      QTest::newRow(e) << QString(e);
  }
  void damagedFiles() {
    QFETCH(QString, extension);
    const std::string ext = extension.toStdString();
    const std::string bytes = surveyBytes(ext);
    QVERIFY(bytes.size() > 1000);
    const std::string name = "broken." + ext;
    const auto refused = [&](const std::string& b) {
      try {
        parseDataFile(b, name);
        return false;
      } catch (const dpsynth::core::data::DataError& e) {
        const std::string m = e.what();
        return m.find(name) != std::string::npos && m.find('\n') == std::string::npos;
      }
    };
    // Truncated in the header, and in the middle of a record (a SAS transport file cut at a
    // record boundary is complete as far as anyone can tell: it has no record count).
    for (std::size_t keep :
         {std::size_t{0}, std::size_t{4}, std::size_t{100}, bytes.size() / 2 + 13}) {
      QVERIFY2(refused(bytes.substr(0, keep)), qPrintable(QString::number(keep)));
    }
    // A CSV named as a statistical file.
    QVERIFY(refused("visits,health\n1,2\n"));
    // Every truncation and single-byte damage reads or is refused: none may crash (run under
    // the sanitizers in CI). Which of them still parse depends on the format.
    for (std::size_t keep = 0; keep < bytes.size(); keep += 1) {
      try {
        const CsvTable cut = parseDataFile(bytes.substr(0, keep), name);
        // What survives a cut is complete: all records, all labels (a .por file's end is
        // padding). Except a SAS transport file cut between two of its 80-byte records: the
        // format has no record count, so nothing can tell.
        if (ext == "xpt") {
          QCOMPARE(keep % 80, std::size_t{0});
        } else {
          QCOMPARE(cut.rows.size(), std::size_t{40});
          QCOMPARE(extension, QString("por"));
        }
      } catch (const dpsynth::core::data::DataError&) {
      }
    }
    for (std::size_t at = 0; at < bytes.size(); at += 3) {
      std::string damaged = bytes;
      damaged[at] = static_cast<char>(damaged[at] ^ 0xA5);
      try {
        parseDataFile(damaged, name);
      } catch (const dpsynth::core::data::DataError&) {
      }
    }
  }

  /// A Stata 13 file names no encoding and holds Windows-1252 text: read as such, into UTF-8
  /// (kept as raw bytes, it would make synthetic files no reader takes back; the fuzzer found
  /// one).
  void latinTextOfOldFilesBecomesUtf8() {
    const CsvTable t =
        readDataFile(std::string(DPSYNTH_SOURCE_DIR) + "/tests/data/formats/latin1_stata13.dta");
    QCOMPARE(std::string(t.rows[0][1]), std::string("Jos\xC3\xA9"));
    QCOMPARE(std::string(t.rows[2][1]), std::string("Ren\xC3\xA9"
                                                    "e"));
    QVERIFY(t.columns[2].labelsAreLevels);
    QCOMPARE(std::string(t.rows[0][2]), std::string("Caf\xC3\xA9"));
  }

  /// A file that names no encoding (SAS transport) is read string by string: one Windows-1252
  /// byte in a column that never leaves must not re-encode the UTF-8 text of the others (the
  /// whole file was read again as Windows-1252, turning "Orléans" into "OrlÃ©ans").
  void oneStringsEncodingDecidesOnlyItself() {
    const auto read = [](const std::string& note) {
      dpsynth::core::data::CsvRows rows(3);
      rows.push_back({"1",
                      "Orl\xC3\xA9"
                      "ans",
                      "cafe"});
      rows.push_back({"2", "Paris", note});
      const auto bytes = dpsynth::core::data::formatStatFile(
          dpsynth::core::data::StatFormat::xpt, "w.xpt", {"y", "region", "note"}, {}, rows);
      return dpsynth::core::data::parseDataFile(*bytes, "w.xpt");
    };
    const CsvTable utf8 = read("cafe");
    const CsvTable latin = read("caf\xE9");
    QCOMPARE(std::string(latin.rows[0][1]), std::string("Orl\xC3\xA9"
                                                        "ans"));
    QCOMPARE(std::string(latin.rows[0][1]), std::string(utf8.rows[0][1]));
    QCOMPARE(std::string(latin.rows[1][2]), std::string("caf\xC3\xA9"));  // its own bytes: 1252
  }

  /// Text no encoding explains is one DataError naming the file.
  void invalidTextRefused() {
    dpsynth::core::data::CsvRows rows(2);
    rows.push_back({"1", "ok"});
    rows.push_back({"2", "ca\x81\xFF\xFEt"});
    const auto bytes = dpsynth::core::data::formatStatFile(dpsynth::core::data::StatFormat::sav,
                                                           "w.sav", {"y", "name"}, {}, rows);
    QVERIFY(bytes);
    const auto caught = dpsynth::test::catchDataError([&] { parseDataFile(*bytes, "w.sav"); });
    QVERIFY(caught);
    QVERIFY2(std::string(caught->what()).starts_with("w.sav"), caught->what());
  }

  void stopRequestedReturnsNothing() {
    std::stop_source source;
    source.request_stop();
    ReadControl control;
    control.stop = source.get_token();
    const std::string bytes = surveyBytes("sav");
    QVERIFY(!parseDataFile(bytes, "s.sav", control).has_value());
  }

  void progressReachesTheEnd() {
    ReadControl control;
    std::uint64_t last = 0, total = 0;
    control.progress = [&](const dpsynth::core::data::ReadProgress& p) {
      QVERIFY(p.bytesParsed >= last);
      last = p.bytesParsed;
      total = p.bytesTotal;
    };
    const std::string bytes = surveyBytes("dta");
    QVERIFY(parseDataFile(bytes, "s.dta", control).has_value());
    QCOMPARE(last, static_cast<std::uint64_t>(bytes.size()));
    QCOMPARE(total, static_cast<std::uint64_t>(bytes.size()));
  }
};

QTEST_APPLESS_MAIN(ReadstatReaderTest)
#include "readstat_reader_test.moc"
