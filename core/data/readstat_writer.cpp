#include "core/data/readstat_writer.h"

#include <readstat.h>

#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <unordered_map>
#include <utility>

#include "core/data/csv_writer.h"
#include "core/data/date_units.h"
#include "core/data/display_format.h"
#include "core/data/quote_value.h"
#include "core/data/value_parsing.h"

namespace dpsynth::core::data {
namespace {

/// 2000-01-01 00:00:00 UTC: every file carries this timestamp, not the time of writing, so a
/// seeded run writes the same bytes twice (and the file says nothing about when it was made).
constexpr time_t kFixedTimestamp = 946684800;

/// How one column goes into the file.
struct ColumnPlan {
  bool isString = false;
  bool cellsAreLabels = false;  ///< cells hold label text, written as the label's code
  bool attachLabels = false;    ///< the column's value labels go into the file
  std::size_t width = 1;        ///< bytes of the longest string
  std::unordered_map<std::string, double> codeOf;  ///< label text → code (cellsAreLabels)
  /// The labels attached (attachLabels): each code as written, converted as the cells are.
  std::vector<std::pair<double, std::string>> labels;
  /// A date or time column's numbers count `from` in the input and `to` in the file (none:
  /// written as they are).
  TimeUnit from = TimeUnit::none;
  TimeUnit to = TimeUnit::none;
  std::string format;  ///< the display format of a numeric column ("": the writer's default)
  readstat_variable_t* variable = nullptr;
};

using LabelCodes = std::vector<std::pair<double, std::string>>;

/// The labels with their codes as numbers, converted from `from` to `to` as the cells are;
/// nullopt when a code is no number.
std::optional<LabelCodes> numericCodes(const std::vector<ValueLabel>& labels, TimeUnit from,
                                       TimeUnit to) {
  LabelCodes out;
  for (const auto& v : labels) {
    const auto x = parseNumber(v.code);
    if (!x) return std::nullopt;
    out.emplace_back(convertTime(*x, from, to), v.label);
  }
  return out;
}

/// Stata's value labels are for integer values of at most 2^31 - 1 in magnitude.
bool allInt32(const LabelCodes& labels) {
  for (const auto& [code, label] : labels) {
    if (code != std::floor(code) || std::fabs(code) > std::numeric_limits<std::int32_t>::max())
      return false;
  }
  return true;
}

/// Whether `format` can attach these (numeric-coded) labels to a numeric column.
bool canAttach(StatFormat format, const std::optional<LabelCodes>& labels) {
  if (!labels || labels->empty()) return false;
  if (format == StatFormat::xpt) return false;  // transport files hold no value labels
  if (format == StatFormat::dta) return allInt32(*labels);
  return true;
}

/// A value of a date or time column as a display format sees it: seconds since 1960, to the
/// millisecond (a fraction left by converting between units is no fraction of a second).
double secondsToTheMillisecond(double value, TimeUnit unit) {
  return std::round(secondsSince1960(value, unit) * 1000) / 1000;
}

ColumnPlan planColumn(StatFormat format, const ColumnInfo* info, const CsvRows* rows,
                      std::size_t j) {
  ColumnPlan plan;
  if (info && info->isDateOrTime() && info->unit != TimeUnit::none && !info->labelsAreLevels) {
    plan.from = info->unit;
    plan.to = writtenTimeUnit(format, info->kind);
  }
  const bool dated = plan.from != TimeUnit::none;
  // The values a display format is fitted to: SPSS's numbers and every date or time.
  const bool sized = dated || format == StatFormat::sav;
  ValueSpan span;
  if (info && info->labelsAreLevels) {
    auto codes = numericCodes(info->valueLabels, TimeUnit::none, TimeUnit::none);
    if (canAttach(format, codes)) {
      plan.cellsAreLabels = plan.attachLabels = true;
      plan.labels = std::move(*codes);
      for (const auto& [code, label] : plan.labels) plan.codeOf.emplace(label, code);
    } else {
      plan.isString = true;  // the label text itself, where the format cannot attach labels
    }
  } else {
    for (std::size_t i = 0; rows && i < rows->size() && !plan.isString; ++i) {
      const std::string_view cell = (*rows)[i][j];
      if (isMissingValue(cell)) continue;
      const auto x = parseNumber(cell);
      if (!x) {
        plan.isString = true;
      } else if (sized) {
        span.add(dated ? secondsToTheMillisecond(*x, plan.from) : *x);
      }
    }
    if (!plan.isString && info) {
      auto codes = numericCodes(info->valueLabels, plan.from, plan.to);
      if (canAttach(format, codes)) {
        plan.attachLabels = true;
        plan.labels = std::move(*codes);
      }
    }
  }
  if (plan.isString) {
    plan.from = plan.to = TimeUnit::none;
    for (std::size_t i = 0; rows && i < rows->size(); ++i)
      plan.width = std::max(plan.width, (*rows)[i][j].size());
    return plan;
  }
  if (dated) {
    plan.format = dateTimeFormat(format, info->kind, span);
  } else if (format == StatFormat::sav) {
    for (const auto& [code, label] : plan.labels) span.add(code);
    plan.format = spssNumberFormat(span);
  } else if (format == StatFormat::dta) {
    plan.format = "%9.0g";
  }
  return plan;
}

ssize_t appendBytes(const void* data, size_t length, void* context) {
  try {
    static_cast<std::string*>(context)->append(static_cast<const char*>(data), length);
  } catch (...) {
    return -1;
  }
  return static_cast<ssize_t>(length);
}

[[noreturn]] void writeFailed(const std::string& path, StatFormat format, readstat_error_t status,
                              const std::string& column) {
  std::string reason = statFormatName(format) + " refuses ";
  reason += column.empty() ? std::string("the table") : "column " + quoteForMessage(column);
  reason += std::string(": ") + readstat_error_message(status);
  const bool name = status == READSTAT_ERROR_NAME_BEGINS_WITH_ILLEGAL_CHARACTER ||
                    status == READSTAT_ERROR_NAME_CONTAINS_ILLEGAL_CHARACTER ||
                    status == READSTAT_ERROR_NAME_IS_RESERVED_WORD ||
                    status == READSTAT_ERROR_NAME_IS_TOO_LONG ||
                    status == READSTAT_ERROR_NAME_IS_ZERO_LENGTH;
  reason += name ? "; rename the column, or write the synthetic data as CSV"
            : status == READSTAT_ERROR_STRING_VALUE_IS_TOO_LONG
                ? "; shorten the column's values, or write the synthetic data as CSV"
                : "; write the synthetic data as CSV";
  throw WriteError(path, reason);
}

/// Stata takes names of at most 32 characters (the .dta 118 format has room for 128 bytes, so
/// ReadStat lets longer ones through, and Stata and R's haven then refuse the file's names).
constexpr std::size_t kStataNameCharacters = 32;
/// The widest fixed string (str2045) a Stata file holds.
constexpr std::size_t kStataStringBytes = 2045;

std::size_t utf8Characters(const std::string& text) {
  std::size_t count = 0;
  for (const unsigned char c : text) count += (c & 0xC0) != 0x80;
  return count;
}

using WriterPtr = std::unique_ptr<readstat_writer_t, decltype(&readstat_writer_free)>;

/// A writer with every variable and label set declared and checked, writing into `out`.
WriterPtr declare(StatFormat format, const std::string& path,
                  const std::vector<std::string>& header, const std::vector<ColumnInfo>& infos,
                  std::vector<ColumnPlan>& plans, std::string& out, long rowCount) {
  WriterPtr writer(readstat_writer_init(), readstat_writer_free);
  if (!writer) throw std::bad_alloc();
  readstat_set_data_writer(writer.get(), appendBytes);
  readstat_writer_set_file_timestamp(writer.get(), kFixedTimestamp);
  if (format == StatFormat::dta) readstat_writer_set_file_format_version(writer.get(), 118);
  if (format == StatFormat::xpt) readstat_writer_set_file_format_version(writer.get(), 8);
  for (std::size_t j = 0; j < header.size(); ++j) {
    ColumnPlan& plan = plans[j];
    const ColumnInfo* info = j < infos.size() ? &infos[j] : nullptr;
    plan.variable =
        readstat_add_variable(writer.get(), header[j].c_str(),
                              plan.isString ? READSTAT_TYPE_STRING : READSTAT_TYPE_DOUBLE,
                              plan.isString ? plan.width : 0);
    if (!plan.variable) throw std::bad_alloc();
    if (info && !info->description.empty())
      readstat_variable_set_label(plan.variable, info->description.c_str());
    // SPSS shows a column's measurement level: categories as nominal, numbers as scale.
    if (format == StatFormat::sav)
      readstat_variable_set_measure(plan.variable, plan.cellsAreLabels || plan.isString
                                                       ? READSTAT_MEASURE_NOMINAL
                                                       : READSTAT_MEASURE_SCALE);
    if (format == StatFormat::dta && plan.isString)
      readstat_variable_set_format(plan.variable, ("%" + std::to_string(plan.width) + "s").c_str());
    if (!plan.format.empty()) readstat_variable_set_format(plan.variable, plan.format.c_str());
    // SPSS's Data View shows a value wider than its column as asterisks too.
    if (format == StatFormat::sav && !plan.isString)
      readstat_variable_set_display_width(plan.variable, std::max(8, formatWidth(plan.format)));
    if (plan.attachLabels) {
      const readstat_type_t type =
          format == StatFormat::dta ? READSTAT_TYPE_INT32 : READSTAT_TYPE_DOUBLE;
      readstat_label_set_t* set = readstat_add_label_set(writer.get(), type, header[j].c_str());
      if (!set) throw std::bad_alloc();
      for (const auto& [code, label] : plan.labels) {
        if (format == StatFormat::dta) {
          readstat_label_int32_value(set, static_cast<std::int32_t>(code), label.c_str());
        } else {
          readstat_label_double_value(set, code, label.c_str());
        }
      }
      readstat_variable_set_label_set(plan.variable, set);
    }
  }
  readstat_error_t status = READSTAT_OK;
  switch (format) {
    case StatFormat::sav:
      status = readstat_begin_writing_sav(writer.get(), &out, rowCount);
      break;
    case StatFormat::dta:
      status = readstat_begin_writing_dta(writer.get(), &out, rowCount);
      break;
    case StatFormat::xpt:
      status = readstat_begin_writing_xport(writer.get(), &out, rowCount);
      break;
    default:
      throw std::invalid_argument("dpsynth does not write " + statFormatName(format) + " files");
  }
  if (status != READSTAT_OK) writeFailed(path, format, status, "");
  for (std::size_t j = 0; j < header.size(); ++j) {
    if (format == StatFormat::dta && utf8Characters(header[j]) > kStataNameCharacters)
      writeFailed(path, format, READSTAT_ERROR_NAME_IS_TOO_LONG, header[j]);
    // Stata's str# holds at most 2045 bytes; ReadStat declares a wider one and refuses only the
    // value, while the rows are written (after all the sampling).
    if (format == StatFormat::dta && plans[j].isString && plans[j].width > kStataStringBytes)
      writeFailed(path, format, READSTAT_ERROR_STRING_VALUE_IS_TOO_LONG, header[j]);
    status = readstat_validate_variable(writer.get(), plans[j].variable);
    if (status != READSTAT_OK) writeFailed(path, format, status, header[j]);
  }
  status = readstat_validate_metadata(writer.get());
  if (status != READSTAT_OK) writeFailed(path, format, status, "");
  return writer;
}

}  // namespace

void checkStatColumns(StatFormat format, const std::string& path,
                      const std::vector<std::string>& header, const std::vector<ColumnInfo>& infos,
                      const CsvRows* rows) {
  std::vector<ColumnPlan> plans;
  for (std::size_t j = 0; j < header.size(); ++j)
    plans.push_back(planColumn(format, j < infos.size() ? &infos[j] : nullptr, rows, j));
  std::string out;
  declare(format, path, header, infos, plans, out, 0);
}

std::optional<std::string> formatStatFile(StatFormat format, const std::string& path,
                                          const std::vector<std::string>& header,
                                          const std::vector<ColumnInfo>& infos, const CsvRows& rows,
                                          const std::stop_token& stop) {
  if (!isWritableStatFormat(format))
    throw std::invalid_argument("dpsynth does not write " + statFormatName(format) + " files");
  if (rows.size() > 0 && rows.columns() != header.size())
    throw std::invalid_argument("formatStatFile: rows and header differ in width");
  if (rows.size() > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    throw std::invalid_argument("formatStatFile: too many rows for a statistical file");
  std::vector<ColumnPlan> plans;
  for (std::size_t j = 0; j < header.size(); ++j)
    plans.push_back(planColumn(format, j < infos.size() ? &infos[j] : nullptr, &rows, j));
  // A SAS transport file pads its last 80-byte record with blanks: a last record of blank
  // text only cannot be told from padding and would be lost (a synthetic file always ends in a
  // number, its outcome).
  if (format == StatFormat::xpt && rows.size() > 0) {
    bool blank = true;
    for (std::size_t j = 0; j < header.size() && blank; ++j)
      blank = plans[j].isString && trimBlanks(rows[rows.size() - 1][j]).empty();
    if (blank)
      throw WriteError(path,
                       "SAS .xpt cannot hold a last record of blank text only (it would "
                       "read as padding); write it as .sav, .dta or CSV");
  }
  std::string out;
  WriterPtr writer =
      declare(format, path, header, infos, plans, out, static_cast<long>(rows.size()));
  std::string text;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if ((i & 0x3FFF) == 0 && stop.stop_requested()) return std::nullopt;
    readstat_error_t status = readstat_begin_row(writer.get());
    for (std::size_t j = 0; j < header.size() && status == READSTAT_OK; ++j) {
      const ColumnPlan& plan = plans[j];
      const std::string_view cell = rows[i][j];
      if (plan.isString) {
        text.assign(cell);
        status = readstat_insert_string_value(writer.get(), plan.variable, text.c_str());
      } else if (isMissingValue(cell)) {
        status = readstat_insert_missing_value(writer.get(), plan.variable);
      } else if (plan.cellsAreLabels) {
        const auto code = plan.codeOf.find(std::string(trimBlanks(cell)));
        if (code == plan.codeOf.end())
          throw std::invalid_argument("formatStatFile: a cell of column " + header[j] +
                                      " is none of its labels");
        status = readstat_insert_double_value(writer.get(), plan.variable, code->second);
      } else {
        const double value = convertTime(*parseNumber(cell), plan.from, plan.to);
        status = readstat_insert_double_value(writer.get(), plan.variable, value);
      }
      if (status != READSTAT_OK) writeFailed(path, format, status, header[j]);
    }
    if (status == READSTAT_OK) status = readstat_end_row(writer.get());
    if (status != READSTAT_OK) writeFailed(path, format, status, "");
  }
  const readstat_error_t status = readstat_end_writing(writer.get());
  if (status != READSTAT_OK) writeFailed(path, format, status, "");
  return out;
}

}  // namespace dpsynth::core::data
