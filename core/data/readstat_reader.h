#pragma once
/// SPSS, Stata and SAS files read with ReadStat (Debian package libreadstat-dev) into the table
/// a CSV gives (CsvTable), so that everything downstream works unchanged:
/// - a numeric column's cells are its numbers as formatNumber writes them, a string column's
///   its text; system missing, Stata's and SAS's tagged missing (.a–.z) and SPSS's user-defined
///   missing values (codes and ranges) are all empty cells, i.e. missing;
/// - a column with value labels that cover every value present holds the label text, and its
///   labels in the file's order are its levels (ColumnInfo::labelsAreLevels); labels of missing
///   codes are not levels. A column with labels on some values only keeps its codes;
/// - the variable label, the value labels and the display format are kept in
///   CsvTable::columns; dates and times are recognised from the format (ColumnInfo::kind), and
///   what their numbers count from the format and the program (ColumnInfo::unit);
/// - CsvTable::lineOfRow holds case numbers (1, 2, ...).
#include <optional>
#include <string>
#include <string_view>

#include "core/data/csv_table.h"
#include "core/data/read_control.h"
#include "core/data/stat_format.h"

namespace dpsynth::core::data {

/// Parses the bytes of a statistical file (read with readRegularFile, so its size and kind were
/// checked). Throws DataError naming `file` for a damaged, truncated or mislabelled file (a CSV
/// named .sav), a file without variables, and duplicate or empty variable names; never reads
/// outside `bytes`. nullopt when control.stop was requested (checked every 65536 values and at
/// every progress report); progress as ReadProgress::bytesParsed of the file's size.
std::optional<CsvTable> parseStatFile(std::string_view bytes, const std::string& file,
                                      StatFormat format, const ReadControl& control);

}  // namespace dpsynth::core::data
