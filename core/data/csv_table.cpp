#include "core/data/csv_table.h"

#include <csv.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <exception>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "core/data/data_error.h"
#include "core/data/populate_pages.h"
#include "core/data/quote_value.h"
#include "core/data/regular_file.h"
#include "core/data/utf8.h"
#include "core/data/value_parsing.h"

namespace dpsynth::core::data {
namespace {

constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";
/// What a file that is no text is (the problem) and what to do (the fix): the error dialog
/// shows them under those headings.
constexpr std::string_view kBinaryProblem =
    "this looks like a binary file (e.g. a spreadsheet): it contains NUL bytes, which never occur "
    "in a text file";
constexpr std::string_view kBinaryFix =
    "Save it as CSV, or name an SPSS, Stata or SAS file by its own extension (.sav, .zsav, .por, "
    ".dta, .sas7bdat, .xpt).";
/// libcsv's parser state for "between rows" (ROW_NOT_BEGUN in libcsv.c). The state lives in the
/// public struct; reading it is how we learn where a row starts, which libcsv does not report.
constexpr int kRowNotBegun = 0;
/// libcsv's state for "inside a field" (FIELD_BEGUN).
constexpr int kFieldBegun = 2;
/// How much libcsv's field buffer grows at a time.
constexpr std::size_t kFieldBlockBytes = 64 * 1024;

std::size_t lineAtOffset(std::string_view text, std::size_t offset) {
  std::size_t line = 1;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') ++line;
  }
  return line;
}

/// Throws DataError unless the text is text; false when a stop was requested first (the check
/// falls every 16 MiB, a few milliseconds of scanning).
/// UTF-16 text: its byte-order mark, or ASCII with a NUL beside every character (Excel's
/// "Unicode text" and PowerShell's default write it).
bool looksLikeUtf16(std::string_view text) {
  if (text.starts_with("\xFF\xFE") || text.starts_with("\xFE\xFF")) return true;
  const std::size_t n = std::min<std::size_t>(text.size(), 64) & ~std::size_t{1};
  if (n < 4) return false;
  std::size_t evenNul = 0, oddNul = 0;
  for (std::size_t i = 0; i < n; i += 2) {
    evenNul += text[i] == '\0';
    oddNul += text[i + 1] == '\0';
  }
  return evenNul == n / 2 || oddNul == n / 2;
}

bool requireText(std::string_view text, const std::string& file, const std::stop_token& stop) {
  if (looksLikeUtf16(text)) {
    throw DataError(file, 1, "", "this is UTF-16 text, which dpsynth does not read",
                    "Save it again as CSV in UTF-8 (in Excel: CSV UTF-8; in R: "
                    "write.csv(..., fileEncoding = \"UTF-8\")).");
  }
  if (const auto nul = text.find('\0'); nul != std::string_view::npos) {
    throw DataError(file, lineAtOffset(text, nul), "", std::string(kBinaryProblem),
                    std::string(kBinaryFix));
  }
  constexpr std::size_t kBlock = std::size_t{16} << 20;
  std::size_t start = 0;
  while (start < text.size()) {
    if (stop.stop_requested()) return false;
    // Blocks end after a byte that cannot be inside a sequence, so no sequence is cut.
    std::size_t end = std::min(text.size(), start + kBlock);
    while (end < text.size() && (static_cast<unsigned char>(text[end - 1]) & 0x80) != 0) ++end;
    const auto bad = firstInvalidUtf8(text.substr(start, end - start));
    if (bad != std::string_view::npos) {
      const std::size_t at = start + bad;
      char byte[8];
      std::snprintf(byte, sizeof byte, "0x%02X", static_cast<unsigned char>(text[at]));
      // Text in another encoding (Latin-1, Windows-1252) is the usual cause: a NUL-free file
      // is named as that first, not as a spreadsheet.
      throw DataError(file, lineAtOffset(text, at), "",
                      std::string("this is not valid UTF-8 (byte ") + byte +
                          "): text in another encoding such as Latin-1 or Windows-1252, or a "
                          "binary file",
                      "If it is text, save it again as CSV in UTF-8 (in Excel: CSV UTF-8; in R: "
                      "write.csv(..., fileEncoding = \"UTF-8\")). " +
                          std::string(kBinaryFix));
    }
    start = end;
  }
  return true;
}

/// The delimiter of the header line: whichever of ',', ';' and tab occurs most often outside
/// quotes (ties go to the earlier in that order; a single column falls back to ',').
char detectDelimiter(std::string_view text) {
  constexpr std::array<char, 3> kCandidates{',', ';', '\t'};
  std::array<std::size_t, 3> counts{};
  bool inQuotes = false;
  for (const char c : text) {
    if (c == '"') {
      inQuotes = !inQuotes;  // a doubled quote toggles twice: no net change
    } else if (!inQuotes) {
      if (c == '\n' || c == '\r') break;
      for (std::size_t k = 0; k < kCandidates.size(); ++k) {
        if (c == kCandidates[k]) ++counts[k];
      }
    }
  }
  std::size_t best = 0;
  for (std::size_t k = 1; k < kCandidates.size(); ++k) {
    if (counts[k] > counts[best]) best = k;
  }
  return kCandidates[best];
}

/// Excel's first line naming the delimiter ("sep=;", written by some locales' CSV export and
/// read by Excel itself): the delimiter and the line's length with its line end; nullopt when
/// the first line is no such line (or names a delimiter other than ',', ';' or tab).
std::optional<std::pair<char, std::size_t>> excelSeparatorLine(std::string_view text) {
  if (text.size() < 5) return std::nullopt;
  const std::string_view start = text.substr(0, 4);
  if (start != "sep=" && start != "SEP=" && start != "Sep=") return std::nullopt;
  std::size_t end = text.find_first_of("\r\n");
  if (end == std::string_view::npos) end = text.size();
  std::string_view value = text.substr(4, end - 4);
  if (value.size() == 3 && value.front() == '"' && value.back() == '"') value = value.substr(1, 1);
  if (value.size() != 1) return std::nullopt;  // a column named "sep=..." in a header
  const char delimiter = value.front();
  // Another character is read as a header line (a column may be named "sep=1").
  if (delimiter != ',' && delimiter != ';' && delimiter != '\t') return std::nullopt;
  if (end < text.size() && text[end] == '\r') ++end;
  if (end < text.size() && text[end] == '\n') ++end;
  return std::pair{delimiter, end};
}

int isSpaceOnly(unsigned char c) { return c == ' '; }

/// What libcsv's callbacks fill in: the header, then the records straight into the flat cell
/// store (no string per cell). libcsv is C: nothing may be thrown through it, so the callbacks
/// keep an exception for the caller to rethrow.
struct Collector {
  std::vector<std::string> header;
  std::size_t headerLine = 0;
  bool haveHeader = false;
  CsvRows rows;
  std::vector<std::size_t> lines;
  std::size_t expectedRecords = 0;  ///< an upper bound, for reserving
  std::size_t textBytes = 0;        ///< likewise
  std::size_t rowStartLine = 1;
  std::size_t fieldsInRecord = 0;
  /// The first record whose field count differs from the header's, as (line, fields). It is
  /// reported after the whole text is parsed (an unclosed quote or a bad header comes first);
  /// nothing is stored after it.
  std::optional<std::pair<std::size_t, std::size_t>> firstRagged;
  std::exception_ptr error;
};

void onField(void* data, std::size_t length, void* context) {
  auto* c = static_cast<Collector*>(context);
  if (c->error) return;
  try {
    ++c->fieldsInRecord;
    if (!c->haveHeader) {
      c->header.emplace_back(static_cast<const char*>(data), length);
    } else if (!c->firstRagged && c->fieldsInRecord <= c->rows.columns()) {
      c->rows.appendCell({static_cast<const char*>(data), length});
    }
  } catch (...) {
    c->error = std::current_exception();
  }
}

void onRecordEnd(int /*terminator*/, void* context) {
  auto* c = static_cast<Collector*>(context);
  const std::size_t fields = std::exchange(c->fieldsInRecord, 0);
  if (c->error) return;
  try {
    if (!c->haveHeader) {
      c->haveHeader = true;
      c->headerLine = c->rowStartLine;
      c->rows = CsvRows(c->header.size());
      c->rows.reserve(c->expectedRecords, c->textBytes);
      c->lines.reserve(c->expectedRecords);
      populatePages(c->lines.data(), c->lines.capacity() * sizeof(std::size_t));
    } else if (c->firstRagged) {
      // The table is refused anyway: only the parse goes on, for an unclosed quote.
    } else if (fields != c->rows.columns()) {
      c->firstRagged = {c->rowStartLine, fields};
      c->rows.discardOpenRecord();
    } else {
      c->rows.endRecord();
      c->lines.push_back(c->rowStartLine);
    }
  } catch (...) {
    c->error = std::current_exception();
  }
}

/// Owns a libcsv parser so that it is freed on every exit path, including exceptions.
class Parser {
 public:
  explicit Parser(char delimiter) {
    if (csv_init(&parser_, 0) != 0) throw std::bad_alloc();
    // libcsv grows its field buffer by a fixed block (128 bytes by default), so a long field
    // costs one realloc per block: quadratic copying wherever realloc cannot grow in place (a
    // 10 MB field took minutes under AddressSanitizer). Larger blocks make that negligible.
    csv_set_blk_size(&parser_, kFieldBlockBytes);
    csv_set_delim(&parser_, static_cast<unsigned char>(delimiter));
    // Tabs are blanks to trim unless they separate fields.
    if (delimiter == '\t') csv_set_space_func(&parser_, isSpaceOnly);
  }
  ~Parser() { csv_free(&parser_); }
  Parser(const Parser&) = delete;
  Parser& operator=(const Parser&) = delete;
  csv_parser* get() { return &parser_; }

 private:
  csv_parser parser_{};
};

std::string joinPositions(std::size_t first, std::size_t second) {
  return "columns " + std::to_string(first) + " and " + std::to_string(second);
}

void validateHeader(std::vector<std::string>& header, std::size_t line, const std::string& file) {
  std::unordered_map<std::string, std::size_t> seen;
  seen.reserve(header.size());
  for (std::size_t j = 0; j < header.size(); ++j) {
    std::string_view name = trimBlanks(header[j]);
    // A byte order mark is junk wherever the header line starts (also after blank lines or
    // inside quotes); kept, it would be part of the first name and not survive a write and
    // read (the writer's text starts with the name, the reader strips a leading BOM).
    while (j == 0 && name.starts_with(kByteOrderMark)) {
      name = trimBlanks(name.substr(kByteOrderMark.size()));
    }
    header[j] = std::string(name);
    if (header[j].empty()) {
      throw DataError(file, line, "",
                      "column " + std::to_string(j + 1) + " of " + std::to_string(header.size()) +
                          " in the header has no name",
                      "Give every column a name in the first line (a trailing delimiter at the "
                      "end of the header also creates an unnamed column).");
    }
    // One hash lookup per name: a header of 10^6 names must not take O(n^2) comparisons.
    const auto [first, inserted] = seen.emplace(header[j], j);
    if (!inserted) {
      throw DataError(file, line, header[j],
                      "the name is used by " + joinPositions(first->second + 1, j + 1),
                      "Column names must be unique; rename one of them.");
    }
  }
}

std::string delimiterName(char delimiter) {
  if (delimiter == '\t') return "tab";
  return std::string("'") + delimiter + "'";
}

}  // namespace

std::size_t CsvTable::columnIndex(const std::string& name) const {
  return columnIndexIn(header, file, name);
}

std::size_t columnIndexIn(const std::vector<std::string>& header, const std::string& file,
                          const std::string& name) {
  for (std::size_t j = 0; j < header.size(); ++j) {
    if (header[j] == name) return j;
  }
  // The same name in another Unicode form ("é" composed on the command line, "e" + U+0301 in
  // a file written on macOS): the one column it can be, if there is exactly one.
  const std::string composed = composedUtf8(name);
  std::size_t match = header.size();
  std::size_t matches = 0;
  for (std::size_t j = 0; j < header.size(); ++j) {
    if (composedUtf8(header[j]) != composed) continue;
    match = j;
    ++matches;
  }
  if (matches == 1) return match;
  if (matches > 1) {
    throw DataError(file, 0, name,
                    "several columns have this name, written with different Unicode characters",
                    "Rename the columns so that their names differ as they are shown.");
  }
  // A file with a single column may not be a CSV at all (a session can point anywhere, e.g. at
  // /etc/shadow): its whole first line would be the "column name", so it is not shown.
  if (header.size() < 2) {
    throw DataError(file, 0, name, "there is no column with this name",
                    "The first line of the file has no ',', ';' or tab, so it holds a single "
                    "column; check that this is the CSV file you meant.");
  }
  constexpr std::size_t kListed = 12;
  std::string available;
  for (std::size_t j = 0; j < header.size() && j < kListed; ++j) {
    if (!available.empty()) available += ", ";
    available += quoteForMessage(header[j], 40);
  }
  if (header.size() > kListed) {
    available += " and " + std::to_string(header.size() - kListed) + " more";
  }
  throw DataError(file, 0, name, "there is no column with this name",
                  "Available columns: " + available + ".");
}

std::optional<CsvTable> parseCsv(std::string_view text, const std::string& file,
                                 const ReadControl& control) {
  ReadProgress progress;
  progress.bytesTotal = progress.bytesRead = text.size();
  std::size_t skipped = 0;  // counted as parsed, so that progress ends at the total
  if (text.starts_with(kByteOrderMark)) {
    text.remove_prefix(kByteOrderMark.size());
    skipped = kByteOrderMark.size();
  }
  if (!requireText(text, file, control.stop)) return std::nullopt;
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    throw DataError(file, 0, "", "the file is empty",
                    "Expected a header line with column names followed by one line per record.");
  }

  CsvTable table;
  table.file = file;
  // Excel's "sep=;" line names the delimiter; the header follows on line 2.
  std::size_t firstLine = 1;
  if (const auto separator = excelSeparatorLine(text)) {
    table.delimiter = separator->first;
    text.remove_prefix(separator->second);
    skipped += separator->second;
    firstLine = 2;
    if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
      throw DataError(file, 0, "", "the file is empty after its \"sep=\" line",
                      "Expected a header line with column names followed by one line per "
                      "record.");
    }
  } else {
    table.delimiter = detectDelimiter(text.substr(text.find_first_not_of(" \t\r\n")));
  }

  Parser parser(table.delimiter);
  Collector collector;
  // Lines end in '\n' (LF or CRLF); only old Mac files use a bare '\r'.
  const char lineEnd = text.find('\n') != std::string_view::npos ? '\n' : '\r';
  // Every record starts a line: the line count bounds the records, so the stores are reserved
  // once. The cells' text is shorter than the file's (no delimiters, quotes or line ends).
  for (std::size_t pos = text.find(lineEnd); pos != std::string_view::npos;
       pos = text.find(lineEnd, pos + 1)) {
    if ((++collector.expectedRecords & 0xFFFFF) == 0 && control.stop.stop_requested()) {
      return std::nullopt;
    }
  }
  ++collector.expectedRecords;
  collector.textBytes = text.size();

  // A stop request is honoured, and progress reported, every 1024 lines and every MiB (a line
  // can be long): well under a millisecond of parsing apart.
  constexpr std::size_t kCheckEveryLines = 1024;
  constexpr std::size_t kCheckEveryBytes = std::size_t{1} << 20;
  std::size_t nextCheck = kCheckEveryBytes;
  const auto check = [&](std::size_t pos) {
    nextCheck = pos + kCheckEveryBytes;
    if (control.stop.stop_requested()) return false;
    if (control.progress) {
      progress.bytesParsed = skipped + pos;
      control.progress(progress);
    }
    return true;
  };
  // In a one-column file an empty line between records is a record whose one value is empty
  // (a spreadsheet writes an empty cell so): it is held until a record follows, so that blank
  // lines at the end of the file stay ignored. libcsv skips every empty line, so before this
  // such a record vanished without a word.
  std::vector<std::size_t> blankLines;
  std::size_t line = firstLine;
  for (std::size_t pos = 0; pos < text.size(); ++line) {
    if (line % kCheckEveryLines == 0 && !check(pos)) return std::nullopt;
    const std::size_t end = text.find(lineEnd, pos);
    const std::size_t next = end == std::string_view::npos ? text.size() : end + 1;
    if (parser.get()->pstate == kRowNotBegun && collector.haveHeader &&
        collector.rows.columns() == 1 && !collector.firstRagged && !collector.error) {
      std::string_view content = text.substr(pos, next - pos);
      while (!content.empty() && (content.back() == '\n' || content.back() == '\r'))
        content.remove_suffix(1);
      if (content.find_first_not_of(" \t") == std::string_view::npos) {  // blank, or spaces
        blankLines.push_back(line);
        pos = next;
        continue;
      }
      for (const std::size_t blank : blankLines) {
        collector.rows.appendCell({});
        collector.rows.endRecord();
        collector.lines.push_back(blank);
      }
      blankLines.clear();
    }
    if (parser.get()->pstate == kRowNotBegun) collector.rowStartLine = line;
    while (pos < next) {
      if (pos >= nextCheck && !check(pos)) return std::nullopt;
      const std::size_t length = std::min(next - pos, kCheckEveryBytes);
      if (csv_parse(parser.get(), text.data() + pos, length, onField, onRecordEnd, &collector) !=
          length) {
        throw DataError(
            file, line, "",
            std::string("the CSV parser failed: ") + csv_strerror(csv_error(parser.get())));
      }
      if (collector.error) std::rethrow_exception(collector.error);
      pos += length;
    }
  }
  if (parser.get()->pstate == kFieldBegun && parser.get()->quoted) {
    throw DataError(file, collector.rowStartLine, "",
                    "a quoted value in the record starting on this line is never closed",
                    "Look for a stray double quote; inside a quoted value a double quote is "
                    "written twice (\"\").");
  }
  csv_fini(parser.get(), onField, onRecordEnd, &collector);
  if (collector.error) std::rethrow_exception(collector.error);

  if (!collector.haveHeader) {
    throw DataError(file, 0, "", "the file is empty",
                    "Expected a header line with column names followed by one line per record.");
  }
  table.header = std::move(collector.header);
  validateHeader(table.header, collector.headerLine, file);

  if (collector.firstRagged) {
    const std::size_t expected = table.header.size();
    const auto [rowLine, fields] = *collector.firstRagged;
    const std::string hint =
        fields > expected
            ? "A value may contain the delimiter " + delimiterName(table.delimiter) +
                  " without being quoted (a decimal comma?); put such values in double quotes."
            : "Every record needs one field per column; write an empty field for a missing "
              "value.";
    throw DataError(file, rowLine, "",
                    "expected " + std::to_string(expected) +
                        " fields (as in the header) but "
                        "found " +
                        std::to_string(fields),
                    hint);
  }
  table.rows = std::move(collector.rows);
  table.lineOfRow = std::move(collector.lines);
  if (control.progress) {
    progress.bytesParsed = progress.bytesTotal;
    control.progress(progress);
  }
  return table;
}

CsvTable parseCsv(std::string_view text, const std::string& file) {
  return *parseCsv(text, file, ReadControl{});  // without a stop token: never empty
}

std::optional<CsvTable> readCsv(const std::string& path, const ReadControl& control,
                                std::uint64_t maxBytes) {
  const std::optional<std::string> text = readRegularFile(path, control, maxBytes);
  if (!text) return std::nullopt;
  return parseCsv(*text, path, control);
}

CsvTable readCsv(const std::string& path, std::uint64_t maxBytes) {
  return *readCsv(path, ReadControl{}, maxBytes);
}

}  // namespace dpsynth::core::data
