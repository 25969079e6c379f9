#include "core/infer/naive_bayes_records.h"

#include <algorithm>
#include <stdexcept>

#include "core/data/quote_value.h"

namespace dpsynth::core::infer {

NaiveBayesLayout declaredLayout(const std::string& classColumn,
                                const std::vector<std::string>& features,
                                const DeclaredLevels& levels) {
  if (features.empty()) throw std::invalid_argument("choose at least one feature column");
  if (std::find(features.begin(), features.end(), classColumn) != features.end())
    throw std::invalid_argument("the class column " + classColumn + " cannot also be a feature");
  const auto declared = [&levels](const std::string& column) {
    const auto it = levels.find(column);
    if (it == levels.end())
      throw std::invalid_argument("declare the public levels of " + column +
                                  " (they are not read from the confidential data)");
    return it->second;
  };
  NaiveBayesLayout layout;
  layout.classes = declared(classColumn);
  for (const auto& f : features) {
    layout.features.push_back(f);
    layout.levels.push_back(declared(f));
  }
  const auto problems = layout.validate();
  if (!problems.empty()) throw std::invalid_argument(problems.front());
  return layout;
}

std::optional<CodedRecords> naiveBayesRecords(const data::CsvTable& table,
                                              const std::string& classColumn,
                                              const NaiveBayesLayout& layout,
                                              const std::stop_token& stop) {
  const std::size_t classIndex = table.columnIndex(classColumn);
  std::vector<std::size_t> columns;
  for (const auto& f : layout.features) columns.push_back(table.columnIndex(f));
  const auto code = [&table](const std::vector<std::string>& known, std::string_view value,
                             std::size_t row, const std::string& column) {
    const auto it = std::find(known.begin(), known.end(), value);
    if (it == known.end()) {
      const std::size_t line = row < table.lineOfRow.size() ? table.lineOfRow[row] : row + 2;
      throw std::invalid_argument(table.file + " line " + std::to_string(line) + ", column " +
                                  column + ": " + data::quoteForMessage(value) +
                                  " is not one of the declared levels");
    }
    return static_cast<int>(it - known.begin());
  };
  CodedRecords records(columns.size() + 1);
  records.reserve(table.rows.size());
  for (std::size_t r = 0; r < table.rows.size(); ++r) {
    if ((r & 0xFFF) == 0 && stop.stop_requested()) return std::nullopt;
    const auto& row = table.rows[r];
    records.push(code(layout.classes, row[classIndex], r, classColumn));
    for (std::size_t k = 0; k < columns.size(); ++k)
      records.push(code(layout.levels[k], row[columns[k]], r, layout.features[k]));
  }
  return records;
}

}  // namespace dpsynth::core::infer
