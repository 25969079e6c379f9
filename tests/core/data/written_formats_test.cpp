// Dates, datetimes, times and wide numbers written as SPSS, Stata and SAS transport files from
// each program's files: read back with dpsynth's reader and queried with ReadStat itself, each
// keeps its value (counted as the output's program counts it) and gets a display format that
// shows it: a date format for a date, an F format wide enough for the number.
#include <readstat.h>

#include <QTemporaryDir>
#include <QtTest>
#include <array>
#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include "core/data/data_file.h"
#include "core/data/readstat_writer.h"
#include "core/data/value_parsing.h"

using dpsynth::core::data::ColumnInfo;
using dpsynth::core::data::CsvTable;
using dpsynth::core::data::formatStatFile;
using dpsynth::core::data::parseDataFile;
using dpsynth::core::data::parseNumber;
using dpsynth::core::data::StatFormat;
using dpsynth::core::data::TimeUnit;
using dpsynth::core::data::ValueKind;

namespace {

/// One program's way of counting, worked out by hand (date_units_test.cpp shows the sums):
/// 2024-05-01 is day 23497 after 1960-01-01, which is day 137775 after SPSS's 1582-10-14;
/// 13:45:00 is 49,500 seconds after midnight.
struct WrittenClock {
  StatFormat format;
  const char* extension;
  const char* date;      ///< its date format
  const char* datetime;  ///< its datetime format
  const char* time;      ///< its time format (Stata's shows a %tc clock only)
  double may1;           ///< 2024-05-01
  double may1At1345;     ///< 2024-05-01 13:45:00
  double at1345;         ///< 13:45:00
  double epoch1960;      ///< 1960-01-01 00:00:00, as a date and as a datetime
};

const std::array<WrittenClock, 3> kWrittenClocks{{
    {StatFormat::sav, "sav", "DATE11", "DATETIME20", "TIME8", 13933900800.0, 13933950300.0, 49500.0,
     11903760000.0},
    {StatFormat::dta, "dta", "%td", "%tc", "%tcHH:MM:SS", 23497.0, 2030190300000.0, 49500000.0,
     0.0},
    {StatFormat::xpt, "xpt", "DATE9", "DATETIME20", "TIME8", 23497.0, 2030190300.0, 49500.0, 0.0},
}};

const WrittenClock& writtenClockOf(StatFormat format) {
  for (const auto& c : kWrittenClocks)
    if (c.format == format) return c;
  throw std::logic_error("no clock for this format");
}

constexpr double kWrittenMissing = NAN;

/// The table's columns: a date, a datetime, a time, and two numbers wider than F8.2 shows.
const std::array<const char*, 5> kWrittenNames{"visit", "stamp", "clock", "income", "count"};

/// Its three records, in the clock's counts (NaN: missing).
std::array<std::array<double, 5>, 3> writtenRecords(const WrittenClock& c) {
  return {{{c.may1, c.may1At1345, c.at1345, 1234567.25, 100000},
           {c.epoch1960, kWrittenMissing, 0, -20.5, 7},
           {kWrittenMissing, c.epoch1960, kWrittenMissing, kWrittenMissing, 0}}};
}

ssize_t appendWritten(const void* data, size_t length, void* context) {
  static_cast<std::string*>(context)->append(static_cast<const char*>(data), length);
  return static_cast<ssize_t>(length);
}

/// The table as the program of `c` writes it (through ReadStat's writer, as make_fixtures.cpp
/// does), with a value label on the date 1960-01-01 where the format holds labels.
std::string writtenInput(const WrittenClock& c) {
  readstat_writer_t* w = readstat_writer_init();
  std::string out;
  readstat_set_data_writer(w, appendWritten);
  if (c.format == StatFormat::dta) readstat_writer_set_file_format_version(w, 118);
  if (c.format == StatFormat::xpt) readstat_writer_set_file_format_version(w, 8);
  std::vector<readstat_variable_t*> vars;
  for (const char* name : kWrittenNames)
    vars.push_back(readstat_add_variable(w, name, READSTAT_TYPE_DOUBLE, 0));
  readstat_variable_set_format(vars[0], c.date);
  readstat_variable_set_format(vars[1], c.datetime);
  readstat_variable_set_format(vars[2], c.time);
  if (c.format != StatFormat::xpt) {
    const bool stata = c.format == StatFormat::dta;
    readstat_label_set_t* set =
        readstat_add_label_set(w, stata ? READSTAT_TYPE_INT32 : READSTAT_TYPE_DOUBLE, "visit");
    if (stata) {
      readstat_label_int32_value(set, static_cast<int>(c.epoch1960), "start of the count");
    } else {
      readstat_label_double_value(set, c.epoch1960, "start of the count");
    }
    readstat_variable_set_label_set(vars[0], set);
  }
  const auto records = writtenRecords(c);
  readstat_error_t e = c.format == StatFormat::sav   ? readstat_begin_writing_sav(w, &out, 3)
                       : c.format == StatFormat::dta ? readstat_begin_writing_dta(w, &out, 3)
                                                     : readstat_begin_writing_xport(w, &out, 3);
  for (const auto& record : records) {
    if (e == READSTAT_OK) e = readstat_begin_row(w);
    for (std::size_t j = 0; j < vars.size() && e == READSTAT_OK; ++j)
      e = std::isnan(record[j]) ? readstat_insert_missing_value(w, vars[j])
                                : readstat_insert_double_value(w, vars[j], record[j]);
    if (e == READSTAT_OK) e = readstat_end_row(w);
  }
  if (e == READSTAT_OK) e = readstat_end_writing(w);
  readstat_writer_free(w);
  if (e != READSTAT_OK) throw std::runtime_error(readstat_error_message(e));
  return out;
}

int collectWrittenFormat(int, readstat_variable_t* variable, const char*, void* context) {
  const char* format = readstat_variable_get_format(variable);
  static_cast<std::vector<std::string>*>(context)->push_back(format ? format : "");
  return READSTAT_HANDLER_OK;
}

/// The display formats ReadStat reads from the bytes of a file, with no dpsynth code between.
std::vector<std::string> readstatFormats(const std::string& bytes, const WrittenClock& c) {
  QTemporaryDir dir;
  const std::string path = dir.filePath(QString("f.") + c.extension).toStdString();
  std::ofstream(path, std::ios::binary) << bytes;
  std::vector<std::string> formats;
  readstat_parser_t* parser = readstat_parser_init();
  readstat_set_variable_handler(parser, collectWrittenFormat);
  const readstat_error_t e =
      c.format == StatFormat::sav   ? readstat_parse_sav(parser, path.c_str(), &formats)
      : c.format == StatFormat::dta ? readstat_parse_dta(parser, path.c_str(), &formats)
                                    : readstat_parse_xport(parser, path.c_str(), &formats);
  readstat_parser_free(parser);
  if (e != READSTAT_OK) throw std::runtime_error(readstat_error_message(e));
  return formats;
}

/// The cell as a number (NaN when empty, i.e. missing).
double writtenCell(const CsvTable& t, std::size_t i, std::size_t j) {
  const std::string_view cell = t.rows[i][j];
  return cell.empty() ? kWrittenMissing : parseNumber(cell).value_or(-1e300);
}

bool sameWrittenValue(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

}  // namespace

class WrittenFormatsTest : public QObject {
  Q_OBJECT
 private slots:
  void datesAndNumbersKeepTheirMeaning_data() {
    QTest::addColumn<int>("from");
    QTest::addColumn<int>("to");
    for (const auto& in : kWrittenClocks) {
      for (const auto& out : kWrittenClocks) {
        QTest::newRow((std::string(in.extension) + " to " + out.extension).c_str())
            << static_cast<int>(in.format) << static_cast<int>(out.format);
      }
    }
  }
  void datesAndNumbersKeepTheirMeaning() {
    QFETCH(int, from);
    QFETCH(int, to);
    const WrittenClock& in = writtenClockOf(static_cast<StatFormat>(from));
    const WrittenClock& out = writtenClockOf(static_cast<StatFormat>(to));
    const CsvTable table = parseDataFile(writtenInput(in), std::string("in.") + in.extension);
    QCOMPARE(table.columns[0].kind, ValueKind::date);
    QCOMPARE(table.columns[1].kind, ValueKind::datetime);
    QCOMPARE(table.columns[2].kind, ValueKind::time);

    const std::string path = std::string("out.") + out.extension;
    const auto bytes = formatStatFile(out.format, path, table.header, table.columns, table.rows);
    QVERIFY(bytes);
    const CsvTable back = parseDataFile(*bytes, path);
    QCOMPARE(back.header, table.header);
    const auto expected = writtenRecords(out);
    for (std::size_t i = 0; i < expected.size(); ++i) {
      for (std::size_t j = 0; j < kWrittenNames.size(); ++j) {
        QVERIFY2(sameWrittenValue(writtenCell(back, i, j), expected[i][j]),
                 qPrintable(QString("record %1, %2: %3, expected %4")
                                .arg(i + 1)
                                .arg(kWrittenNames[j])
                                .arg(QString::fromUtf8(back.rows[i][j]))
                                .arg(expected[i][j], 0, 'f', 3)));
      }
    }
    QCOMPARE(back.columns[0].kind, ValueKind::date);
    QCOMPARE(back.columns[1].kind, ValueKind::datetime);
    QCOMPARE(back.columns[2].kind, ValueKind::time);

    // The formats as ReadStat reads them: the output program's own, and for SPSS numbers an F
    // format that shows 1234567.25 and 100000 (F8.2 showed both as asterisks).
    const std::vector<std::string> formats = readstatFormats(*bytes, out);
    const std::vector<std::string> wanted =
        out.format == StatFormat::sav
            ? std::vector<std::string>{"DATE11", "DATETIME20", "TIME8", "F10.2", "F6.0"}
        : out.format == StatFormat::dta
            ? std::vector<std::string>{"%td", "%tc", "%tcHH:MM:SS", "%9.0g", "%9.0g"}
            : std::vector<std::string>{"DATE9", "DATETIME20", "TIME8", "", ""};
    QCOMPARE(formats, wanted);
    for (std::size_t j = 0; j < wanted.size(); ++j) QCOMPARE(back.columns[j].format, wanted[j]);

    // The date's value label is on the same date, counted as the output counts it.
    if (in.format != StatFormat::xpt && out.format != StatFormat::xpt) {
      QCOMPARE(back.columns[0].valueLabels.size(), std::size_t{1});
      QCOMPARE(parseNumber(back.columns[0].valueLabels[0].code).value_or(-1), out.epoch1960);
      QCOMPARE(back.columns[0].valueLabels[0].label, std::string("start of the count"));
    }
  }

  /// A fraction of a second gets decimals in the format; Stata's months are their first day.
  void fractionsAndStataMonths() {
    // 2024m5 (month 64 * 12 + 4 = 772) and 2024-05-01 13:45:00.5 as a Stata file holds them.
    const CsvTable table = parseDataFile("visit,stamp\n772,2030190300500\n", "e.csv");
    std::vector<ColumnInfo> infos(2);
    infos[0].kind = ValueKind::date;
    infos[0].format = "%tm";
    infos[0].unit = TimeUnit::stataMonths;
    infos[1].kind = ValueKind::datetime;
    infos[1].format = "%tc";
    infos[1].unit = TimeUnit::milliseconds;
    const auto sav = formatStatFile(StatFormat::sav, "f.sav", table.header, infos, table.rows);
    const CsvTable savBack = parseDataFile(*sav, "f.sav");
    QCOMPARE(writtenCell(savBack, 0, 0), 13933900800.0);
    QCOMPARE(writtenCell(savBack, 0, 1), 13933950300.5);
    QCOMPARE(readstatFormats(*sav, writtenClockOf(StatFormat::sav)),
             (std::vector<std::string>{"DATE11", "DATETIME22.1"}));
    const auto xpt = formatStatFile(StatFormat::xpt, "f.xpt", table.header, infos, table.rows);
    const CsvTable xptBack = parseDataFile(*xpt, "f.xpt");
    QCOMPARE(writtenCell(xptBack, 0, 0), 23497.0);
    QCOMPARE(writtenCell(xptBack, 0, 1), 2030190300.5);
    QCOMPARE(readstatFormats(*xpt, writtenClockOf(StatFormat::xpt)),
             (std::vector<std::string>{"DATE9", "DATETIME20.1"}));
    const auto dta = formatStatFile(StatFormat::dta, "f.dta", table.header, infos, table.rows);
    const CsvTable dtaBack = parseDataFile(*dta, "f.dta");
    QCOMPARE(writtenCell(dtaBack, 0, 0), 23497.0);
    QCOMPARE(writtenCell(dtaBack, 0, 1), 2030190300500.0);
    QCOMPARE(dtaBack.columns[1].kind, ValueKind::datetime);
    QCOMPARE(readstatFormats(*dta, writtenClockOf(StatFormat::dta)),
             (std::vector<std::string>{"%td", "%tcDDmonCCYY_HH:MM:SS.sss"}));
  }

  /// A CSV's columns are never dates: their numbers are written as they are.
  void csvNumbersStayNumbers() {
    const CsvTable table = parseDataFile("d\n13933900800\n23497\n", "d.csv");
    for (const auto& c : kWrittenClocks) {
      const std::string path = std::string("c.") + c.extension;
      const auto bytes = formatStatFile(c.format, path, table.header, table.columns, table.rows);
      const CsvTable back = parseDataFile(*bytes, path);
      QVERIFY(back.rows == table.rows);
      QCOMPARE(back.columns[0].kind, ValueKind::number);
    }
  }
};

QTEST_APPLESS_MAIN(WrittenFormatsTest)
#include "written_formats_test.moc"
