/// Beta, intercept only: θ = (φ, e) with φ ~ Beta(1, 1) = Uniform(0, 1) and λ = 0.1 + e ~
/// Pareto(0.1, 1.5), both axes being the priors. With a = λφ and b = λ(1 − φ),
/// f = −log B(a, b) + (a − 1) log y + (b − 1) log(1 − y) is concave in (a, b) (log B is convex),
/// and a box in (φ, λ) is a convex quadrilateral in (a, b) with the box's corners as vertices
/// (or, for λ unbounded, a wedge of rays λ(φ, 1 − φ)). So:
///  - inf f over the box is at a corner;
///  - f lies below its tangent plane at the box's centre, and a plane's sup over the
///    quadrilateral is at a corner (along the rays when λ is unbounded: finite only if the
///    plane falls along both edge rays);
///  - ∂f/∂φ = λ(ψ(b) − ψ(a) + log y − log(1 − y)) and
///    ∂f/∂λ = ψ(λ) − φψ(a) − (1 − φ)ψ(b) + φ log y + (1 − φ) log(1 − y) are bounded with interval
///    arithmetic (ψ increasing) for the mean-value form.
/// The digammas and log-gammas depend on θ only, so each distinct y costs a few products.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <vector>

#include "core/models/beta_likelihood.h"
#include "core/models/special_math.h"
#include "core/privacy/clamped_sum.h"
#include "core/privacy/family_targets.h"

namespace dpsynth::core::privacy::detail {

namespace {

class BetaTarget final : public CellTarget {
  using Lik = models::BetaLikelihood;

 public:
  explicit BetaTarget(const ExactProblem& p)
      : sum_(p.y, p.alpha, p.lower, p.upper),
        phiAxis_(PriorAxis::unit()),
        excessAxis_(PriorAxis::paretoExcess(Lik::kLambdaMin, Lik::kLambdaShape)) {
    for (double y : sum_.outcomes()) data_.push_back(Lik::data(y));
    f_.resize(data_.size());
    ranges_.resize(data_.size());
    settled_ = sum_.settledBelow();
  }

  int dim() const override { return 2; }
  const PriorAxis& axis(int j) const override { return j == 0 ? phiAxis_ : excessAxis_; }
  double scale() const override { return sum_.scale(); }
  std::size_t cost() const override { return sum_.cost(); }

  double logTarget(const Point& theta) const override {
    const double eta = models::detail::logit(theta[0]);
    const Lik::Params params = paramsAt(std::log(theta[1]));
    const auto terms = Lik::etaTerms<false>(eta, params);
    for (std::size_t p = 0; p < data_.size(); ++p)
      f_[p] = Lik::record<false>(data_[p], eta, terms, params).f;
    return sum_.value(f_);
  }

  BoxBound bound(const Box& box) const override {
    using models::detail::digamma;
    using models::detail::logGamma;
    constexpr double kInf = std::numeric_limits<double>::infinity();
    const double p1 = box.lo[0], p2 = box.hi[0];
    const double l1 = Lik::kLambdaMin + box.lo[1], l2 = Lik::kLambdaMin + box.hi[1];
    const bool finiteLambda = std::isfinite(l2);
    const bool bounded = finiteLambda && p1 > 0.0 && p2 < 1.0;

    // The box's finite corners in (a, b) (λ unbounded: the two on λ = λ1, beyond which the
    // box runs along the rays λ(φ, 1 − φ)), with f's θ part at each.
    struct Corner {
      double a, b, theta;
    };
    std::array<Corner, 4> corners{};
    int count = 0;
    for (double lambda : {l1, l2}) {
      if (!std::isfinite(lambda)) continue;
      for (double phi : {p1, p2}) {
        Corner& k = corners[static_cast<std::size_t>(count++)];
        k.a = lambda * phi;
        k.b = lambda * (1.0 - phi);
        k.theta = logGamma(lambda) - logGamma(k.a) - logGamma(k.b);
      }
    }

    // Tangent points: the centre (λ unbounded: on the edge λ = λ1) and the corners inside
    // (0, 1) × finite λ. Each plane bounds f; their minimum is the bound, so a plane at the
    // corner where a far-off y's f peaks (small λ, flat density) makes that term's bound nearly
    // exact where the centre's plane, extrapolated over a wide box, would not.
    double phi0 = 0.5 * (p1 + p2);
    // At the edge of a box 1e-16 wide the midpoint can round onto 0 or 1: the inner end serves.
    if (!(phi0 > 0.0 && phi0 < 1.0)) phi0 = p1 > 0.0 ? p1 : p2;
    const double lambda0 = finiteLambda ? 0.5 * (l1 + l2) : l1;
    tangents_.clear();
    const auto addTangent = [&](double phi, double lambda) {
      Tangent t;
      const double a0 = lambda * phi, b0 = lambda * (1.0 - phi);
      if (!(a0 > 0.0 && b0 > 0.0)) return;
      const double logB0 = logGamma(a0) + logGamma(b0) - logGamma(lambda);
      t.gA = digamma(lambda) - digamma(a0);  // ∂(−log B)/∂a at the tangent point
      t.gB = digamma(lambda) - digamma(b0);
      for (int k = 0; k < count; ++k) {
        const Corner& c = corners[static_cast<std::size_t>(k)];
        t.plane[static_cast<std::size_t>(k)] = -logB0 + t.gA * (c.a - a0) + t.gB * (c.b - b0);
      }
      tangents_.push_back(t);
    };
    addTangent(phi0, lambda0);
    for (double lambda : {l1, l2})
      for (double phi : {p1, p2})
        if (std::isfinite(lambda) && phi > 0.0 && phi < 1.0) addTangent(phi, lambda);
    // Mean-value pieces (bounded boxes): ψ over the ranges of λ, a and b.
    const double aLo = l1 * p1, aHi = l2 * p2, bLo = l1 * (1.0 - p2), bHi = l2 * (1.0 - p1);
    Interval psiDiff{}, lambdaPart{};
    Lik::Params centre{};
    Lik::EtaTerms centreTerms{};
    double etaC = 0.0;
    if (bounded) {
      psiDiff = {digamma(bLo) - digamma(aHi), digamma(bHi) - digamma(aLo)};
      lambdaPart =
          plus(Interval{digamma(l1), digamma(l2)},
               plus(times(Interval{-p2, -p1}, Interval{digamma(aLo), digamma(aHi)}),
                    times(Interval{p1 - 1.0, p2 - 1.0}, Interval{digamma(bLo), digamma(bHi)})));
      etaC = models::detail::logit(phi0);
      centre = paramsAt(std::log(lambda0 - Lik::kLambdaMin));
      centreTerms = Lik::etaTerms<false>(etaC, centre);
    }

    for (std::size_t p = 0; p < data_.size(); ++p) {
      const Lik::Data& d = data_[p];
      PatternRange& r = ranges_[p];
      double top = kInf;
      // The centre's plane first; the others only while they can still matter, i.e. while the
      // term is not yet known to sit at the clamp's lower end L over the whole box (then it is
      // a constant, and nothing else about it is needed).
      for (const Tangent& t : tangents_) {
        if (top <= settled_[p]) break;
        if (!finiteLambda) {
          // Along the ray λ(φ, 1 − φ) the plane has slope (gA + log y)φ + (gB + log(1 − y))(1 − φ).
          const double sa = t.gA + d.logY, sb = t.gB + d.log1mY;
          if (sa * p1 + sb * (1.0 - p1) > 0.0 || sa * p2 + sb * (1.0 - p2) > 0.0) continue;
        }
        double plane = -kInf;
        for (int k = 0; k < count; ++k) {
          const Corner& c = corners[static_cast<std::size_t>(k)];
          plane = std::max(plane, t.plane[static_cast<std::size_t>(k)] + (c.a - 1.0) * d.logY +
                                      (c.b - 1.0) * d.log1mY);
        }
        top = std::min(top, plane);
      }
      r.fHi = top;
      if (top <= settled_[p]) {
        // At L over the whole box: its lower end, slope and centre value are those of L.
        r.fLo = -kInf;
        r.fCentre = top;
        r.gradient = {};
        continue;
      }
      double bottom = kInf;
      for (int k = 0; k < count; ++k) {
        const Corner& c = corners[static_cast<std::size_t>(k)];
        bottom = std::min(bottom, c.theta + (c.a - 1.0) * d.logY + (c.b - 1.0) * d.log1mY);
      }
      r.fLo = finiteLambda ? bottom : -kInf;
      if (bounded) {
        r.fCentre = Lik::record<false>(d, etaC, centreTerms, centre).f;
        const double k = d.logY - d.log1mY;
        r.gradient[0] = times(Interval{l1, l2}, Interval{psiDiff.lo + k, psiDiff.hi + k});
        const double y1 = d.log1mY + p1 * k, y2 = d.log1mY + p2 * k;
        r.gradient[1] = plus(lambdaPart, Interval{std::min(y1, y2), std::max(y1, y2)});
      }
    }
    const Offsets offsets{Interval{p1 - phi0, p2 - phi0},
                          Interval{l1 - lambda0, finiteLambda ? l2 - lambda0 : 0.0}};
    return sum_.bound(ranges_, 2, bounded, offsets);
  }

  Eigen::VectorXd unconstrained(const Point& theta, random::Rng&) const override {
    Eigen::VectorXd u(2);
    u << models::detail::logit(theta[0]), std::log(theta[1]);
    return u;
  }

 private:
  /// The model's parameters at v = log(λ − 0.1), computed as BetaLikelihood::params does.
  static Lik::Params paramsAt(double v) {
    const double excess = std::exp(v);
    const double lambda = Lik::kLambdaMin + excess;
    return {lambda, excess, models::detail::logGamma(lambda), 0.0};
  }

  /// A tangent plane of f's θ part (−log B) at one point, as its slopes and its value at the
  /// box's corners (a y's plane adds (a − 1) log y + (b − 1) log(1 − y)).
  struct Tangent {
    double gA = 0.0, gB = 0.0;
    std::array<double, 4> plane{};
  };

  ClampedSum sum_;
  PriorAxis phiAxis_;
  PriorAxis excessAxis_;
  std::vector<Lik::Data> data_;
  std::vector<double> settled_;  ///< per outcome: f at or below this is clamped to L by every α
  mutable std::vector<double> f_;
  mutable std::vector<PatternRange> ranges_;
  mutable std::vector<Tangent> tangents_;
};

}  // namespace

std::unique_ptr<CellTarget> makeBetaTarget(const ExactProblem& problem) {
  return std::make_unique<BetaTarget>(problem);
}

}  // namespace dpsynth::core::privacy::detail
