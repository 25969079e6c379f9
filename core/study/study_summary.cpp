#include "core/study/study_summary.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "core/data/csv_writer.h"
#include "core/study/study_row.h"
#include "core/study/study_runner.h"

namespace dpsynth::core::study {
namespace {

using nlohmann::json;

/// R's type 7: h = (n − 1)p, x[⌊h⌋] + (h − ⌊h⌋)(x[⌊h⌋+1] − x[⌊h⌋]) on the sorted values.
double quantile7(const std::vector<double>& sorted, double p) {
  const double h = (static_cast<double>(sorted.size()) - 1) * p;
  const auto lo = static_cast<std::size_t>(std::floor(h));
  const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (h - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

json number(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

json summariesJson(const std::vector<ColumnSummary>& summaries) {
  json columns = json::object();
  for (const auto& s : summaries)
    columns[s.column] = {{"n", s.n},
                         {"min", number(s.min)},
                         {"q1", number(s.q1)},
                         {"median", number(s.median)},
                         {"mean", number(s.mean)},
                         {"q3", number(s.q3)},
                         {"max", number(s.max)},
                         {"sd", number(s.sd)}};
  return columns;
}

/// Four significant digits for reading (summary.json keeps the exact values).
std::string cell(double v) {
  if (!std::isfinite(v)) return "NA";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.4g", v);
  return buffer;
}

std::string cellTitle(const CellSummary& c) {
  const auto header = studyHeader();
  if (c.keys.empty() || c.keys[0] == "confidential") return "confidential data";
  std::string title = c.keys[0];
  for (std::size_t k = 1; k < c.keys.size(); ++k)
    if (!c.keys[k].empty()) title += ", " + header[k + 2].substr(5) + " = " + c.keys[k];
  return title;
}

}  // namespace

ColumnSummary summarizeValues(const std::string& column, std::vector<double> values) {
  if (values.empty()) throw std::invalid_argument("summary of '" + column + "': no values");
  std::sort(values.begin(), values.end());
  ColumnSummary s;
  s.column = column;
  s.n = values.size();
  s.min = values.front();
  s.max = values.back();
  s.q1 = quantile7(values, 0.25);
  s.median = quantile7(values, 0.5);
  s.q3 = quantile7(values, 0.75);
  double sum = 0;
  for (double v : values) sum += v;
  s.mean = sum / static_cast<double>(s.n);
  double ss = 0;
  for (double v : values) ss += (v - s.mean) * (v - s.mean);
  s.sd = s.n > 1 ? std::sqrt(ss / static_cast<double>(s.n - 1)) : std::nan("");
  return s;
}

std::vector<CellSummary> summarizeStudy(const std::vector<std::vector<std::string>>& rows) {
  for (const auto& row : rows)
    if (row.size() != studyRowHeader().size())
      throw std::invalid_argument("study summary: a row has " + std::to_string(row.size()) +
                                  " fields, the header " + std::to_string(studyRowHeader().size()));
  return summarizeStudy(studyRowsFromCsv(rows));
}

std::vector<CellSummary> summarizeStudy(const std::vector<StudyRow>& rows) {
  // Cells in order of first appearance; the confidential rows (no cell) form one group.
  std::vector<std::optional<int>> order;
  std::vector<std::vector<const StudyRow*>> groups;
  for (const auto& row : rows) {
    const auto it = std::find(order.begin(), order.end(), row.cell);
    if (it == order.end()) {
      order.push_back(row.cell);
      groups.push_back({&row});
    } else {
      groups[static_cast<std::size_t>(it - order.begin())].push_back(&row);
    }
  }
  // The numeric columns in header order: the results' (text and flag columns have no number),
  // then the fit's diagnostics.
  using Value = std::function<std::optional<double>(const StudyRow&)>;
  std::vector<std::pair<std::string, Value>> numeric;
  for (const auto& name : summary::resultsHeader())
    numeric.emplace_back(name, [name](const StudyRow& r) { return r.results.number(name); });
  numeric.emplace_back("divergences", [](const StudyRow& r) {
    return r.divergences ? std::optional<double>(static_cast<double>(*r.divergences))
                         : std::nullopt;
  });
  numeric.emplace_back("max_rhat", [](const StudyRow& r) { return r.maxRhat; });
  numeric.emplace_back("seconds", [](const StudyRow& r) { return r.seconds; });

  std::vector<CellSummary> out;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const StudyRow& first = *groups[g].front();
    CellSummary c;
    c.cell = first.cell ? std::to_string(*first.cell) : std::string();
    c.keys = {first.keys.mechanism, first.keys.epsilonText(), first.keys.cText(),
              first.keys.gText(), first.keys.downscaleText()};
    for (const auto& [name, value] : numeric) {
      std::vector<double> values;
      for (const StudyRow* row : groups[g])
        if (const auto v = value(*row); v && !std::isnan(*v)) values.push_back(*v);
      if (!values.empty()) c.columns.push_back(summarizeValues(name, values));
    }
    for (const char* name : kRiskColumns)
      for (const auto& s : c.columns)
        if (s.column == name) c.disclosure.push_back(s);
    std::vector<double> gains;
    for (const StudyRow* row : groups[g])
      if (row->results.attributeCap && row->results.attributeCapBaseline)
        gains.push_back(*row->results.attributeCap - *row->results.attributeCapBaseline);
    if (!gains.empty()) c.disclosure.push_back(summarizeValues(kCapGainColumn, gains));
    out.push_back(std::move(c));
  }
  return out;
}

std::string summaryJson(const StudyConfig& config, const std::vector<CellSummary>& cells) {
  json list = json::array();
  const auto header = studyHeader();
  for (const auto& c : cells) {
    json keys = json::object();
    for (std::size_t k = 0; k < c.keys.size(); ++k) keys[header[k + 2]] = c.keys[k];
    const json risk = c.disclosure.empty() ? json(nullptr)
                                           : json{{"internal", true},
                                                  {"note", kRiskInternalLine},
                                                  {"columns", summariesJson(c.disclosure)}};
    list.push_back({{"cell", c.cell},
                    {"keys", keys},
                    {"columns", summariesJson(c.columns)},
                    {"disclosure_risk", risk}});
  }
  const json out{{"version", 1},
                 {"config", json::parse(studyConfigToJson(config))},
                 {"internal_study", config.source.bootstrap.has_value()},
                 {"not_for_release", true},
                 {"quantile_type", 7},
                 {"cells", list}};
  return out.dump(2) + "\n";
}

std::string summaryMarkdown(const StudyConfig& config, const std::vector<CellSummary>& cells) {
  // A bootstrap of confidential data says so on its first line, before anything else (SPEC §0).
  std::string md = config.source.bootstrap
                       ? std::string(kInternalStudyLine) + "\n\n# Study summary\n\n"
                       : std::string("# Study summary\n\n");
  if (config.source.generator) {
    md += "Source: " + config.source.generator->spelling() +
          ", n = " + std::to_string(config.source.n) + ".";
  } else {
    md += "Source: '" + config.source.bootstrap->file +
          "' resampled with replacement. This is an INTERNAL study of confidential data, "
          "never a release.";
  }
  md += " Replicates: " + std::to_string(config.replicates) + ", seed " +
        std::to_string(config.seed) + " (not for release).\n";
  if (!config.note.empty()) md += "\nNote: " + config.note + "\n";
  md +=
      "\nQuantiles are R's type 7; sd has the n − 1 divisor; 4 significant digits here, exact "
      "values in summary.json.\n";
  const auto table = [](const std::vector<ColumnSummary>& summaries, bool risk) {
    std::string t = "| column | n | Min | Q1 | Median | Mean | Q3 | Max | sd |\n";
    t += "|---|---|---|---|---|---|---|---|---|\n";
    for (const auto& s : summaries) {
      const bool isRisk = std::any_of(std::begin(kRiskColumns), std::end(kRiskColumns),
                                      [&](const char* name) { return s.column == name; });
      if (isRisk && !risk) continue;  // in the cell's disclosure table
      t += "| " + s.column + " | " + std::to_string(s.n) + " | " + cell(s.min) + " | " +
           cell(s.q1) + " | " + cell(s.median) + " | " + cell(s.mean) + " | " + cell(s.q3) + " | " +
           cell(s.max) + " | " + cell(s.sd) + " |\n";
    }
    return t;
  };
  for (const auto& c : cells) {
    md += "\n## " + cellTitle(c) + "\n\n" + table(c.columns, false);
    if (!c.disclosure.empty())
      md += "\n" + std::string(kRiskInternalLine) + "\n\n" + table(c.disclosure, true);
  }
  return md;
}

}  // namespace dpsynth::core::study
