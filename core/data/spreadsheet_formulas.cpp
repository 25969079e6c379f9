#include "core/data/spreadsheet_formulas.h"

#include "core/data/quote_value.h"
#include "core/data/value_parsing.h"

namespace dpsynth::core::data {

bool looksLikeFormula(std::string_view cell) {
  if (cell.empty()) return false;
  switch (cell.front()) {
    case '=':
    case '@':
    case '\t':
    case '\r':
      return true;
    case '+':
    case '-':
      return !parseNumber(cell).has_value();
    default:
      return false;
  }
}

std::vector<std::string> formulaLikeWarnings(const CsvTable& table,
                                             const std::vector<std::string>& columns) {
  std::vector<std::string> warnings;
  for (const std::string& name : columns) {
    const std::size_t column = table.columnIndex(name);
    std::size_t count = 0;
    std::string_view first;
    for (std::size_t i = 0; i < table.rows.size(); ++i) {
      const std::string_view cell = table.rows[i][column];
      if (!looksLikeFormula(cell)) continue;
      if (count++ == 0) first = cell;
    }
    if (count == 0) continue;
    warnings.push_back("column " + quoteForMessage(name) + " has " + std::to_string(count) +
                       (count == 1 ? " value" : " values") +
                       " a spreadsheet would run as a formula (first: " + quoteForMessage(first) +
                       "); the synthetic CSV copies it as it is, which R and Stata read as "
                       "text, but Excel may not: check it before the file is shared");
  }
  return warnings;
}

}  // namespace dpsynth::core::data
