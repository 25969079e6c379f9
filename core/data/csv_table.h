#pragma once
/// Raw CSV text as a table of strings, before any typing. Parsing is done by libcsv (Debian
/// package libcsv-dev): RFC 4180 quoting, embedded delimiters and newlines in quoted fields.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/data/column_info.h"
#include "core/data/csv_rows.h"
#include "core/data/read_control.h"
#include "core/data/regular_file.h"

namespace dpsynth::core::data {

struct CsvTable {
  std::string file;                 ///< path as given (for messages)
  char delimiter = ',';             ///< detected: ',' ';' or '\t'
  std::vector<std::string> header;  ///< column names, BOM and surrounding blanks removed
  CsvRows rows;                     ///< every data row has header.size() fields
  /// 1-based file line where each row starts; for a statistical file (SPSS, Stata, SAS), where
  /// there are no lines, the 1-based case number as those programs show it.
  std::vector<std::size_t> lineOfRow;
  /// Empty for a CSV; for a statistical file one entry per column (data_file.h): variable
  /// label, value labels, format.
  std::vector<ColumnInfo> columns;

  /// The column's information, or nullptr when the file has none (a CSV).
  const ColumnInfo* info(std::size_t column) const {
    return column < columns.size() ? &columns[column] : nullptr;
  }

  std::size_t columnIndex(const std::string& name) const;  ///< throws DataError if absent
};

/// The index of column `name` in `header`; throws DataError naming `file` and listing the columns
/// (or saying that a one-column file may not be a CSV) when there is none.
std::size_t columnIndexIn(const std::vector<std::string>& header, const std::string& file,
                          const std::string& name);

/// Reads a CSV file: UTF-8 with or without BOM, LF or CRLF, delimiter detected from the header
/// line among ',', ';' and tab. Throws DataError for a missing/unreadable file, a file that is not
/// text (NUL bytes or invalid UTF-8), an empty file, duplicate or empty column names, and rows
/// whose field count differs from the header's. The path must name an ordinary file of at most
/// maxBytes: a FIFO, device or folder is refused before anything is read (readRegularFile).
CsvTable readCsv(const std::string& path, std::uint64_t maxBytes = kMaxInputBytes);
/// The same from text already in memory; `file` is used only in messages.
CsvTable parseCsv(std::string_view text, const std::string& file);

/// readCsv and parseCsv for long reads: the same table and the same errors, or nullopt when
/// control.stop was requested (checked every MiB read and every 1024 lines parsed); progress
/// goes to control.progress from the calling thread.
std::optional<CsvTable> readCsv(const std::string& path, const ReadControl& control,
                                std::uint64_t maxBytes = kMaxInputBytes);
std::optional<CsvTable> parseCsv(std::string_view text, const std::string& file,
                                 const ReadControl& control);

}  // namespace dpsynth::core::data
