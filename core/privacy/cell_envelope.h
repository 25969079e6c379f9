#pragma once
/// The envelope of the exact sampler: a partition of parameter space into boxes ("cells"),
/// each with its base probability m (the product of its axes' masses) and a bound B >= sup of
/// the log target ℓ over it (cell_target.h). Proposals pick a cell with probability
/// ∝ m·e^B and a point in it from the base restricted to it; accepting with e^(ℓ − B) gives an
/// exact draw of base·e^ℓ whatever the cells are, so cells may be chosen using the data: only
/// the running time depends on them.
///
/// Refinement splits, A*-style, the cell whose envelope weight m·(e^B − e^lower) exceeds the
/// target most, at the probability midpoint of whichever axis leaves the smaller weight, until
/// Σ m·e^lower >= goal · Σ m·e^B (so that at least that share of proposals is accepted) or a
/// budget is spent. Deterministic: no randomness is used to build it.
#include <array>
#include <cstddef>
#include <queue>
#include <stop_token>
#include <vector>

#include "core/privacy/cell_target.h"
#include "core/random/rng.h"

namespace dpsynth::core::privacy {

class CellEnvelope {
 public:
  /// Cuts each axis into `perAxis` pieces of equal base probability. maxCells and maxWork (the
  /// number of bound evaluations × distinct terms) bound the refinement's cost.
  CellEnvelope(const CellTarget& target, int perAxis, std::size_t maxCells, double maxWork);

  /// Refines towards `goal` (see above); false when stopped through `stop` (then the envelope
  /// is still valid, only coarser).
  bool refine(double goal, const std::stop_token& stop);

  /// Σ m·e^lower / Σ m·e^B: a lower bound on the probability that a proposal is accepted.
  double acceptanceBound() const;
  std::size_t cells() const { return cells_.size(); }
  bool budgetLeft() const;
  /// Allows `work` more refinement work (the sampler does when proposals keep failing).
  void allowMoreWork(double work) { maxWork_ = work_ + work; }
  bool cellsLeft() const { return cells_.size() < maxCells_; }

  struct Proposal {
    Point theta{};
    double bound = 0.0;  ///< B of the proposal's cell
    bool valid = true;   ///< false when rounding put θ on the support's edge (draw again)
  };
  /// One proposal: a cell ∝ m·e^B, then θ from the base restricted to it.
  Proposal propose(random::Rng& rng) const;

 private:
  struct Cell {
    Box box;
    double logMass = 0.0;
    double upper = 0.0;
    double lower = 0.0;
    bool splittable = true;
    unsigned version = 0;
    std::array<double, 2> spread{};  ///< BoxBound::spread
  };

  Cell makeCell(const Box& box) const;
  double weight(const Cell& c) const;     ///< m·e^(B − ref)
  double lowWeight(const Cell& c) const;  ///< m·e^(lower − ref)
  void place(std::size_t index, Cell cell);
  bool split(std::size_t index);
  void recomputeSums();
  void rebuildTree();
  static double logGap(const Cell& c);

  // Fenwick tree over the cells' weights: sampling and updates in O(log cells).
  void treeAdd(std::size_t index, double delta);
  std::size_t treeFind(double target) const;
  double treePrefix(std::size_t count) const;

  const CellTarget& target_;
  std::size_t maxCells_;
  double maxWork_;
  double work_ = 0.0;
  double ref_ = 0.0;  ///< log m + B of the heaviest cell at the last re-reference
  std::vector<Cell> cells_;
  std::vector<double> tree_;
  double treeTotal_ = 0.0;  ///< the tree's own sum, as of the last refine()
  double upperSum_ = 0.0;
  double lowerSum_ = 0.0;
  double lastSum_ = 0.0;  ///< upperSum_ when the sums were last recomputed
  std::size_t splitsSinceSum_ = 0;
  struct Entry {
    double gap;  ///< logGap() of the cell when queued
    std::size_t index;
    unsigned version;
    bool operator<(const Entry& o) const {
      return gap < o.gap || (gap == o.gap && index > o.index);
    }
  };
  std::priority_queue<Entry> queue_;
};

}  // namespace dpsynth::core::privacy
