#pragma once
/// negbin's coefficient prior with its scale integrated out: β | σ ~ Normal(0, σ) and
/// σ ~ half-Student-t(3, 0, 1) give β the one-dimensional marginal
///   p(β) = c/(2√(2π)) · G(β²/6),  G(a) = (1 + a)·eᵃE₁(a) − 1,  c = 4/(π√3),
/// (substitute t = 1/σ²: the integral is an exponential integral), so log p(β) and its
/// derivative are evaluated in closed form to rounding, no table needed. G grows like
/// −log a at 0 (p has an integrable spike at β = 0, where small σ pile up) and falls like 1/a²
/// (tails |β|⁻⁴). σ | β has, in s = 1 + 3/σ², the density ∝ (s − 1)/s² · e^{−as} on s > 1;
/// its distribution function is closed-form too (below), which gives the exact σ | β that
/// reports show (ScaleMixturePrior::sigmaFromScore).
///
/// The spike is harmless for the posterior but not for a leapfrog integrator: |d log p/dβ|
/// grows like 1/(|β| log(1/|β|)), and a step that lands within 10⁻³ posterior sd of 0 takes a
/// kick of thousands (a divergence). SpikeMap removes it: the sampled coordinate b maps to β by
/// an exact, monotone, C¹ map that is a shift away from 0 and inside |β| ≤ β₁ has
/// dβ/db = k/(log(1/|β|) + κ₀/2), which cancels the spike's two leading terms, so that the
/// prior density of b (p(β)·dβ/db) has a bounded gradient. Any such map leaves the posterior of
/// β exactly p(β)·likelihood; the map only changes the geometry the sampler sees.
#include <cmath>

namespace dpsynth::core::models {

class ScaleMixturePrior {
 public:
  /// κ₀ = log 6 − γ − 1: G(β²/6) = 2 log(1/|β|) + κ₀ + O(β² log(1/|β|)).
  static constexpr double kKappa0 = 0.21454380432652214;
  /// log(c/(2√(2π))), c = 4/(π√3): the normalising constant of p.
  static const double kLogNorm;

  /// log p(β), normalised; dLogDensity (if not null) = d log p / dβ. β = 0: +∞ with slope 0.
  static double logDensity(double beta, double* dLogDensity = nullptr);

  /// P(σ ≤ sigma | β) into lower and P(σ > sigma | β) into upper, each with full relative
  /// precision (neither is formed as 1 minus the other where that would cancel).
  static void conditionalCdf(double beta, double sigma, double& lower, double& upper);
  /// log density of log σ given β (normalised).
  static double conditionalLogDensityOfLogSigma(double beta, double logSigma);
  /// w = Φ⁻¹(P(σ ≤ sigma | β)): the normal score of sigma under σ | β.
  static double normalScore(double beta, double sigma);
  /// The σ whose normal score under σ | β is w (the inverse of normalScore): with w ~ N(0, 1)
  /// independent of β, σ is an exact draw of σ | β.
  static double sigmaFromScore(double beta, double w);

  /// G(a) and G′(a) for a > 0 (a = β²/6), to rounding: eᵃE₁(a) from Boost.Math below 1, a
  /// continued fraction arranged so that nothing cancels from 1 on (where (1 + a)eᵃE₁(a) − 1
  /// would lose 2·log10(a) digits).
  static double g(double a, double* dG = nullptr);
  /// eᵃE₁(a) for a > 0.
  static double scaledE1(double a);
};

/// The sampled coordinate b of one coefficient β (see the file comment). width β₁ in (0, 0.5]:
/// below the coefficient's posterior sd (negbin takes half its data scale, capped where p's own
/// core begins; NegbinLikelihood::spikeWidths); with
/// k = log(1/β₁) + κ₀/2 and L = 1 + κ₀/2,
///   |β| ≤ β₁: b = β (log(1/|β|) + L)/k,  |β| > β₁: b = β + sign(β) β₁/k,
/// continuous with its derivative at ±β₁. Inside, β = y/m with y = k|b| and
/// m = −W₋₁(−y e^{−L}) (Lambert W), so log(1/|β|) = m − L exactly.
class SpikeMap {
 public:
  static constexpr double kMaxWidth = 0.5;
  explicit SpikeMap(double width);

  double width() const { return width_; }
  /// b of β.
  double fromBeta(double beta) const;
  /// β of b, dβ/db into slope; logPrior = log p(β) + log dβ/db (the prior density of b) and
  /// its derivative in b into dLogPrior. At b = 0: β = 0, slope 0, the limit 2k·c/(2√(2π)).
  double toBeta(double b, double& slope, double& logPrior, double& dLogPrior) const;
  /// β of b, and dβ/db into slope, without the prior density.
  double toBeta(double b, double& slope) const;
  /// β of b only.
  double toBeta(double b) const {
    double slope = 0.0;
    return toBeta(b, slope);
  }

 private:
  double width_;
  double k_;
  double innerB_;  ///< b at β = β₁: β₁(1 + 1/k)
};

}  // namespace dpsynth::core::models
