#include "ui/workspaces/inference/release_from_data.h"

#include <algorithm>
#include <set>
#include <stdexcept>
#include <variant>

#include "core/data/data_file.h"
#include "core/data/regular_file.h"
#include "core/data/stat_format.h"
#include "core/infer/any_release.h"
#include "core/infer/naive_bayes_records.h"

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
      levels.push_back(
          line.substr(from, bar == std::string::npos ? std::string::npos : bar - from));
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

std::string formatDeclaredLevels(const DeclaredLevels& levels) {
  std::vector<CategoricalColumn> columns;
  for (const auto& [name, values] : levels) columns.push_back({name, values});
  return formatDeclaredLevels(columns);
}

DeclaredLevels declaredLevelsFromFile(const std::string& path, const std::string& classColumn) {
  const std::string text = core::data::readRegularFile(path, std::uint64_t{64} << 20);
  if (core::data::statFormatOf(path)) {
    // SPSS, Stata, SAS: a labelled column's levels are its value labels in label order, a
    // declaration of the file (labels without records included), not what the records hold.
    const core::data::CsvTable table = core::data::parseDataFile(text, path);
    DeclaredLevels out;
    for (auto& column : categoricalColumns(table)) out[column.name] = std::move(column.levels);
    for (std::size_t c = 0; c < table.columns.size(); ++c) {
      const auto& info = table.columns[c];
      if (!info.labelsAreLevels || info.valueLabels.size() < 2 ||
          info.valueLabels.size() > static_cast<std::size_t>(kMaxLevels))
        continue;
      std::vector<std::string> labels;
      for (const auto& v : info.valueLabels) labels.push_back(v.label);
      out[table.header[c]] = std::move(labels);
    }
    if (out.empty())
      throw std::invalid_argument(path + ": no column with 2 to " + std::to_string(kMaxLevels) +
                                  " distinct values");
    return out;
  }
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && text[first] == '{') {
    const core::infer::AnyRelease release = core::infer::readAnyRelease(text, path);
    const auto* nb = std::get_if<core::infer::NaiveBayesRelease>(&release);
    if (!nb) {
      const std::string kind =
          std::visit([](const auto& r) { return core::infer::releaseKind(r); }, release);
      throw std::invalid_argument(path + ": a " + kind +
                                  " release declares no levels; give a naive-Bayes release, a "
                                  "codebook or a public CSV");
    }
    DeclaredLevels out;
    for (std::size_t f = 0; f < nb->layout.features.size(); ++f)
      out[nb->layout.features[f]] = nb->layout.levels[f];
    if (!classColumn.empty()) out[classColumn] = nb->layout.classes;
    return out;
  }
  const std::string firstLine = text.substr(0, text.find('\n'));
  if (firstLine.find('=') != std::string::npos) {
    try {
      return parseDeclaredLevels(text);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(path + ": " + e.what());
    }
  }
  DeclaredLevels out;
  for (auto& column : categoricalColumns(core::data::parseCsv(text, path)))
    out[column.name] = std::move(column.levels);
  if (out.empty()) {
    throw std::invalid_argument(path + ": no column with 2 to " + std::to_string(kMaxLevels) +
                                " distinct values");
  }
  return out;
}

core::infer::NaiveBayesRelease releaseFromTable(const core::data::CsvTable& table,
                                                const std::string& classColumn,
                                                const std::vector<std::string>& features,
                                                const DeclaredLevels& levels, double epsilon,
                                                core::privacy::BitSource& bits,
                                                bool notForRelease) {
  // Core's one rule, as `dpsynth release --kind naive-bayes` codes them.
  const core::infer::NaiveBayesLayout layout =
      core::infer::declaredLayout(classColumn, features, levels);
  const auto records = core::infer::naiveBayesRecords(table, classColumn, layout);
  return core::infer::makeNaiveBayesRelease(layout, *records, epsilon, bits, notForRelease);
}

}  // namespace dpsynth::ui
