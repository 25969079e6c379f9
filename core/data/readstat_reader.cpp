#include "core/data/readstat_reader.h"

#include <readstat.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <exception>
#include <memory>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "core/data/csv_writer.h"
#include "core/data/data_error.h"
#include "core/data/date_units.h"
#include "core/data/utf8.h"
#include "core/data/value_parsing.h"

namespace dpsynth::core::data {
namespace {

/// The file's bytes as ReadStat's I/O: ReadStat reads through these handlers instead of opening
/// the path again, so it parses exactly the bytes whose size was checked, and a seek or read
/// past the end of a truncated file fails instead of reading beyond it.
struct MemoryFile {
  std::string_view bytes;
  std::size_t position = 0;
};

int memoryOpen(const char* /*path*/, void* /*io*/) { return 0; }
int memoryClose(void* /*io*/) { return 0; }

readstat_off_t memorySeek(readstat_off_t offset, readstat_io_flags_t whence, void* io) {
  auto* f = static_cast<MemoryFile*>(io);
  const auto size = static_cast<readstat_off_t>(f->bytes.size());
  readstat_off_t base = 0;
  if (whence == READSTAT_SEEK_CUR) base = static_cast<readstat_off_t>(f->position);
  if (whence == READSTAT_SEEK_END) base = size;
  // Offsets come from the file: a damaged one must not overflow the sum.
  if (offset > size || offset < -size) return -1;
  const readstat_off_t target = base + offset;
  if (target < 0 || target > size) return -1;
  f->position = static_cast<std::size_t>(target);
  return target;
}

ssize_t memoryRead(void* buffer, size_t bytes, void* io) {
  auto* f = static_cast<MemoryFile*>(io);
  const std::size_t n = std::min(bytes, f->bytes.size() - f->position);
  if (n > 0) std::memcpy(buffer, f->bytes.data() + f->position, n);
  f->position += n;
  return static_cast<ssize_t>(n);
}

readstat_error_t memoryUpdate(long fileSize, readstat_progress_handler progress, void* user,
                              void* io) {
  if (!progress || fileSize <= 0) return READSTAT_OK;
  const auto* f = static_cast<MemoryFile*>(io);
  const double fraction = static_cast<double>(f->position) / static_cast<double>(fileSize);
  return progress(fraction, user) == READSTAT_HANDLER_OK ? READSTAT_OK : READSTAT_ERROR_USER_ABORT;
}

/// One variable as it is read: its values by case, then typed into cells at the end (Stata
/// files hold their value labels after the data, so labels can only be applied then).
struct StatColumn {
  std::string name;
  bool isString = false;
  std::string labelSet;  ///< name of its value-label set ("" when none)
  ColumnInfo info;
  std::vector<double> numbers;       ///< NaN where missing
  std::vector<std::string> strings;  ///< for a string variable; missing is ""
  /// SPSS's user-defined missing values of a numeric variable, as closed ranges (a single code
  /// is lo == hi): kept to leave their labels out of the levels.
  std::vector<std::pair<double, double>> missingRanges;
  std::vector<std::string> missingStrings;

  std::size_t size() const { return isString ? strings.size() : numbers.size(); }
  bool isMissingCode(double code) const {
    for (const auto& [lo, hi] : missingRanges)
      if (code >= lo && code <= hi) return true;
    return false;
  }
};

struct StatLabel {
  bool isString = false;
  double number = 0;
  std::string text;  ///< the string code
  std::string label;
};

/// What ReadStat's callbacks fill in. ReadStat is C: nothing may be thrown through it, so a
/// handler keeps its exception for the caller and returns ABORT.
struct StatReader {
  StatReader(const std::string& f, const ReadControl& c) : file(f), control(c) {}
  const std::string& file;
  const ReadControl& control;
  std::size_t fileBytes = 0;
  std::vector<StatColumn> columns;
  std::unordered_map<std::string, std::vector<StatLabel>> labelSets;
  std::size_t values = 0;
  bool stopped = false;
  std::exception_ptr error;
  std::string readstatMessage;  ///< the last message ReadStat's error handler gave
  /// The file names its character encoding (ReadStat converts its text to UTF-8); false for
  /// the formats that name none (Stata before 14, SPSS portable, SAS transport), whose bytes
  /// ReadStat passes through.
  bool namesEncoding = false;
};

/// A damaged file is bad input; `what` says how, for the user who must get a good copy.
[[noreturn]] void throwDamaged(const std::string& file, StatFormat format, std::size_t row,
                               const std::string& column, const std::string& what) {
  throw DataError(file, row, column,
                  "this " + statFormatName(format) + " file cannot be read: " + what,
                  "It may be damaged, truncated or of another format: open it in the program "
                  "that wrote it and save it again, or export it as CSV.");
}

/// Windows-1252 bytes as UTF-8, or nothing when a byte is one of the five it leaves undefined.
std::optional<std::string> fromWindows1252(std::string_view bytes) {
  // U+ code points of 0x80–0x9F (0 where undefined); 0xA0–0xFF are U+00A0–U+00FF.
  static constexpr char16_t kHigh[32] = {
      0x20AC, 0,      0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
      0x2039, 0x0152, 0,      0x017D, 0,      0,      0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
      0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0,      0x017E, 0x0178};
  std::string out;
  out.reserve(bytes.size() + bytes.size() / 2);
  for (const char byte : bytes) {
    const auto b = static_cast<unsigned char>(byte);
    const char32_t code = b < 0x80 ? b : b < 0xA0 ? kHigh[b - 0x80] : b;
    if (code == 0 && b != 0) return std::nullopt;
    if (code < 0x80) {
      out += static_cast<char>(code);
    } else if (code < 0x800) {
      out += static_cast<char>(0xC0 | (code >> 6));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else {
      out += static_cast<char>(0xE0 | (code >> 12));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    }
  }
  return out;
}

/// Text from the file as UTF-8: ReadStat converts from the file's declared encoding, but passes
/// through bytes that a damaged or mislabelled file does not explain. Kept, they would make a
/// synthetic file that no reader (dpsynth included) takes back, so they are refused here, as a
/// CSV that is not UTF-8 is. A file that names no encoding is read string by string: UTF-8
/// where the bytes are, else Windows-1252 (Latin text from Windows, the usual case). Each
/// string's own bytes decide, never the rest of the file: the whole file read again as
/// Windows-1252 when one string was not UTF-8 let a byte in a column that never leaves
/// re-encode every released text (SPEC §0). `row` is the case number (0: a name or label).
std::string utf8Text(const char* text, const StatReader& r, std::size_t row,
                     const std::string& column, const char* what) {
  if (!text) return {};
  std::string out(text);
  if (firstInvalidUtf8(out) == std::string_view::npos) return out;
  if (!r.namesEncoding) {
    if (auto latin = fromWindows1252(out)) return std::move(*latin);
  }
  throw DataError(
      r.file, row, column,
      std::string(what) + " is not valid text in the file's encoding, nor in Windows-1252",
      "Save it again from the program that wrote it (Stata 14 or later writes UTF-8), or "
      "export it as CSV in UTF-8.");
}

int onMetadata(readstat_metadata_t* metadata, void* context) {
  auto* r = static_cast<StatReader*>(context);
  const int variables = readstat_get_var_count(metadata);
  const char* encoding = readstat_get_file_encoding(metadata);
  r->namesEncoding = encoding != nullptr && *encoding != '\0';
  try {
    // Sizes in a header are claims of the file, not facts: reserve no more variables than its
    // bytes could describe (the row count is not used for reserving at all).
    if (variables > 0 && static_cast<std::size_t>(variables) <= r->fileBytes / 8)
      r->columns.reserve(static_cast<std::size_t>(variables));
  } catch (...) {
    r->error = std::current_exception();
    return READSTAT_HANDLER_ABORT;
  }
  return READSTAT_HANDLER_OK;
}

int onVariable(int index, readstat_variable_t* variable, const char* labelSet, void* context) {
  auto* r = static_cast<StatReader*>(context);
  try {
    if (index < 0 || static_cast<std::size_t>(index) != r->columns.size()) {
      r->readstatMessage = "variable " + std::to_string(index + 1) + " is out of order";
      return READSTAT_HANDLER_ABORT;
    }
    StatColumn column;
    column.name = utf8Text(readstat_variable_get_name(variable), *r, 0, "",
                           ("the name of variable " + std::to_string(index + 1)).c_str());
    column.isString = readstat_variable_get_type_class(variable) == READSTAT_TYPE_CLASS_STRING;
    if (labelSet) column.labelSet = labelSet;
    column.info.description =
        utf8Text(readstat_variable_get_label(variable), *r, 0, column.name, "its label");
    column.info.format =
        utf8Text(readstat_variable_get_format(variable), *r, 0, column.name, "its format");
    column.info.kind = column.isString ? ValueKind::text : kindOfDisplayFormat(column.info.format);
    const int ranges = readstat_variable_get_missing_ranges_count(variable);
    for (int k = 0; k < ranges; ++k) {
      const readstat_value_t lo = readstat_variable_get_missing_range_lo(variable, k);
      const readstat_value_t hi = readstat_variable_get_missing_range_hi(variable, k);
      if (column.isString) {
        if (const char* text = readstat_string_value(lo))
          column.missingStrings.push_back(utf8Text(text, *r, 0, column.name, "a missing code"));
      } else {
        column.missingRanges.emplace_back(readstat_double_value(lo), readstat_double_value(hi));
      }
    }
    r->columns.push_back(std::move(column));
  } catch (...) {
    r->error = std::current_exception();
    return READSTAT_HANDLER_ABORT;
  }
  return READSTAT_HANDLER_OK;
}

int onValue(int row, readstat_variable_t* variable, readstat_value_t value, void* context) {
  auto* r = static_cast<StatReader*>(context);
  if ((++r->values & 0xFFFF) == 0 && r->control.stop.stop_requested()) {
    r->stopped = true;
    return READSTAT_HANDLER_ABORT;
  }
  try {
    const int index = readstat_variable_get_index(variable);
    if (index < 0 || static_cast<std::size_t>(index) >= r->columns.size()) {
      r->readstatMessage = "a value belongs to no variable";
      return READSTAT_HANDLER_ABORT;
    }
    StatColumn& column = r->columns[static_cast<std::size_t>(index)];
    if (row < 0 || static_cast<std::size_t>(row) != column.size()) {
      r->readstatMessage = "the values of case " + std::to_string(row + 1) + " are out of order";
      return READSTAT_HANDLER_ABORT;
    }
    const bool missing = readstat_value_is_missing(value, variable) != 0;
    if (column.isString) {
      const char* text = readstat_value_type_class(value) == READSTAT_TYPE_CLASS_STRING
                             ? readstat_string_value(value)
                             : nullptr;
      column.strings.push_back(
          missing || !text
              ? std::string()
              : utf8Text(text, *r, static_cast<std::size_t>(row) + 1, column.name, "the value"));
    } else {
      const double v = readstat_value_type_class(value) == READSTAT_TYPE_CLASS_NUMERIC
                           ? readstat_double_value(value)
                           : std::nan("");
      column.numbers.push_back(missing ? std::nan("") : v);
    }
  } catch (...) {
    r->error = std::current_exception();
    return READSTAT_HANDLER_ABORT;
  }
  return READSTAT_HANDLER_OK;
}

int onValueLabel(const char* set, readstat_value_t value, const char* label, void* context) {
  auto* r = static_cast<StatReader*>(context);
  try {
    // Labels of Stata's and SAS's tagged missing values (.a "refused") label no level.
    if (!set || !label || readstat_value_is_tagged_missing(value) ||
        readstat_value_is_system_missing(value))
      return READSTAT_HANDLER_OK;
    StatLabel entry;
    entry.isString = readstat_value_type_class(value) == READSTAT_TYPE_CLASS_STRING;
    if (entry.isString) {
      entry.text = utf8Text(readstat_string_value(value), *r, 0, "", "a value label's code");
    } else {
      entry.number = readstat_double_value(value);
    }
    entry.label = std::string(trimBlanks(utf8Text(label, *r, 0, "", "a value label")));
    r->labelSets[set].push_back(std::move(entry));
  } catch (...) {
    r->error = std::current_exception();
    return READSTAT_HANDLER_ABORT;
  }
  return READSTAT_HANDLER_OK;
}

void onError(const char* message, void* context) {
  auto* r = static_cast<StatReader*>(context);
  if (!message) return;
  try {
    std::string text(trimBlanks(message));
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
    r->readstatMessage = text;
  } catch (...) {
  }
}

int onProgress(double fraction, void* context) {
  auto* r = static_cast<StatReader*>(context);
  if (r->control.stop.stop_requested()) {
    r->stopped = true;
    return READSTAT_HANDLER_ABORT;
  }
  if (r->control.progress) {
    ReadProgress p;
    p.bytesTotal = p.bytesRead = r->fileBytes;
    const double clamped = std::clamp(fraction, 0.0, 1.0);
    p.bytesParsed = static_cast<std::uint64_t>(clamped * static_cast<double>(r->fileBytes));
    try {
      r->control.progress(p);
    } catch (...) {
      r->error = std::current_exception();
      return READSTAT_HANDLER_ABORT;
    }
  }
  return READSTAT_HANDLER_OK;
}

/// The column's labels as levels when they cover every value present, are distinct, and none
/// is empty or reads as a missing value; labels of its missing codes are left out.
void applyLabels(StatColumn& column, const std::vector<StatLabel>& labels) {
  std::unordered_set<std::string> texts;
  bool usable = column.info.kind == ValueKind::number || column.info.kind == ValueKind::text;
  for (const StatLabel& l : labels) {
    if (l.isString != column.isString) continue;
    if (column.isString) {
      if (std::find(column.missingStrings.begin(), column.missingStrings.end(), l.text) !=
          column.missingStrings.end())
        continue;
      column.info.valueLabels.push_back({l.text, l.label});
    } else {
      if (column.isMissingCode(l.number)) continue;
      column.info.valueLabels.push_back({formatNumber(l.number), l.label});
    }
    usable = usable && !isMissingValue(l.label) && texts.insert(l.label).second;
  }
  if (!usable || column.info.valueLabels.empty()) return;
  std::unordered_map<std::string, std::string> labelOf;
  for (const ValueLabel& v : column.info.valueLabels) labelOf.emplace(v.code, v.label);
  const std::size_t n = column.size();
  for (std::size_t i = 0; i < n; ++i) {
    const std::string code = column.isString ? column.strings[i] : formatNumber(column.numbers[i]);
    if (code.empty()) continue;  // missing
    if (!labelOf.contains(code)) return;
  }
  column.info.labelsAreLevels = true;
}

CsvTable assemble(StatReader& r, StatFormat format) {
  if (r.columns.empty()) {
    throw DataError(r.file, 0, "", "the " + statFormatName(format) + " file has no variables",
                    "Expected at least one variable (column).");
  }
  const std::size_t n = r.columns.front().size();
  std::unordered_set<std::string> names;
  for (const StatColumn& c : r.columns) {
    if (c.size() != n) throwDamaged(r.file, format, 0, c.name, "its cases have unequal length");
    if (c.name.empty()) throwDamaged(r.file, format, 0, "", "a variable has no name");
    if (!names.insert(c.name).second)
      throwDamaged(r.file, format, 0, c.name, "two variables have this name");
  }
  for (StatColumn& c : r.columns) {
    if (c.labelSet.empty()) continue;
    const auto set = r.labelSets.find(c.labelSet);
    if (set != r.labelSets.end()) applyLabels(c, set->second);
  }

  CsvTable table;
  table.file = r.file;
  for (StatColumn& c : r.columns) {
    c.info.unit = timeUnitOf(format, c.info.kind, c.info.format);
    table.header.push_back(c.name);
    table.columns.push_back(c.info);
  }
  table.rows = CsvRows(r.columns.size());
  std::vector<std::unordered_map<std::string, std::string>> labelOf(r.columns.size());
  for (std::size_t j = 0; j < r.columns.size(); ++j) {
    if (!r.columns[j].info.labelsAreLevels) continue;
    for (const ValueLabel& v : r.columns[j].info.valueLabels) labelOf[j].emplace(v.code, v.label);
  }
  table.lineOfRow.reserve(n);
  std::string cell;
  for (std::size_t i = 0; i < n; ++i) {
    if ((i & 0xFFFF) == 0 && r.control.stop.stop_requested()) {
      r.stopped = true;
      return table;
    }
    for (std::size_t j = 0; j < r.columns.size(); ++j) {
      const StatColumn& c = r.columns[j];
      cell = c.isString ? c.strings[i] : formatNumber(c.numbers[i]);
      if (c.info.labelsAreLevels && !cell.empty()) cell = labelOf[j].at(cell);
      table.rows.appendCell(cell);
    }
    table.rows.endRecord();
    table.lineOfRow.push_back(i + 1);
  }
  return table;
}

}  // namespace

namespace {

/// One pass of ReadStat over the bytes.
std::optional<CsvTable> parseOnce(std::string_view bytes, const std::string& file,
                                  StatFormat format, const ReadControl& control) {
  std::unique_ptr<readstat_parser_t, decltype(&readstat_parser_free)> parser(readstat_parser_init(),
                                                                             readstat_parser_free);
  if (!parser) throw std::bad_alloc();
  MemoryFile memory{bytes, 0};
  StatReader reader(file, control);
  reader.fileBytes = bytes.size();
  readstat_set_open_handler(parser.get(), memoryOpen);
  readstat_set_close_handler(parser.get(), memoryClose);
  readstat_set_seek_handler(parser.get(), memorySeek);
  readstat_set_read_handler(parser.get(), memoryRead);
  readstat_set_update_handler(parser.get(), memoryUpdate);
  readstat_set_io_ctx(parser.get(), &memory);
  readstat_set_metadata_handler(parser.get(), onMetadata);
  readstat_set_variable_handler(parser.get(), onVariable);
  readstat_set_value_handler(parser.get(), onValue);
  readstat_set_value_label_handler(parser.get(), onValueLabel);
  readstat_set_error_handler(parser.get(), onError);
  readstat_set_progress_handler(parser.get(), onProgress);

  readstat_error_t status = READSTAT_OK;
  const char* path = file.c_str();
  switch (format) {
    case StatFormat::sav:
    case StatFormat::zsav:
      status = readstat_parse_sav(parser.get(), path, &reader);
      break;
    case StatFormat::por:
      status = readstat_parse_por(parser.get(), path, &reader);
      break;
    case StatFormat::dta:
      status = readstat_parse_dta(parser.get(), path, &reader);
      break;
    case StatFormat::sas7bdat:
      status = readstat_parse_sas7bdat(parser.get(), path, &reader);
      break;
    case StatFormat::xpt:
      status = readstat_parse_xport(parser.get(), path, &reader);
      break;
  }
  if (reader.error) std::rethrow_exception(reader.error);
  if (reader.stopped) return std::nullopt;
  if (status != READSTAT_OK) {
    std::string what = readstat_error_message(status);
    if (!reader.readstatMessage.empty()) what += " (" + reader.readstatMessage + ")";
    // ReadStat's messages can quote bytes of the file: kept short (DataError escapes controls).
    if (what.size() > 200) what = what.substr(0, 200) + "...";
    throwDamaged(file, format, 0, "", what);
  }
  CsvTable table = assemble(reader, format);
  if (reader.stopped) return std::nullopt;
  if (control.progress) {
    ReadProgress p;
    p.bytesTotal = p.bytesRead = p.bytesParsed = bytes.size();
    control.progress(p);
  }
  return table;
}

}  // namespace

std::optional<CsvTable> parseStatFile(std::string_view bytes, const std::string& file,
                                      StatFormat format, const ReadControl& control) {
  // Two cuts ReadStat does not notice: a SAS transport file is a sequence of 80-byte records
  // (one cut inside the last loses that record's values without a word), and a Stata file of
  // format 117 or later ends with its closing tag (a cut after the data loses the value labels).
  if (format == StatFormat::xpt && bytes.size() % 80 != 0)
    throwDamaged(file, format, 0, "",
                 "its size is not a multiple of 80 bytes, so its end is cut off");
  if (format == StatFormat::dta && bytes.starts_with("<stata_dta>") &&
      !trimBlanks(bytes).ends_with("</stata_dta>"))
    throwDamaged(file, format, 0, "", "it does not end with </stata_dta>, so its end is cut off");
  return parseOnce(bytes, file, format, control);
}

}  // namespace dpsynth::core::data
