#include "core/report/results_table.h"

#include <cmath>
#include <map>
#include <stdexcept>

#include "core/data/csv_writer.h"
#include "core/pipeline/covariate_utility.h"
#include "core/pipeline/disclosure.h"
#include "core/pipeline/release_claim.h"
#include "core/pipeline/synthesis.h"
#include "core/pipeline/verdict.h"
#include "core/utility/utility.h"

namespace dpsynth::core::report {

std::vector<std::string> mechanismLabels(const pipeline::RunResult& run) {
  std::map<std::string, int> total;
  for (const auto& m : run.mechanisms) ++total[pipeline::mechanismName(m.config.mechanism)];
  std::map<std::string, int> seen;
  std::vector<std::string> labels;
  for (const auto& m : run.mechanisms) {
    const std::string name = pipeline::mechanismName(m.config.mechanism);
    const int occurrence = ++seen[name];
    // No mechanism name ends in "-<digit>", so a suffixed label never equals another name.
    labels.push_back(occurrence == 1 ? name : name + "-" + std::to_string(occurrence));
  }
  return labels;
}

std::vector<ResultsRow> resultsTable(const data::Dataset& dataset, const pipeline::RunResult& run,
                                     const std::vector<Eigen::VectorXd>& firstSynthetic,
                                     const std::stop_token& stop) {
  if (firstSynthetic.size() != run.mechanisms.size())
    throw std::invalid_argument("results table: one synthetic dataset per mechanism is needed");
  std::vector<ResultsRow> rows;
  const auto conf = utility::describe(dataset.y, stop);
  ResultsRow top;
  top.mechanism = "confidential";
  top.mean = conf.mean;
  top.median = conf.median;
  top.q15 = conf.q15;
  top.q90 = conf.q90;
  rows.push_back(top);

  const auto labels = mechanismLabels(run);
  for (std::size_t j = 0; j < run.mechanisms.size(); ++j) {
    const auto& m = run.mechanisms[j];
    ResultsRow row;
    row.mechanism = labels[j];
    row.guarantee = pipeline::guaranteeName(m.guarantee);
    if (m.final) row.lipschitz = m.final->lipschitz.max;
    row.epsilon = m.epsilon + pipeline::sizeEpsilon(m);  // the published ε (SPEC §0)
    row.censored = m.censoredRecords;
    row.truncated = m.truncatedRecords;
    const auto u = utility::measureUtility(dataset.y, firstSynthetic[j], stop);
    row.maxEcdf = u.maxEcdf;
    row.avgEcdf = u.avgEcdf;
    row.mean = u.mean;
    row.median = u.median;
    row.q15 = u.q15;
    row.q90 = u.q90;
    row.epsilonTarget = m.config.epsilon;
    row.targetIgnored = m.config.epsilon && !pipeline::usesEpsilonTarget(m.config.mechanism);
    const auto verdict = pipeline::judge(m, dataset.y, firstSynthetic[j]);
    row.usable = verdict.usable;
    row.verdictReasons = verdict.reasons;
    row.marginalOnly = pipeline::marginalOnly(m.config.mechanism);
    if (const auto cu = pipeline::covariateUtility(dataset, firstSynthetic[j],
                                                   m.sourceRows.get(), stop)) {
      const auto finite = [](double v) {
        return std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
      };
      row.ciOverlap = finite(cu->regression.meanOverlap);
      row.maxStdDiff = finite(cu->regression.maxStandardized);
      row.pmse = finite(cu->pmse);
      row.maxGroupMeanDiff = cu->maxGroupMeanDiff;
    }
    const auto risk = pipeline::disclosureRisk(dataset, firstSynthetic[j], m.sourceRows.get(),
                                               utility::kDefaultRiskTolerance, stop);
    row.replicatedUniques = risk.replicatedUniques;
    row.attributeCap = risk.attributeCap;
    row.attributeCapBaseline = risk.attributeCapBaseline;
    row.dcrShare = risk.dcrShare;
    rows.push_back(row);
  }
  return rows;
}

std::vector<ResultsRow> resultsTable(const data::Dataset& dataset, const pipeline::RunResult& run,
                                     const models::ModelSpec& model, std::uint64_t seed,
                                     const std::stop_token& stop) {
  std::vector<Eigen::VectorXd> first;
  for (const auto& m : run.mechanisms)
    first.push_back(pipeline::Synthesizer(dataset, m, model, seed, stop).draw(0, stop));
  return resultsTable(dataset, run, first, stop);
}

std::vector<std::string> resultsHeader() {
  return {"mechanism", "guarantee", "lipschitz", "epsilon", "censored", "truncated",
          "max_ecdf",  "avg_ecdf",  "mean",      "median",  "q15",      "q90",
          // Added after the first release: new columns go at the end, none is renamed.
          "marginal_only", "ci_overlap", "max_std_diff", "pmse", "max_group_mean_diff",
          // Empirical disclosure risk (internal: computed from the confidential data).
          "replicated_uniques", "attribute_cap", "attribute_cap_baseline", "dcr_share"};
}

std::vector<std::vector<std::string>> resultsCsvRows(const std::vector<ResultsRow>& rows) {
  const auto number = [](const std::optional<double>& v) {
    return v ? data::formatNumber(*v) : std::string();
  };
  const auto count = [](const std::optional<std::size_t>& v) {
    return v ? std::to_string(*v) : std::string();
  };
  std::vector<std::vector<std::string>> out;
  for (const auto& r : rows) {
    out.push_back({r.mechanism, r.guarantee, number(r.lipschitz), number(r.epsilon),
                   count(r.censored), count(r.truncated), number(r.maxEcdf), number(r.avgEcdf),
                   data::formatNumber(r.mean), data::formatNumber(r.median),
                   data::formatNumber(r.q15), data::formatNumber(r.q90),
                   r.mechanism == "confidential" ? std::string()
                                                 : std::string(r.marginalOnly ? "true" : "false"),
                   number(r.ciOverlap), number(r.maxStdDiff), number(r.pmse),
                   number(r.maxGroupMeanDiff), number(r.replicatedUniques),
                   number(r.attributeCap), number(r.attributeCapBaseline), number(r.dcrShare)});
  }
  return out;
}

void writeResultsCsv(const std::string& path, const std::vector<ResultsRow>& rows) {
  data::writeCsvAtomic(path, resultsHeader(), resultsCsvRows(rows));
}

}  // namespace dpsynth::core::report
