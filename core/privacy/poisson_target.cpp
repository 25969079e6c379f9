/// Poisson, intercept only: θ = β (log mean), prior Normal(0, 10) through a Cauchy base.
/// f(y; β) = yβ − e^β − log y! is concave in β with its maximum at β = log y (at −∞ for y = 0)
/// and ∂f/∂β = y − e^β decreasing, so over [a, b]: sup at clamp(log y, a, b), inf at an end,
/// derivative range [y − e^b, y − e^a].
#include <cmath>
#include <limits>
#include <vector>

#include "core/models/poisson_likelihood.h"
#include "core/privacy/clamped_sum.h"
#include "core/privacy/family_targets.h"
#include "core/privacy/location_prior.h"

namespace dpsynth::core::privacy::detail {

namespace {

class PoissonTarget final : public CellTarget {
  using Lik = models::PoissonLikelihood;

 public:
  explicit PoissonTarget(const ExactProblem& p)
      : sum_(p.y, p.alpha, p.lower, p.upper), prior_(LocationPrior::normal(Lik::kBetaSd)) {
    for (double y : sum_.outcomes()) data_.push_back(Lik::data(y));
    f_.resize(data_.size());
    ranges_.resize(data_.size());
  }

  int dim() const override { return 1; }
  const PriorAxis& axis(int) const override { return prior_.axis(); }
  double scale() const override { return sum_.scale(); }
  std::size_t cost() const override { return sum_.cost(); }

  double logTarget(const Point& theta) const override {
    const double beta = theta[0];
    const auto eta = Lik::etaTerms<false>(beta, {});
    for (std::size_t p = 0; p < data_.size(); ++p)
      f_[p] = Lik::record<false>(data_[p], beta, eta, {}).f;
    return sum_.value(f_) + prior_.logRatio(beta);
  }

  BoxBound bound(const Box& box) const override {
    const double a = box.lo[0], b = box.hi[0];
    const bool bounded = std::isfinite(a) && std::isfinite(b);
    const double c = bounded ? 0.5 * (a + b) : 0.0;
    const auto etaC = Lik::etaTerms<false>(c, {});
    for (std::size_t p = 0; p < data_.size(); ++p) {
      const Lik::Data& d = data_[p];
      PatternRange& r = ranges_[p];
      const double top = d.y > 0.0 ? std::clamp(std::log(d.y), a, b) : a;
      r.fHi = at(d, top);
      r.fLo = std::min(at(d, a), at(d, b));
      if (bounded) {
        r.fCentre = Lik::record<false>(d, c, etaC, {}).f;
        r.gradient[0] = {d.y - std::exp(b), d.y - std::exp(a)};
      }
    }
    BoxBound out = sum_.bound(ranges_, 1, bounded, {Interval{a - c, b - c}, Interval{}});
    out.upper += prior_.logRatioUpper(a, b);
    out.lower += prior_.logRatioLower(a, b);
    return out;
  }

  Eigen::VectorXd unconstrained(const Point& theta, random::Rng&) const override {
    return Eigen::VectorXd::Constant(1, theta[0]);
  }

 private:
  /// f(y; β) including its limits at β = ±∞.
  static double at(const Lik::Data& d, double beta) {
    if (beta == -std::numeric_limits<double>::infinity())
      return d.y == 0.0 ? -d.logGammaY1 : -std::numeric_limits<double>::infinity();
    if (beta == std::numeric_limits<double>::infinity())
      return -std::numeric_limits<double>::infinity();
    return d.y * beta - std::exp(beta) - d.logGammaY1;
  }

  ClampedSum sum_;
  LocationPrior prior_;
  std::vector<Lik::Data> data_;
  mutable std::vector<double> f_;  ///< work array: one sampler thread per target
  mutable std::vector<PatternRange> ranges_;
};

}  // namespace

std::unique_ptr<CellTarget> makePoissonTarget(const ExactProblem& problem) {
  return std::make_unique<PoissonTarget>(problem);
}

}  // namespace dpsynth::core::privacy::detail
