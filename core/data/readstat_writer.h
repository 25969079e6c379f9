#pragma once
/// A table written as an SPSS (.sav), Stata (.dta) or SAS transport (.xpt) file with ReadStat's
/// writer, carrying the variable labels and value labels of its columns, so that a synthetic
/// file goes back to the analyst in the format (and with the labels) the data came in.
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "core/data/column_info.h"
#include "core/data/csv_rows.h"
#include "core/data/stat_format.h"

namespace dpsynth::core::data {

/// The bytes of a statistical file holding `rows` under `header`. infos[j] (may be empty: no
/// information) gives column j's variable label and value labels; when its labelsAreLevels the
/// cells hold label text and are written as their codes with the labels attached. A column
/// without labels is numeric when every non-empty cell is a number, otherwise a string column;
/// an empty cell is written as missing. Where the format cannot attach a column's labels
/// (SAS transport files have no value labels; Stata labels integers only) the label text itself
/// is written, as a string column. A date, datetime or time column (ColumnInfo::kind, with a
/// ColumnInfo::unit) gets the format's own display format (SPSS DATE11, DATETIME20, TIME8; Stata
/// %td, %tc; SAS DATE9, DATETIME20, TIME8) and its numbers are converted to what the format
/// counts (date_units.h); an SPSS number gets an F format fitted to its values
/// (display_format.h). The file's timestamp is fixed (2000-01-01 UTC), so the same
/// table gives the same bytes. Throws WriteError naming `path` when the format refuses a name,
/// a label or a value (e.g. a column name that is not a valid Stata name; a .xpt whose last
/// record is blank text only, which the format cannot tell from its padding) and
/// std::invalid_argument for a format dpsynth does not write (isWritableStatFormat). nullopt
/// when `stop` was requested (checked every 16384 rows).
std::optional<std::string> formatStatFile(StatFormat format, const std::string& path,
                                          const std::vector<std::string>& header,
                                          const std::vector<ColumnInfo>& infos, const CsvRows& rows,
                                          const std::stop_token& stop = {});

/// Checks, without data, that the columns can be written in `format` (names and labels the
/// format accepts): the same WriteError formatStatFile would throw, before any work is done.
/// With `rows` (a few cells that stand for a column's values: its longest, one that is not a
/// number), the columns' types and string widths are checked too.
void checkStatColumns(StatFormat format, const std::string& path,
                      const std::vector<std::string>& header, const std::vector<ColumnInfo>& infos,
                      const CsvRows* rows = nullptr);

}  // namespace dpsynth::core::data
