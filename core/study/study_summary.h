#pragma once
/// The distribution over replicates of every numeric column, per cell (002 Table 1 layout):
/// n, Min, Q1, Median, Mean, Q3, Max, sd. Quantiles are R's type 7 (linear interpolation
/// between order statistics, R's summary() default); sd has the n − 1 divisor (NaN for n = 1).
#include <string>
#include <vector>

#include "core/study/study_config.h"
#include "core/study/study_row.h"

namespace dpsynth::core::study {

struct ColumnSummary {
  std::string column;
  std::size_t n = 0;  ///< replicates with a value (empty fields are not applicable, skipped)
  double min = 0, q1 = 0, median = 0, mean = 0, q3 = 0, max = 0, sd = 0;
};

/// Distribution of one value list (n >= 1; throws std::invalid_argument when empty).
ColumnSummary summarizeValues(const std::string& column, std::vector<double> values);

struct CellSummary {
  std::string cell;               ///< the "cell" field ("" for the confidential rows)
  std::vector<std::string> keys;  ///< cell_mechanism, cell_epsilon, cell_c, cell_g, cell_downscale
  std::vector<ColumnSummary> columns;  ///< numeric columns with at least one value
  /// The empirical disclosure risk of the cell (kRiskColumns, then kCapGainColumn), those with
  /// at least one value. Computed from the data of each replicate: internal only, like every
  /// file of a study (SPEC §0), and the summaries say so.
  std::vector<ColumnSummary> disclosure;
};

/// The disclosure-risk columns of the results table (report/results_table.h) that a study
/// summarises per cell, as for the other measures.
inline constexpr const char* kRiskColumns[] = {"replicated_uniques", "attribute_cap",
                                               "attribute_cap_baseline", "dcr_share"};
/// attribute_cap − attribute_cap_baseline of each replicate (what the synthetic file adds to a
/// guess made without it), summarised over the replicates where both are defined.
inline constexpr const char* kCapGainColumn = "attribute_cap_gain";
/// The line the summaries give the disclosure risk.
inline constexpr const char* kRiskInternalLine =
    "Empirical disclosure risk of each replicate's first synthetic dataset against that "
    "replicate's data (after synthpop's replicated uniques, TCAP/DiSCO-style attribution and "
    "DCR): internal only, computed from the data, never for release.";

/// Summaries per cell, in order of first appearance in the rows. The numeric columns are every
/// numeric column of the rows (the results' and the fit's diagnostics), each over the rows that
/// have a value.
std::vector<CellSummary> summarizeStudy(const std::vector<StudyRow>& rows);
/// The same for rows as the study's CSV holds them (studyHeader() layout; decoded by
/// studyRowsFromCsv, std::invalid_argument for a row that is not in it).
std::vector<CellSummary> summarizeStudy(const std::vector<std::vector<std::string>>& rows);

/// summary.json: {"version": 1, "config": <canonical config>, "internal_study": true when the
/// source is a bootstrap, "quantile_type": 7, "cells": [...]}; each cell holds "columns" (every
/// numeric column) and "disclosure_risk" ({"internal": true, "note": kRiskInternalLine,
/// "columns": CellSummary::disclosure}, null for a cell without any).
std::string summaryJson(const StudyConfig& config, const std::vector<CellSummary>& cells);
/// The first line of a bootstrap study's summary.md and of its INTERNAL.txt: a resample of the
/// confidential data is internal, never a release (SPEC §0).
inline constexpr const char* kInternalStudyLine =
    "INTERNAL — a study of bootstrap replicates of confidential data: not for release, do not "
    "publish any file of this folder.";

/// summary.md: one table per cell, a row per column (002 Table 1 layout), numbers to 4
/// significant digits, the disclosure risk in a table of its own under kRiskInternalLine; a
/// bootstrap study's begins with kInternalStudyLine.
std::string summaryMarkdown(const StudyConfig& config, const std::vector<CellSummary>& cells);

}  // namespace dpsynth::core::study
