#include "ui/workspaces/inference/release_from_data.h"

#include <algorithm>
#include <set>
#include <stdexcept>

namespace dpsynth::ui {
namespace {

std::vector<std::string> levelsOf(const core::data::CsvTable& table, std::size_t column,
                                  std::size_t cap) {
  std::set<std::string> seen;
  for (std::size_t r = 0; r < table.rows.size() && seen.size() <= cap; ++r) {
    seen.insert(std::string(table.rows[r][column]));
  }
  return {seen.begin(), seen.end()};
}

}  // namespace

std::vector<CategoricalColumn> categoricalColumns(const core::data::CsvTable& table) {
  std::vector<CategoricalColumn> out;
  for (std::size_t c = 0; c < table.header.size(); ++c) {
    std::vector<std::string> levels = levelsOf(table, c, kMaxLevels);
    if (levels.size() >= 2 && levels.size() <= static_cast<std::size_t>(kMaxLevels)) {
      out.push_back({table.header[c], std::move(levels)});
    }
  }
  return out;
}

DeclaredLevels parseDeclaredLevels(const std::string& text) {
  DeclaredLevels out;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    start = end + 1;
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (line.empty()) continue;
    const std::size_t eq = line.find('=');
    if (eq == std::string::npos || eq == 0) {
      throw std::invalid_argument("levels line '" + line + "': write column=level1|level2|...");
    }
    std::vector<std::string> levels;
    std::size_t from = eq + 1;
    for (;;) {
      const std::size_t bar = line.find('|', from);
      levels.push_back(line.substr(from, bar == std::string::npos ? std::string::npos : bar - from));
      if (bar == std::string::npos) break;
      from = bar + 1;
    }
    if (levels.size() < 2) {
      throw std::invalid_argument("levels line '" + line + "': declare at least two levels");
    }
    out[line.substr(0, eq)] = std::move(levels);
  }
  return out;
}

std::string formatDeclaredLevels(const std::vector<CategoricalColumn>& columns) {
  std::string out;
  for (const auto& c : columns) {
    out += c.name + "=";
    for (std::size_t l = 0; l < c.levels.size(); ++l) out += (l > 0 ? "|" : "") + c.levels[l];
    out += "\n";
  }
  return out;
}

core::infer::NaiveBayesRelease releaseFromTable(const core::data::CsvTable& table,
                                                const std::string& classColumn,
                                                const std::vector<std::string>& features,
                                                const DeclaredLevels& levels, double epsilon,
                                                core::privacy::BitSource& bits, bool notForRelease) {
  if (features.empty()) throw std::invalid_argument("choose at least one feature column");
  if (std::find(features.begin(), features.end(), classColumn) != features.end()) {
    throw std::invalid_argument("the class column " + classColumn + " cannot also be a feature");
  }
  const auto declared = [&levels](const std::string& column) {
    const auto it = levels.find(column);
    if (it == levels.end()) {
      throw std::invalid_argument("declare the public levels of " + column);
    }
    return it->second;
  };
  const std::size_t classIndex = table.columnIndex(classColumn);
  core::infer::NaiveBayesLayout layout;
  layout.classes = declared(classColumn);
  std::vector<std::size_t> columns;
  for (const auto& f : features) {
    columns.push_back(table.columnIndex(f));
    layout.features.push_back(f);
    layout.levels.push_back(declared(f));
  }
  const auto code = [&table](const std::vector<std::string>& known, std::string_view v,
                             std::size_t row, const std::string& column) {
    const auto it = std::find(known.begin(), known.end(), v);
    if (it == known.end()) {
      const std::size_t line = row < table.lineOfRow.size() ? table.lineOfRow[row] : row + 2;
      throw std::invalid_argument(table.file + " line " + std::to_string(line) + ", column " + column +
                                  ": '" + std::string(v) + "' is not one of the declared levels");
    }
    return static_cast<int>(it - known.begin());
  };
  std::vector<std::vector<int>> records;
  records.reserve(table.rows.size());
  for (std::size_t r = 0; r < table.rows.size(); ++r) {
    const auto row = table.rows[r];
    std::vector<int> codes{code(layout.classes, row[classIndex], r, classColumn)};
    for (std::size_t k = 0; k < columns.size(); ++k) {
      codes.push_back(code(layout.levels[k], row[columns[k]], r, features[k]));
    }
    records.push_back(std::move(codes));
  }
  return core::infer::makeNaiveBayesRelease(layout, records, epsilon, bits, notForRelease);
}

}  // namespace dpsynth::ui
