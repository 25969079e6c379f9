// The coverage study's tables: coverage per ε × class probability, in JSON and in Markdown with
// a published table (004 Table 1) beside it.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/data/csv_writer.h"
#include "core/report/ownership_manifest.h"
#include "core/study/coverage_study.h"
#include "core/summary/results_rows.h"

namespace dpsynth::core::study {
namespace {

std::size_t coverageColumn(const char* name) {
  const auto header = coverageHeader();
  return static_cast<std::size_t>(std::find(header.begin(), header.end(), name) - header.begin());
}

/// A number field of the coverage rows, read by the rows' one CSV number codec.
double coverageNumber(const std::string& text) {
  std::optional<double> v;
  try {
    v = summary::csvNumber("coverage", text);
  } catch (const std::invalid_argument&) {
  }
  if (!v) throw ConfigError("coverage rows: '" + text + "' is not a number");
  return *v;
}

std::string significant(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3g", x);
  return buffer;
}

std::string fixed(double x, int digits) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.*f", digits, x);
  return buffer;
}

}  // namespace

std::vector<CoverageCell> summarizeCoverage(const std::vector<std::vector<std::string>>& rows) {
  const std::size_t eps = coverageColumn("epsilon"), par = coverageColumn("parameter"),
                    truth = coverageColumn("truth"), covered = coverageColumn("covered"),
                    meanAcc = coverageColumn("mean_acceptance"),
                    minAcc = coverageColumn("min_acceptance"),
                    bound = coverageColumn("acceptance_bound");
  std::vector<CoverageCell> cells;
  for (const auto& row : rows) {
    if (row.size() != coverageHeader().size())
      throw ConfigError("coverage rows: a row has the wrong width");
    auto it = std::find_if(cells.begin(), cells.end(), [&](const CoverageCell& c) {
      return c.epsilon == row[eps] && c.parameter == row[par];
    });
    if (it == cells.end()) {
      CoverageCell cell;
      cell.epsilon = row[eps];
      cell.parameter = row[par];
      cell.truth = coverageNumber(row[truth]);
      cell.acceptanceBound = coverageNumber(row[bound]);
      cells.push_back(cell);
      it = cells.end() - 1;
    }
    it->meanAcceptance += coverageNumber(row[meanAcc]);
    it->minAcceptance = std::min(it->minAcceptance, coverageNumber(row[minAcc]));
    it->covered += row[covered] == "1" ? 1 : 0;
    ++it->replicates;
  }
  for (auto& c : cells) c.meanAcceptance /= c.replicates;
  return cells;
}

std::vector<std::string> coverageOutputNames() { return {"coverage.json", "coverage.md"}; }

void writeCoverageOutputs(const std::string& folder, const CoverageConfig& config,
                          const std::vector<std::vector<std::string>>& rows) {
  const auto cells = summarizeCoverage(rows);
  nlohmann::json list = nlohmann::json::array();
  for (const auto& c : cells)
    list.push_back({{"epsilon", coverageNumber(c.epsilon)},
                    {"parameter", c.parameter},
                    {"truth", c.truth},
                    {"replicates", c.replicates},
                    {"covered", c.covered},
                    {"coverage", c.coverage()},
                    {"mean_acceptance", c.meanAcceptance},
                    {"min_acceptance", c.minAcceptance},
                    {"acceptance_bound", c.acceptanceBound}});
  const nlohmann::json summary{
      {"kind", "da-coverage"}, {"level", config.level}, {"internal_study", true}, {"cells", list}};
  data::writeTextAtomic((std::filesystem::path(folder) / "coverage.json").string(),
                        summary.dump(2) + "\n");

  std::ostringstream md;
  const auto layout = config.layout();
  md << "# Coverage of " << fixed(100 * config.level, 0) << "% credible intervals for P(Y = i)\n\n"
     << "Naive Bayes, N = " << config.records << ", I = " << layout.classCount()
     << ", K = " << layout.featureCount() << "; " << config.iterations << " sweeps ("
     << config.warmup << " warm-up) × " << config.chains << " chain(s) per replicate. "
     << "An internal simulation study (seeded noise), not a release.\n\n";
  const bool reference = !config.reference.empty();
  md << "| ε | replicates |";
  for (int i = 0; i < layout.classCount(); ++i)
    md << " p" << (i + 1) << " = "
       << fixed(config.classProbabilities[static_cast<std::size_t>(i)], 3) << " |";
  md << " mean acceptance | min acceptance | e^−ε |\n|---|---|";
  for (int i = 0; i < layout.classCount(); ++i) md << "---|";
  md << "---|---|---|\n";
  for (std::size_t first = 0; first < cells.size();
       first += static_cast<std::size_t>(layout.classCount())) {
    const CoverageCell& head = cells[first];
    const auto ref = config.reference.find(head.epsilon);
    md << "| " << head.epsilon << " | " << head.replicates << " |";
    for (int i = 0; i < layout.classCount() && first + static_cast<std::size_t>(i) < cells.size();
         ++i) {
      md << ' ' << fixed(cells[first + static_cast<std::size_t>(i)].coverage(), 2);
      if (reference && ref != config.reference.end())
        md << " (" << fixed(ref->second[static_cast<std::size_t>(i)], 2) << ")";
      md << " |";
    }
    md << ' ' << fixed(head.meanAcceptance, 3) << " | " << significant(head.minAcceptance) << " | "
       << significant(head.acceptanceBound) << " |\n";
  }
  if (reference)
    md << "\nIn parentheses: "
       << (config.referenceName.empty() ? "the reference table" : config.referenceName)
       << ". With R replicates a coverage has Monte Carlo standard error about √(c(1 − c)/R)"
       << " (0.03 at c = 0.9, R = 100).\n";
  data::writeTextAtomic((std::filesystem::path(folder) / "coverage.md").string(), md.str());
  // Recorded as dpsynth's: the next run into the folder replaces them, and nothing else of those
  // names (the study's folder may be one the user keeps other files in).
  report::recordOwnedFiles(folder, coverageOutputNames());
}

}  // namespace dpsynth::core::study
