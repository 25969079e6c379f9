/// Normal, intercept only: θ = (μ, σ), μ ~ Normal(0, 10·s) through a Cauchy base, σ ~
/// half-Cauchy(0, 5·s) as its own axis. With d = y − μ and t = log σ,
/// f = −½ log 2π − t − d² e^{−2t} / 2. Over a box: sup takes |d| at its smallest and then
/// t* = log|d| clamped to the box (f is concave in t); inf takes |d| at its largest and an end
/// of t. Mean-value coordinates (μ, t): ∂f/∂μ = d e^{−2t} (a product of two intervals) and
/// ∂f/∂t = −1 + d² e^{−2t}.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "core/models/normal_likelihood.h"
#include "core/models/special_math.h"
#include "core/privacy/clamped_sum.h"
#include "core/privacy/family_targets.h"
#include "core/privacy/location_prior.h"

namespace dpsynth::core::privacy::detail {

namespace {

class NormalTarget final : public CellTarget {
  using Lik = models::NormalLikelihood;

 public:
  explicit NormalTarget(const ExactProblem& p)
      : sum_(p.y, p.alpha, p.lower, p.upper),
        prior_(LocationPrior::normal(Lik::kBetaSd * p.sdScale)),
        sigmaAxis_(PriorAxis::halfCauchy(Lik::kSigmaScale * p.sdScale)) {
    f_.resize(sum_.outcomes().size());
    ranges_.resize(sum_.outcomes().size());
    settled_ = sum_.settledBelow();
  }

  int dim() const override { return 2; }
  const PriorAxis& axis(int j) const override { return j == 0 ? prior_.axis() : sigmaAxis_; }
  double scale() const override { return sum_.scale(); }
  std::size_t cost() const override { return sum_.cost(); }

  double logTarget(const Point& theta) const override {
    const double mu = theta[0];
    const Lik::Params params = paramsAt(theta[1]);
    const auto& ys = sum_.outcomes();
    for (std::size_t p = 0; p < ys.size(); ++p)
      f_[p] = Lik::record<false>(Lik::data(ys[p]), mu, {}, params).f;
    return sum_.value(f_) + prior_.logRatio(mu);
  }

  BoxBound bound(const Box& box) const override {
    const double m1 = box.lo[0], m2 = box.hi[0], s1 = box.lo[1], s2 = box.hi[1];
    const bool bounded = std::isfinite(m1) && std::isfinite(m2) && s1 > 0.0 && std::isfinite(s2);
    const double t1 = std::log(s1), t2 = std::log(s2);
    const double muC = bounded ? 0.5 * (m1 + m2) : 0.0;
    const Lik::Params centre = paramsAt(bounded ? std::exp(0.5 * (t1 + t2)) : 1.0);
    const Interval w{1.0 / (s2 * s2), 1.0 / (s1 * s1)};  // e^{−2t}
    // f at the ends of [σ1, σ2] for a squared residual d2, without a logarithm per record.
    const End end1 = End::of(s1), end2 = End::of(s2);
    const auto& ys = sum_.outcomes();
    for (std::size_t p = 0; p < ys.size(); ++p) {
      const double y = ys[p];
      PatternRange& r = ranges_[p];
      const Interval d{y - m2, y - m1};
      const double nearest = d.lo <= 0.0 && d.hi >= 0.0 ? 0.0 : std::min(d.lo * d.lo, d.hi * d.hi);
      const double farthest = std::max(d.lo * d.lo, d.hi * d.hi);
      // sup over σ of −log σ − D/(2σ²) is at σ = √D (value −log √D − 1/2), clamped to [σ1, σ2].
      if (nearest <= s1 * s1) {
        r.fHi = end1.at(nearest);
      } else if (nearest >= s2 * s2) {
        r.fHi = end2.at(nearest);
      } else {
        r.fHi = -models::detail::kHalfLog2Pi - 0.5 * std::log(nearest) - 0.5;
      }
      if (r.fHi <= settled_[p]) {
        // At L over the whole box: its lower end, slope and centre value are those of L.
        r.fLo = -std::numeric_limits<double>::infinity();
        r.fCentre = r.fHi;
        r.gradient = {};
        continue;
      }
      r.fLo = std::min(end1.at(farthest), end2.at(farthest));
      if (bounded) {
        r.fCentre = Lik::record<false>(Lik::data(y), muC, {}, centre).f;
        r.gradient[0] = times(d, w);
        r.gradient[1] = {-1.0 + nearest * w.lo, -1.0 + farthest * w.hi};
      }
    }
    const Offsets offsets{Interval{m1 - muC, m2 - muC},
                          Interval{-0.5 * (t2 - t1), 0.5 * (t2 - t1)}};
    BoxBound out = sum_.bound(ranges_, 2, bounded, offsets);
    out.upper += prior_.logRatioUpper(m1, m2);
    out.lower += prior_.logRatioLower(m1, m2);
    return out;
  }

  Eigen::VectorXd unconstrained(const Point& theta, random::Rng&) const override {
    Eigen::VectorXd u(2);
    u << theta[0], std::log(theta[1]);
    return u;
  }

 private:
  static Lik::Params paramsAt(double sigma) {
    const double logSigma = std::log(sigma);
    return {std::exp(logSigma), logSigma, std::exp(-2.0 * logSigma)};
  }

  /// One end σ of an interval of σ, with what f needs there: f = −½ log 2π − log σ − d2/(2σ²)
  /// for a squared residual d2, with the limits at σ = 0 (−∞, or +∞ for d2 = 0) and σ = ∞.
  struct End {
    double sigma, logSigma, halfInvVar;
    static End of(double sigma) { return {sigma, std::log(sigma), 0.5 / (sigma * sigma)}; }
    double at(double d2) const {
      constexpr double kInf = std::numeric_limits<double>::infinity();
      if (std::isinf(d2) || std::isinf(sigma)) return -kInf;
      if (sigma == 0.0) return d2 > 0.0 ? -kInf : kInf;
      return -models::detail::kHalfLog2Pi - logSigma - d2 * halfInvVar;
    }
  };

  ClampedSum sum_;
  LocationPrior prior_;
  PriorAxis sigmaAxis_;
  std::vector<double> settled_;  ///< per outcome: f at or below this is clamped to L by every α
  mutable std::vector<double> f_;
  mutable std::vector<PatternRange> ranges_;
};

}  // namespace

std::unique_ptr<CellTarget> makeNormalTarget(const ExactProblem& problem) {
  return std::make_unique<NormalTarget>(problem);
}

}  // namespace dpsynth::core::privacy::detail
