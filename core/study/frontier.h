#pragma once
/// The frontier (issue 11): a study's rows reduced to one point per cell of the grid (mechanism
/// × ε × c, g, downscale) — the median and interquartile range over replicates of one utility
/// measure — with the guarantee each mechanism had as executed. Pure functions of the rows, so
/// the studio and a script reading replicates.csv draw the same frontier.
#include <optional>
#include <string>
#include <vector>

#include "core/pipeline/mechanism.h"
#include "core/study/study_row.h"
#include "core/study/study_summary.h"

namespace dpsynth::core::study {

/// The measures a frontier can show: the utility columns of report::resultsHeader() (the
/// columns after "truncated", except the "marginal_only" flag), in that order.
std::vector<std::string> frontierMeasures();

struct FrontierPoint {
  int cell = 0;                     ///< the cell's index (studyCells order)
  std::string mechanism;            ///< cell_mechanism
  std::optional<double> epsilon;    ///< the ε target of the cell, when the mechanism takes one
  std::optional<double> c, g;       ///< when the mechanism uses them
  bool hasDownscale = false;        ///< the mechanism takes a downscale d
  std::optional<double> downscale;  ///< with hasDownscale: a value, or nullopt = "auto"
  /// Where the point sits on the ε axis: the ε target, or for mechanisms whose ε is an outcome
  /// (unweighted, lw, lw-final, …) the median over replicates of the "epsilon" column (ε_x).
  double x = 0;
  /// Median, Q1 and Q3 (type 7, as summarizeValues) of the "epsilon" column (the ε the
  /// guarantee refers to: asked for DP, ε_x otherwise).
  ColumnSummary guaranteeEpsilon;
  ColumnSummary value;  ///< the measure over the replicates that have it (value.n of them)
  /// The weakest guarantee over the replicates' "guarantee" column (none < aDP < DP): what
  /// the report and the guarantee badge said for each run as executed.
  pipeline::Guarantee guarantee = pipeline::Guarantee::none;
  /// The strongest guarantee over the replicates: what the mechanism gives when its
  /// diagnostics pass (a DP mechanism whose fit failed them has none in that replicate).
  pipeline::Guarantee bestGuarantee = pipeline::Guarantee::none;
  /// Replicates whose run had no guarantee although the mechanism claims one
  /// (pipeline::guaranteeOf; its DP stage failed the diagnostics: such a release is refused).
  std::size_t withoutGuarantee = 0;
  bool marginalOnly = false;  ///< the rows' marginal_only flag ("true" in any replicate)
  /// Points of one line: the mechanism, plus its tuning for mechanisms with an ε target (so a
  /// c sweep of censor-w gives a line per c); mechanisms without an ε target form one line
  /// over their tuning (their ε_x moves with c and g).
  std::string series;

  /// The cell's keys, and as the rows spell them ("" for an axis the mechanism does not use,
  /// downscale "auto"): for labels and exported tables, never to be parsed back.
  CellKeys keys() const { return {mechanism, epsilon, c, g, hasDownscale, downscale}; }
  std::string epsilonText() const { return keys().epsilonText(); }
  std::string cText() const { return keys().cText(); }
  std::string gText() const { return keys().gText(); }
  std::string downscaleText() const { return keys().downscaleText(); }
};

/// One point per cell in order of first appearance, skipping the confidential rows and the
/// cells where no replicate has a value of `measure`. Within a series the points are sorted by
/// x. Throws std::invalid_argument for an unknown measure.
std::vector<FrontierPoint> frontierPoints(const std::vector<StudyRow>& rows,
                                          const std::string& measure);
/// The same for rows as the study's CSV holds them (decoded by studyRowsFromCsv:
/// std::invalid_argument for rows not in studyHeader() layout).
std::vector<FrontierPoint> frontierPoints(const std::vector<std::vector<std::string>>& rows,
                                          const std::string& measure);

/// "strict DP" for DP, "aDP" for aDP, "no guarantee" for none.
std::string frontierGuaranteeLabel(pipeline::Guarantee guarantee);

}  // namespace dpsynth::core::study
