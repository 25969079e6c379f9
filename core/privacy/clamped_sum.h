#pragma once
/// The clamped log pseudo-likelihood Σ_i clamp(α_i f_i, L, U) over distinct (y, α) terms, and
/// its bound over a box from what a family knows about each distinct y's f there (see
/// cell_target.h for the two forms and why both).
#include <Eigen/Dense>
#include <array>
#include <span>
#include <vector>

#include "core/privacy/cell_target.h"

namespace dpsynth::core::privacy::detail {

/// A closed interval of reals (ends may be infinite).
struct Interval {
  double lo = 0.0;
  double hi = 0.0;
};

/// Product of two intervals.
Interval times(const Interval& a, const Interval& b);
Interval plus(const Interval& a, const Interval& b);

/// What a family knows about one distinct outcome's log-likelihood f over a box.
struct PatternRange {
  double fLo = 0.0;      ///< <= inf f over the box (may be −∞)
  double fHi = 0.0;      ///< >= sup f over the box (may be +∞)
  double fCentre = 0.0;  ///< f at the box's centre (mean-value form only)
  /// Ranges of ∂f/∂x_j over the box in the family's mean-value coordinates (x_j a monotone
  /// function of axis j; mean-value form only).
  std::array<Interval, 2> gradient{};
};

/// Offsets of the box's ends from its centre in the mean-value coordinates: lo <= 0 <= hi.
using Offsets = std::array<Interval, 2>;

class ClampedSum {
 public:
  /// Groups the records by exact equality of (y, α); records with α = 0 contribute
  /// clamp(0) = 0 and are dropped.
  ClampedSum(const Eigen::VectorXd& y, const std::vector<double>& alpha, double lower,
             double upper);

  /// The distinct outcomes, ascending; terms refer to them by index.
  const std::vector<double>& outcomes() const { return outcomes_; }
  /// Σ over terms of count · clamp(α f[pattern], L, U).
  double value(std::span<const double> f) const;
  /// Bound of the clamped sum over a box. meanValue: the ranges' fCentre and gradient are set
  /// and offsets holds the box's half-extents in the same coordinates (dim of them).
  BoxBound bound(std::span<const PatternRange> ranges, int dim, bool meanValue,
                 const Offsets& offsets) const;
  /// Per distinct outcome, the value v such that f <= v puts every term of that outcome at L
  /// (v = L / α for its smallest α): a term whose bound is below it is the constant L.
  std::vector<double> settledBelow() const;
  /// Distinct outcomes plus distinct terms: the work of one value() or bound().
  std::size_t cost() const { return outcomes_.size() + terms_.size(); }
  /// Σ over records of max(|L|, |U|, 1).
  double scale() const { return scale_; }
  double lower() const { return lower_; }
  double upper() const { return upper_; }

 private:
  struct Term {
    std::size_t pattern;
    double alpha;
    double count;
  };
  double clamp(double v) const;

  std::vector<double> outcomes_;
  std::vector<Term> terms_;
  double lower_;
  double upper_;
  double scale_ = 0.0;
};

}  // namespace dpsynth::core::privacy::detail
