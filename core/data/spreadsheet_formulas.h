#pragma once
/// Text a spreadsheet would run: a cell that starts with =, +, -, @, a tab or a carriage return
/// and is no number opens in Excel (and others) as a formula. The synthetic CSV copies a public
/// covariate's text as it is, so that R and Stata read back the very values; a value like
/// "=HYPERLINK(…)" is then worth a warning before the file is shared.
#include <string>
#include <string_view>
#include <vector>

#include "core/data/csv_table.h"

namespace dpsynth::core::data {

/// True when a spreadsheet would take `cell` for a formula ("-3" and "+4" are numbers, not).
bool looksLikeFormula(std::string_view cell);

/// One warning per column of `columns` (names in `table`) holding such values, naming the
/// column, their count and the first; empty when none does.
std::vector<std::string> formulaLikeWarnings(const CsvTable& table,
                                             const std::vector<std::string>& columns);

}  // namespace dpsynth::core::data
