#pragma once
/// Writing CSV and other text outputs so that a crash, a full disk or a cancelled run never leaves
/// a half-written file behind: everything goes to a temporary file in the target's folder, which
/// is renamed over the target only once it is complete (a rename within one file system is
/// atomic on POSIX systems).
#include <string>
#include <string_view>
#include <vector>

#include "core/data/csv_rows.h"

namespace dpsynth::core::data {

/// The shortest decimal text that reads back to exactly `value` (std::to_chars, C locale):
/// integers without ".0", "1e-05" style exponents when shorter. -0 is written "0", NaN as an
/// empty field (missing in R, Stata, Excel and dpsynth), infinities as "Inf" and "-Inf".
std::string formatNumber(double value);

/// One field as RFC 4180 wants it: quoted (with quotes doubled) when it contains the delimiter
/// or any other that readCsv detects (',', ';', tab), a double quote, CR or LF, or starts or
/// ends with a space or tab (readers trim those). So readCsv reads formatCsv's text back to the
/// same table whatever the delimiter (header names without surrounding blanks).
std::string quoteCsvField(std::string_view field, char delimiter = ',');

/// The whole CSV text: header line then one line per row, "\n" line ends, UTF-8 without BOM.
/// An empty field in a one-column table is written as "" so that the line is not blank.
/// Throws std::invalid_argument when a row's length differs from the header's or the delimiter
/// is a quote, CR or LF.
std::string formatCsv(const std::vector<std::string>& header,
                      const std::vector<std::vector<std::string>>& rows, char delimiter = ',');
void writeCsvAtomic(const std::string& path, const std::vector<std::string>& header,
                    const CsvRows& rows, char delimiter = ',');
/// The same for a table's rows (CsvTable::rows).
std::string formatCsv(const std::vector<std::string>& header, const CsvRows& rows,
                      char delimiter = ',');

/// formatCsv written atomically to `path` (see writeTextAtomic).
void writeCsvAtomic(const std::string& path, const std::vector<std::string>& header,
                    const std::vector<std::vector<std::string>>& rows, char delimiter = ',');

/// Writes `text` to a temporary file `.NAME.tmp-XXXXXX` beside `path`, flushes it to disk and
/// renames it to `path`. On any failure the temporary file is removed, whatever was at `path`
/// is left untouched, and std::runtime_error names the path and the reason. A replaced file
/// keeps its permissions; a new one gets the usual 0666 minus the umask.
void writeTextAtomic(const std::string& path, std::string_view text);

}  // namespace dpsynth::core::data
