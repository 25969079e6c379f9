#pragma once
/// Cells of a regression design: runs of patterns that share their values in the design's
/// indicator columns (the intercept and the 0/1 dummies of text covariates). Within a cell those
/// columns add one constant to η, so a pass over the records forms η from the cell's offset and
/// the other columns only, and the indicators' gradient is a per-cell sum: a survey design with
/// a few continuous covariates beside its regions and sectors reads and multiplies three columns
/// per record instead of eight. The maths is the same; the additions come in another order.
#include <Eigen/Dense>
#include <cstddef>
#include <stop_token>
#include <vector>

#include "core/models/record_groups.h"

namespace dpsynth::core::models {

struct DesignCells {
  std::vector<int> cellColumns;  ///< m columns constant within every cell, in design order
  std::vector<int> readColumns;  ///< the other K − m columns, in design order
  std::vector<double> values;    ///< cells × m: each cell's values of cellColumns
  std::vector<std::ptrdiff_t>
      start;  ///< cells + 1 pattern boundaries; cell c is [start[c], start[c+1])

  int cells() const { return static_cast<int>(start.size()) - 1; }
};

/// A cell should hold at least this many patterns on average: each costs the vector kernels
/// a partial packet and a few sums, which this many records repay.
inline constexpr std::size_t kMinCellPatterns = 64;

/// Chooses the cell columns of groups.X and reorders its patterns by cell, the active patterns
/// still first (recordPattern and terms follow the patterns). Constant columns always join;
/// 0/1 columns join in design order while the patterns per cell stay ≥ kMinCellPatterns.
/// A cell never straddles the first inactive pattern. Checks `stop` (exec::Cancelled).
DesignCells orderByCells(RecordGroups& groups, const std::stop_token& stop = {});

}  // namespace dpsynth::core::models
