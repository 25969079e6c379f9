#pragma once
/// One coordinate of the exact sampler's parameter space with the distribution that proposals
/// are drawn from on it (SPEC §0 "exact sampling"). The envelope cuts the coordinate into
/// intervals [lo, hi] of the parameter itself (ends may be infinite); each axis gives the
/// interval's probability, its probability-midpoint (where a cell is split) and a draw from the
/// distribution restricted to it. All three are computed from the interval's ends with formulas
/// that keep their relative precision far into both tails, so that the envelope can follow a
/// posterior wherever it lies (a quantile of 1 − 10⁻³⁰ is not representable in double; the
/// probability of [10¹⁵, 10¹⁶] under a Cauchy is).
///
/// The kinds are the priors of the intercept-only models and a Cauchy base for location
/// parameters whose prior (a normal, or a scale mixture of normals) is folded into the target
/// instead (location_prior.h).
namespace dpsynth::core::privacy {

class PriorAxis {
 public:
  enum class Kind {
    cauchy,        ///< Cauchy(0, scale) on the real line
    halfCauchy,    ///< half-Cauchy(0, scale) on [0, ∞)
    unit,          ///< Uniform(0, 1) (beta's φ ~ Beta(1, 1))
    paretoExcess,  ///< e = λ − x_m ≥ 0 for λ ~ Pareto(x_m = scale, shape)
  };

  static PriorAxis cauchy(double scale) { return {Kind::cauchy, scale, 0.0}; }
  static PriorAxis halfCauchy(double scale) { return {Kind::halfCauchy, scale, 0.0}; }
  static PriorAxis unit() { return {Kind::unit, 1.0, 0.0}; }
  static PriorAxis paretoExcess(double scale, double shape) {
    return {Kind::paretoExcess, scale, shape};
  }

  Kind kind() const { return kind_; }
  double scale() const { return scale_; }
  /// The support's ends (−∞ or 0; 1 or +∞).
  double lowest() const;
  double highest() const;
  /// Probability of [lo, hi] (lowest() <= lo < hi <= highest()).
  double mass(double lo, double hi) const;
  /// The point of [lo, hi] that splits its probability into two halves.
  double split(double lo, double hi) const { return draw(lo, hi, 0.5); }
  /// The value whose probability below it, within [lo, hi], is the fraction u ∈ [0, 1] of the
  /// interval's: u uniform gives a draw from the distribution restricted to [lo, hi].
  double draw(double lo, double hi, double u) const;
  /// Log density at x (up to nothing: normalised), for tests of mass() and draw().
  double logDensity(double x) const;

 private:
  PriorAxis(Kind kind, double scale, double shape) : kind_(kind), scale_(scale), shape_(shape) {}

  Kind kind_;
  double scale_;
  double shape_;
};

namespace detail {
/// atan(b) − atan(a) for a <= b (either may be infinite), without the cancellation of the
/// plain difference when both lie far in one tail.
double atanDifference(double a, double b);
/// The x in [a, b] with atan(x) − atan(a) = delta (0 <= delta <= atanDifference(a, b)),
/// precise in both tails.
double atanAdvance(double a, double b, double delta);
}  // namespace detail

}  // namespace dpsynth::core::privacy
