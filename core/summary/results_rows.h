#pragma once
/// The results table of a run in the layout of 002's Table 2: one "confidential" row with the
/// data's own statistics, then one row per mechanism. Typed rows; text only at the edge, through
/// the CSV codec below (results.csv, a study's replicates.csv). The studio's table, results.csv,
/// the internal report and studies all show these rows, so they cannot disagree.
#include <Eigen/Dense>
#include <cstdint>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "core/data/dataset.h"
#include "core/pipeline/pipeline.h"

namespace dpsynth::core::summary {

struct ResultsRow {
  std::string mechanism;                   ///< "confidential", or the mechanism's label
  std::string guarantee;                   ///< "none" | "aDP" | "DP"; empty for "confidential"
  std::optional<double> lipschitz;         ///< Δ of the final fit (none for ph and "confidential")
  std::optional<double> epsilon;           ///< asked ε (DP) or ε_x = 2Δ
  std::optional<std::size_t> censored;     ///< censor-uw, censor-w
  std::optional<std::size_t> truncated;    ///< weighted-e
  std::optional<double> maxEcdf, avgEcdf;  ///< against the confidential data
  double mean = 0, median = 0, q15 = 0, q90 = 0;  ///< of the (first) synthetic dataset
  /// The ε target asked for, and whether the mechanism used it (pipeline::usesEpsilonTarget):
  /// for lw, cw, lw-final, cw-final and unweighted `epsilon` is an outcome, not the target.
  /// Not among the CSV columns.
  std::optional<double> epsilonTarget;
  bool targetIgnored = false;
  /// pipeline::judge on the first synthetic dataset; empty reasons when usable. Not among the
  /// CSV columns.
  bool usable = true;
  std::vector<std::string> verdictReasons;
  /// The mechanism draws the outcome ignoring the covariates (ph; pipeline::marginalOnly).
  bool marginalOnly = false;
  /// Utility that sees the covariates (utility/regression_utility.h), against the confidential
  /// data: mean CI overlap and max standardized difference of the model's GLM coefficients,
  /// pMSE of a logistic propensity model, max |group mean difference| over the levels of the
  /// categorical covariates. None for "confidential", for models without covariates, and for
  /// a fit that could not be made.
  std::optional<double> ciOverlap, maxStdDiff, pmse, maxGroupMeanDiff;
  /// Empirical disclosure risk (pipeline/disclosure.h): computed from the confidential data,
  /// internal only. None for "confidential" and where a measure is undefined.
  std::optional<double> replicatedUniques, attributeCap, attributeCapBaseline, dcrShare;

  bool isConfidential() const { return mechanism == "confidential"; }
  /// The value of a numeric CSV column by its name ("max_ecdf", "pmse", ...): none where the
  /// row has none, for "marginal_only" and for a column that is not numeric. Throws
  /// std::invalid_argument for a name that is not a column of resultsHeader().
  std::optional<double> number(const std::string& column) const;
};

/// One label per mechanism of the run, used in file names and table rows: the mechanism's name
/// ("censor-w"), or "censor-w-2", "censor-w-3"... for the second and later runs of a mechanism
/// that occurs more than once (e.g. at two values of ε).
std::vector<std::string> mechanismLabels(const pipeline::RunResult& run);

/// Rows for the given first synthetic dataset of each mechanism (synthetic[j] belongs to
/// run.mechanisms[j]). Throws std::invalid_argument when the sizes do not match. The utility
/// measures take seconds on 10^6 records: `stop` ends them with exec::Cancelled. Front ends
/// call summarizeRun (run_summary.h), which draws the datasets with the run's one seed rule.
std::vector<ResultsRow> resultsTable(const data::Dataset& dataset, const pipeline::RunResult& run,
                                     const std::vector<Eigen::VectorXd>& firstSynthetic,
                                     const std::stop_token& stop = {});

// --- The CSV codec (results.csv; the results part of a study's replicates.csv) -------------

/// "mechanism", "guarantee", "lipschitz", "epsilon", "censored", "truncated", "max_ecdf",
/// "avg_ecdf", "mean", "median", "q15", "q90", then (added later, at the end) "marginal_only",
/// "ci_overlap", "max_std_diff", "pmse", "max_group_mean_diff", "replicated_uniques",
/// "attribute_cap", "attribute_cap_baseline", "dcr_share". Outside scripts read the columns by
/// name: new ones go at the end, none is renamed.
const std::vector<std::string>& resultsHeader();

/// A row as CSV fields in resultsHeader() order: numbers as data::formatNumber (exact,
/// round-trip), empty for n/a; marginal_only "true"/"false" ("" for "confidential").
std::vector<std::string> resultsCsvFields(const ResultsRow& row);
std::vector<std::vector<std::string>> resultsCsvRows(const std::vector<ResultsRow>& rows);

/// The row back from its CSV fields (resultsCsvFields(r) read back gives r's CSV columns; the
/// fields outside the CSV keep their defaults). Throws std::invalid_argument naming the column
/// for a field count other than resultsHeader()'s or a field that is not a number where one
/// belongs.
ResultsRow resultsRowFromCsv(const std::vector<std::string>& fields);

/// A number field as data::formatNumber writes it: its digits, "Inf" or "-Inf"; nullopt for ""
/// (none, or NaN). Throws std::invalid_argument naming `column` for anything else.
std::optional<double> csvNumber(const std::string& column, const std::string& text);

/// Writes header + rows atomically (data::writeCsvAtomic). Readable by R, Stata and Excel.
void writeResultsCsv(const std::string& path, const std::vector<ResultsRow>& rows);

}  // namespace dpsynth::core::summary
