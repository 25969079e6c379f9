#pragma once
/// The prior of an intercept β (a location parameter) for the exact sampler: a scale mixture of
/// centred normals, π(β) = Σ_k w_k Normal(β | 0, σ_k), sampled through a Cauchy(0, S) base axis
/// (prior_axis.h) with the ratio r(β) = log π(β) − log Cauchy(β | 0, S) folded into the target.
/// The base reaches any real β (a normal prior's quantiles underflow beyond 38 sd), and r is
/// bounded above (each component has lighter tails than the base), with closed-form bounds over
/// any interval: both π and the base decrease in |β|, and each component's
/// log Normal(β|σ_k) + log(1 + β²/S²) is concave in β².
///
/// Two instances: one normal component (poisson β ~ Normal(0, 10), normal β ~ Normal(0, 10·s)),
/// and negbin's intercept with its prior scale integrated out: β | σ ~ Normal(0, σ) with
/// σ ~ half-Student-t(3, 0, 1) becomes the mixture over a fixed grid of σ (negbinIntercept()).
#include <vector>

#include "core/privacy/prior_axis.h"
#include "core/random/rng.h"

namespace dpsynth::core::privacy {

class LocationPrior {
 public:
  /// A single component: β ~ Normal(0, sd), base Cauchy(0, sd).
  static LocationPrior normal(double sd);
  /// negbin's intercept: σ on the grid log σ_k = kNegbinLogSigmaFrom + k·kNegbinLogSigmaStep
  /// (k = 0 .. kNegbinComponents − 1) with weights ∝ half-t(3)(σ_k)·σ_k — the trapezoid rule in
  /// log σ for ∫ Normal(β | 0, σ) half-t(3, 0, 1)(σ) dσ, whose integrand is smooth and decays
  /// exponentially in log σ both ways, so the rule converges geometrically. This fixed, public
  /// mixture *is* the prior the exact route states (σ takes the grid values; σ | β is drawn from
  /// it exactly). Base Cauchy(0, 1).
  static LocationPrior negbinIntercept();

  static constexpr double kNegbinLogSigmaFrom = -16.0;
  static constexpr double kNegbinLogSigmaStep = 0.2;
  static constexpr int kNegbinComponents = 131;  ///< log σ from −16 to 10

  const PriorAxis& axis() const { return axis_; }
  std::size_t components() const { return logWeight_.size(); }
  double componentSd(std::size_t k) const { return sd_[k]; }
  double componentWeight(std::size_t k) const;

  /// log π(β), normalised.
  double logDensity(double beta) const;
  /// r(β) = log π(β) − log base(β).
  double logRatio(double beta) const;
  /// Bounds of r over [lo, hi] (ends may be infinite): upper >= sup r, lower <= inf r.
  double logRatioUpper(double lo, double hi) const;
  double logRatioLower(double lo, double hi) const;
  /// A draw of the component index k given β: P(k | β) ∝ w_k Normal(β | 0, σ_k).
  std::size_t drawComponent(double beta, random::Rng& rng) const;

 private:
  LocationPrior(std::vector<double> sd, std::vector<double> weight, double baseScale);

  std::vector<double> sd_;
  std::vector<double> logWeight_;  ///< normalised
  PriorAxis axis_;
};

}  // namespace dpsynth::core::privacy
