#pragma once
/// The target of the exact sampler (SPEC §0 "exact sampling"), family by family, and rigorous
/// bounds of it over boxes of parameter space.
///
/// An intercept-only model has one or two parameters θ, each on a PriorAxis. Relative to the
/// product of the axes' distributions (the base), the censored pseudo posterior has log density
///   ℓ(θ) = Σ_i clamp(α_i · log p(y_i | θ), L, U) + r(θ),
/// with r = log prior − log base (0 where the axis is the prior itself; a LocationPrior's ratio
/// for intercepts). bound(box) returns upper >= sup ℓ and lower <= inf ℓ over the box, for any
/// box, including unbounded ones. Records that share (y, α) are one term, so a bound costs
/// O(#distinct (y, α)).
///
/// How a bound is made (clamped_sum.h): each family bounds, for every distinct y, the value of
/// log p(y | θ) over the box (sup and inf, from concavity or monotonicity in each coordinate)
/// and, on bounded boxes, its partial derivatives. The clamped sum's bound is the smaller of
/// the sum of the terms' sups (exact per term, slack growing like n·width) and a mean-value
/// form ℓ(c) + Σ_j sup|∂_j ℓ|·half-width around the box's centre c, whose slack shrinks like
/// n·width², so that boxes the size of the posterior's spread suffice at any n.
#include <Eigen/Dense>
#include <array>
#include <memory>
#include <vector>

#include "core/models/family.h"
#include "core/privacy/prior_axis.h"
#include "core/random/rng.h"

namespace dpsynth::core::privacy {

/// A censored intercept-only pseudo posterior to sample exactly.
struct ExactProblem {
  models::Family family = models::Family::normal;
  Eigen::VectorXd y;          ///< the outcomes (n)
  std::vector<double> alpha;  ///< weights in [0, 1] (n), empty = all ones
  double lower = 0.0;         ///< the clamp [L, U]: L < 0 <= U, finite
  double upper = 0.0;
  double sdScale = 1.0;  ///< normal family: public prior scale

  /// Throws std::invalid_argument when the problem cannot be sampled (bad sizes, outcomes
  /// outside the family's support, weights outside [0, 1], an invalid clamp).
  void validate() const;
};

/// A point of parameter space: the value on each axis (the second unused for one axis).
using Point = std::array<double, 2>;

/// A box of parameter space: [lo_j, hi_j] on each axis; ends may be infinite.
struct Box {
  Point lo{};
  Point hi{};
};

struct BoxBound {
  double upper = 0.0;  ///< >= sup over the box of ℓ (a rounding margin included)
  double lower = 0.0;  ///< <= inf over the box of ℓ
  /// When the mean-value form gave the upper bound: each axis's share of its excess over the
  /// centre's value (else zeros). Tells refinement which axis to cut without trying both.
  std::array<double, 2> spread{};
};

/// Not thread-safe (work arrays are reused across calls): one sampler per target.
class CellTarget {
 public:
  virtual ~CellTarget() = default;
  /// Number of axes (1: poisson; 2: negbin, beta, normal).
  virtual int dim() const = 0;
  virtual const PriorAxis& axis(int j) const = 0;
  /// ℓ(θ) at a point with finite coordinates inside the axes' supports.
  virtual double logTarget(const Point& theta) const = 0;
  virtual BoxBound bound(const Box& box) const = 0;
  /// The model's unconstrained parameter vector at θ (models::makeModel's layout for the
  /// family, intercept-only). negbin draws its prior scale σ | β from rng (LocationPrior).
  virtual Eigen::VectorXd unconstrained(const Point& theta, random::Rng& rng) const = 0;
  /// Σ over records of max(|L|, |U|, 1): the size of ℓ's range, for rounding tolerances.
  virtual double scale() const = 0;
  /// Distinct outcomes plus distinct (outcome, α) terms: the cost of one bound() or
  /// logTarget() in units of one term.
  virtual std::size_t cost() const = 0;
};

/// The target of a validated problem (validate() is called here).
std::unique_ptr<CellTarget> makeCellTarget(const ExactProblem& problem);

}  // namespace dpsynth::core::privacy
