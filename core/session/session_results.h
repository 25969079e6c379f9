#pragma once
/// The results of the last run that a session file may keep, so that reopening a session shows
/// them at once instead of re-sampling: the results table's rows, each parameter's posterior
/// summary and reductions of the per-record Lipschitz bounds and weights. Never the confidential
/// records, never one value per record, never draws.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace dpsynth::core::session {

/// A distribution reduced to a few numbers: count, mean and the quantiles at
/// kSummaryProbabilities (the first is the minimum, the last the maximum).
struct DistributionSummary {
  std::size_t count = 0;
  double mean = 0;
  std::vector<double> quantiles;  ///< one per kSummaryProbabilities entry; empty when count == 0
};

/// 0, 0.05, 0.10, …, 1: what a violin or box of the values can be drawn from.
const std::vector<double>& summaryProbabilities();
/// Reduces values (any order) to a DistributionSummary (type-7 quantiles).
DistributionSummary summarize(std::vector<double> values);

/// Posterior summary of one model parameter over the pooled post-warm-up draws.
struct ParameterSummary {
  std::string name;
  double mean = 0, sd = 0, q025 = 0, median = 0, q975 = 0;
};

/// One row of the results table (core::report::ResultsRow, which sits above this layer).
struct StoredRow {
  std::string mechanism;
  std::string guarantee;
  std::optional<double> lipschitz;
  std::optional<double> epsilon;
  std::optional<std::size_t> censored;
  std::optional<std::size_t> truncated;
  std::optional<double> maxEcdf, avgEcdf;
  double mean = 0, median = 0, q15 = 0, q90 = 0;
  std::optional<double> epsilonTarget;  ///< the ε asked for
  bool targetIgnored = false;           ///< ε is an outcome of this mechanism, not the target
  bool usable = true;                   ///< the verdict (pipeline::judge)
  std::vector<std::string> verdictReasons;
  bool marginalOnly = false;  ///< the mechanism ignores the covariates (ph)
  /// Utility that sees the covariates (ResultsRow); none without covariates.
  std::optional<double> ciOverlap, maxStdDiff, pmse, maxGroupMeanDiff;
};

/// What one mechanism's run leaves besides its row.
struct StoredMechanism {
  std::string mechanism;
  std::vector<std::string> warnings;
  double lipschitzMax = 0;
  DistributionSummary lipschitz;        ///< Δ_i of the final stage (empty for ph)
  DistributionSummary lipschitzBefore;  ///< Δ_i before re-weighting / truncation / censoring
  DistributionSummary weights;          ///< α_i of the final stage
  std::vector<ParameterSummary> parameters;
};

struct SessionResults {
  std::string createdAt;   ///< when the run finished, ISO 8601 UTC ("2026-11-23T06:50:00Z")
  std::string dataSha256;  ///< digest of the data the run was made on
  /// The settings on screen when the session was saved were not the ones of this run.
  bool settingsChanged = false;
  std::vector<StoredRow> rows;  ///< rows[0] is the "confidential" row
  std::vector<StoredMechanism> mechanisms;
};

}  // namespace dpsynth::core::session
