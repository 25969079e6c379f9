/// Negative binomial (NB2), intercept only: θ = (β, τ) with τ = 1/φ ~ half-Cauchy(0, 5) as its
/// axis and β's σ-integrated prior (LocationPrior::negbinIntercept) through a Cauchy base. The
/// unconstrained draw is (β, log σ, log τ), σ | β drawn from the mixture.
///
/// With μ = e^β, for each integer y >= 0:
///   f = A(φ) − log y! + φ log(φ/(μ+φ)) + y log(μ/(μ+φ)),  A(φ) = log Γ(y+φ) − log Γ(φ).
/// In β, f is concave with its maximum at μ = y for every φ, so sup over a box takes
/// β* = clamp(log y, β1, β2) (the lower end for y = 0) and inf an end of [β1, β2]. In φ, f is
/// split into pieces monotone in φ (y an integer):
///   T1 = A − y log φ = Σ_{k<y} log(1 + k/φ)  decreasing,   A increasing,
///   T2 = φ log(φ/(μ+φ))                      decreasing,
///   T3 = y log(φ/(μ+φ))                      increasing,   y log(μ/(μ+φ)) decreasing,
/// f = T1 + T2 + T3 + yβ − log y! = A + T2 + y log(μ/(μ+φ)) − log y!; each form bounds f over
/// [φ1, φ2] by taking each piece at its worst end. The first is finite as φ2 → ∞, the second as
/// φ1 → 0: together they cover every box. On boxes bounded in τ = 1/φ a third, second-order
/// bound (tangent of the concave pieces, see bound()) is usually far tighter.
///
/// Mean-value coordinates (β, τ): in τ the pieces are smooth up to τ = 0 (the Poisson limit),
///   f = Σ_{k<y} log(1 + kτ) − log(1 + μτ)/τ − y log(1 + μτ) + yβ − log y!,
/// so every box with finite β and τ2 gets the second-order bound, the Poisson edge included:
///   ∂f/∂β = (y − μ)/(1 + μτ), monotone in each coordinate (extremes at corners);
///   ∂f/∂τ = S(τ) + μ² w(μτ) − yμ/(1 + μτ) with S = Σ_{k<y} k/(1 + kτ) decreasing in τ,
///   w(x) = (log(1 + x) − x/(1 + x))/x² = ∫₀¹ s/(1 + xs)² ds decreasing (so μ² w(μτ) falls with
///   τ and, being (log(1 + x) − x/(1 + x))/τ², grows with μ), and −yμ/(1 + μτ) rising with τ and
///   falling with μ.
#include <algorithm>
#include <boost/math/special_functions/trigamma.hpp>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <vector>

#include "core/models/negbin_likelihood.h"
#include "core/models/special_math.h"
#include "core/privacy/clamped_sum.h"
#include "core/privacy/family_targets.h"
#include "core/privacy/location_prior.h"

namespace dpsynth::core::privacy::detail {

namespace {

constexpr double kNegbinInf = std::numeric_limits<double>::infinity();

class NegbinTarget final : public CellTarget {
  using Lik = models::NegbinLikelihood;

 public:
  explicit NegbinTarget(const ExactProblem& p)
      : sum_(p.y, p.alpha, p.lower, p.upper),
        prior_(LocationPrior::negbinIntercept()),
        tauAxis_(PriorAxis::halfCauchy(Lik::kTauScale)),
        lik_(models::GlmShape{1, true, p.sdScale, false, {}, {}}) {
    for (double y : sum_.outcomes()) data_.push_back(Lik::data(y));
    f_.resize(data_.size());
    ranges_.resize(data_.size());
    settled_ = sum_.settledBelow();
  }

  int dim() const override { return 2; }
  const PriorAxis& axis(int j) const override { return j == 0 ? prior_.axis() : tauAxis_; }
  double scale() const override { return sum_.scale(); }
  std::size_t cost() const override { return sum_.cost(); }

  double logTarget(const Point& theta) const override {
    const double beta = theta[0];
    const Lik::Params params = paramsAt(std::log(theta[1]));
    const auto terms = Lik::etaTerms<false>(beta, params);
    for (std::size_t p = 0; p < data_.size(); ++p)
      f_[p] = Lik::record<false>(data_[p], beta, terms, params).f;
    return sum_.value(f_) + prior_.logRatio(beta);
  }

  BoxBound bound(const Box& box) const override {
    const double b1 = box.lo[0], b2 = box.hi[0];
    const double tau1 = box.lo[1], tau2 = box.hi[1];
    const double phi1 = 1.0 / tau2, phi2 = 1.0 / tau1;  // τ = 0 ↦ φ = ∞
    const bool bounded = std::isfinite(b1) && std::isfinite(b2) && std::isfinite(tau2);
    const double betaC = bounded ? 0.5 * (b1 + b2) : 0.0;
    const double tauC = bounded ? 0.5 * (tau1 + tau2) : 1.0;
    const Lik::Params centre = paramsOfPhi(1.0 / tauC);
    const auto centreTerms = Lik::etaTerms<false>(betaC, centre);
    const double mu1 = std::exp(b1), mu2 = std::exp(b2), muC = std::exp(betaC);
    const Offsets offsets{Interval{b1 - betaC, b2 - betaC}, Interval{tau1 - tauC, tau2 - tauC}};

    for (std::size_t p = 0; p < data_.size(); ++p) {
      const Lik::Data& d = data_[p];
      const double y = d.y;
      PatternRange& r = ranges_[p];
      if (y == 0.0) {  // f = T2, decreasing in μ and in φ
        r.fHi = t2(b1, phi1);
        r.fLo = t2(b2, phi2);
      } else {
        const double top = std::clamp(std::log(y), b1, b2);
        // The second-order bound first (boxes bounded in τ): when it already puts the term at
        // L for every α of this y, nothing else about the term matters (a constant).
        double fHi = d.logGammaY1;  // a pmf is <= 1
        if (std::isfinite(tau2)) {
          // In τ, T1 + T2 is concave (log(1 + kτ) and −log(1 + μτ)/τ both are) and T3 convex:
          // replacing the former by its tangent at the middle leaves a convex function, whose
          // largest value over [τ1, τ2] is at an end. Second-order slack where the pieces'
          // first-order swings (T2 rises by up to μ, T3 falls by up to y log(1 + μτ2)) cancel.
          const double mid = 0.5 * (tau1 + tau2), muTop = std::exp(top);
          const double at = t1(d, 1.0 / mid) + t2(top, 1.0 / mid);
          const double slope = sumSlope(d, mid) + curvature(muTop, mid);
          double best = -kNegbinInf;
          for (double tau : {tau1, tau2})
            best = std::max(best, at + slope * (tau - mid) + t3(y, top, 1.0 / tau));
          fHi = std::min(fHi, best + y * top);
        }
        if (fHi - d.logGammaY1 > settled_[p]) {
          const double first = total({t1(d, phi1), t2(top, phi1), t3(y, top, phi2), y * top});
          const double second =
              total({gammaRatio(d, phi2), t2(top, phi1), -y * softplus(std::log(phi1) - top)});
          fHi = std::min({fHi, first, second});
        }
        r.fHi = fHi - d.logGammaY1;
        if (r.fHi <= settled_[p]) {
          // At L over the whole box: its lower end, slope and centre value are those of L.
          r.fLo = -kNegbinInf;
          r.fCentre = r.fHi;
          r.gradient = {};
          continue;
        }
        double bottom = kNegbinInf;
        for (double beta : {b1, b2}) {
          if (!std::isfinite(beta)) {
            bottom = -kNegbinInf;  // μ → 0 or ∞ with y >= 1: the pmf vanishes
            break;
          }
          const double low1 = total({t1(d, phi2), t2(beta, phi2), t3(y, beta, phi1), y * beta});
          const double low2 =
              total({gammaRatio(d, phi1), t2(beta, phi2), -y * softplus(std::log(phi2) - beta)});
          bottom = std::min(bottom, std::max(low1, low2));
        }
        r.fLo = bottom - d.logGammaY1;
      }
      if (bounded) {
        r.fCentre = Lik::record<false>(d, betaC, centreTerms, centre).f;
        double lo = kNegbinInf, hi = -kNegbinInf;
        for (double beta : {b1, b2})
          for (double tau : {tau1, tau2}) {
            const double g = slopeBeta(y, beta, tau);
            lo = std::min(lo, g);
            hi = std::max(hi, g);
          }
        r.gradient[0] = {lo, hi};
        // ∂f/∂τ = S + μ²w(μτ) − yμ/(1 + μτ): its pieces, each at its worst end...
        Interval slope{sumSlope(d, tau2) + curvature(mu1, tau2) + countSlope(y, mu2, tau1),
                       sumSlope(d, tau1) + curvature(mu2, tau1) + countSlope(y, mu1, tau2)};
        // ...and, where the pieces' swings of order μ³·Δτ cancel to a curvature of order μ²,
        // the value at the centre plus the ranges of its own derivatives over the box: the
        // pieces' overestimate then enters at second order. Both hold; the bound is their
        // intersection.
        const Interval second = plus(
            plus(Interval{sumCurvature(d, tau1), sumCurvature(d, tau2)},
                 Interval{-2.0 * mu2 * mu2 * mu2 * w2(mu2 * tau1),
                          -2.0 * mu1 * mu1 * mu1 * w2(mu1 * tau2)}),
            Interval{y * square(mu1 / (1.0 + mu1 * tau2)), y * square(mu2 / (1.0 + mu2 * tau1))});
        const Interval cross =
            times(times(Interval{mu1, mu2}, Interval{mu1 - y, mu2 - y}),
                  Interval{1.0 / square(1.0 + mu2 * tau2), 1.0 / square(1.0 + mu1 * tau1)});
        const double gc = sumSlope(d, tauC) + curvature(muC, tauC) + countSlope(y, muC, tauC);
        const Interval taylor =
            plus(plus(Interval{gc, gc}, times(second, offsets[1])), times(cross, offsets[0]));
        if (taylor.lo > slope.lo) slope.lo = taylor.lo;  // false for NaN: the pieces' range stays
        if (taylor.hi < slope.hi) slope.hi = taylor.hi;
        r.gradient[1] = slope;
      }
    }
    BoxBound out = sum_.bound(ranges_, 2, bounded, offsets);
    out.upper += prior_.logRatioUpper(b1, b2);
    out.lower += prior_.logRatioLower(b1, b2);
    return out;
  }

  Eigen::VectorXd unconstrained(const Point& theta, random::Rng& rng) const override {
    const std::size_t k = prior_.drawComponent(theta[0], rng);
    Eigen::VectorXd u(3);
    u << theta[0], std::log(prior_.componentSd(k)), std::log(theta[1]);
    return u;
  }

 private:
  /// The model's parameters at log τ = v (as NegbinLikelihood::params computes them).
  Lik::Params paramsAt(double v) const {
    Eigen::VectorXd u = Eigen::VectorXd::Zero(3);
    u[2] = v;
    return lik_.params(u);
  }
  static Lik::Params paramsOfPhi(double phi) {
    return {phi, std::log(phi), models::detail::logGamma(phi), models::detail::digamma(phi)};
  }

  /// A sum of the pieces' bounds. A piece whose bound is −∞ is −∞ everywhere on the box (no
  /// piece is +∞ at an interior point), so then is f, whatever the other pieces' bounds.
  static double total(std::initializer_list<double> pieces) {
    double sum = 0.0;
    for (double x : pieces) {
      if (x == -kNegbinInf) return -kNegbinInf;
      sum += x;
    }
    return sum;
  }

  /// A(φ) = log Γ(y+φ) − log Γ(φ) (y >= 1), by the model's own arithmetic; A(0) = −∞, A(∞) = ∞.
  static double gammaRatio(const Lik::Data& d, double phi) {
    if (phi == 0.0) return -kNegbinInf;
    if (std::isinf(phi)) return kNegbinInf;
    double unused = 0.0;
    return Lik::logGammaRatio<false>(d, paramsOfPhi(phi), unused);
  }
  /// T1(φ) = A(φ) − y log φ (y >= 1): 0 at φ = ∞; at φ = 0, 0 for y = 1 and ∞ beyond.
  static double t1(const Lik::Data& d, double phi) {
    if (std::isinf(phi)) return 0.0;
    if (phi == 0.0) return d.y == 1.0 ? 0.0 : kNegbinInf;
    if (d.smallCount >= 0) {  // Σ_{k<y} log(1 + k/φ): no cancellation
      double sum = 0.0;
      for (int k = 1; k < d.smallCount; ++k) sum += std::log1p(k / phi);
      return sum;
    }
    return gammaRatio(d, phi) - d.y * std::log(phi);
  }
  /// log(1 + e^x), with log(1 + e^∞) = ∞ and log(1 + e^−∞) = 0.
  static double softplus(double x) { return models::detail::log1pExp(x); }
  /// T2 = φ log(φ/(μ+φ)) = −φ log(1 + e^(β − log φ)) at (β, φ), with its limits (0 at φ = 0 or
  /// β = −∞, −e^β at φ = ∞). Formed from β, never from μ = e^β, which overflows long before
  /// φ·β does.
  static double t2(double beta, double phi) {
    if (phi == 0.0 || beta == -kNegbinInf) return 0.0;
    if (std::isinf(phi)) return -std::exp(beta);
    return -phi * softplus(beta - std::log(phi));
  }
  /// T3 = y log(φ/(μ+φ)) = −y log(1 + e^(β − log φ)) (y >= 1, β finite): 0 at φ = ∞, −∞ at 0.
  static double t3(double y, double beta, double phi) {
    if (std::isinf(phi)) return 0.0;
    if (phi == 0.0) return -kNegbinInf;
    return -y * softplus(beta - std::log(phi));
  }
  /// ∂f/∂β = (y − μ)/(1 + μτ) at (β, τ), finite β, without forming μ = e^β where it could
  /// overflow: y/(1 + μτ) − μ/(1 + μτ) with μτ = e^(β + log τ).
  static double slopeBeta(double y, double beta, double tau) {
    if (tau == 0.0) return y - std::exp(beta);
    const double x = beta + std::log(tau);
    return y * models::detail::logistic(-x) - models::detail::logistic(x) / tau;
  }
  /// S(τ) = Σ_{k<y} k/(1 + kτ): summed for small y (below NegbinLikelihood::kSmallCount); else
  /// from power sums while yτ is small, and as (y − Σ 1/(1 + kτ))/τ with
  /// Σ 1/(1 + kτ) = φ(ψ(y + φ) − ψ(φ)) beyond.
  static double sumSlope(const Lik::Data& d, double tau) {
    const double y = d.y;
    if (d.smallCount >= 0) {
      double sum = 0.0;
      for (double k = 1.0; k < y; k += 1.0) sum += k / (1.0 + k * tau);
      return sum;
    }
    const double m = y - 1.0;  // power sums over k = 1 .. y − 1
    const double s1 = m * y / 2.0, s2 = m * y * (2.0 * m + 1.0) / 6.0, s3 = s1 * s1;
    const double s4 = m * y * (2.0 * m + 1.0) * (3.0 * m * m + 3.0 * m - 1.0) / 30.0;
    if (y * tau < 1e-3) return s1 - tau * s2 + tau * tau * s3 - tau * tau * tau * s4;
    const double phi = 1.0 / tau;
    return (y - phi * digammaDifference(d, phi)) / tau;
  }
  /// μ² w(μτ), the slope in τ of −log(1 + μτ)/τ, with w(x) = (log(1 + x) − x/(1 + x))/x².
  static double curvature(double mu, double tau) {
    const double x = mu * tau;
    if (std::isinf(mu)) return kNegbinInf;
    if (x < 1e-4) return mu * mu * (0.5 - x * (2.0 / 3.0 - x * (0.75 - 0.8 * x)));
    return (std::log1p(x) - x / (1.0 + x)) / (tau * tau);
  }
  static double square(double x) { return x * x; }
  /// W2(x) = ∫₀¹ s²/(1 + xs)³ ds = −w′(x)/2, decreasing in x: μ³w′(μτ) = −2μ³W2(μτ) is the
  /// slope in τ of μ²w(μτ), rising with τ and falling with μ (x³W2(x) grows with x).
  static double w2(double x) {
    if (x < 1e-3) return 1.0 / 3.0 - x * (0.75 - x * (1.2 - x * 5.0 / 3.0));
    const double u = 1.0 + x;
    return (std::log1p(x) + 2.0 / u - 0.5 / (u * u) - 1.5) / (x * x * x);
  }
  /// S′(τ) = −Σ_{k<y} k²/(1 + kτ)², rising with τ: summed for small y; else from power sums
  /// while yτ is small, and from trigammas beyond.
  static double sumCurvature(const Lik::Data& d, double tau) {
    const double y = d.y;
    if (d.smallCount >= 0) {
      double sum = 0.0;
      for (double k = 1.0; k < y; k += 1.0) sum -= square(k / (1.0 + k * tau));
      return sum;
    }
    const double m = y - 1.0;  // power sums over k = 1 .. y − 1
    const double s1 = m * y / 2.0, s2 = m * y * (2.0 * m + 1.0) / 6.0, s3 = s1 * s1;
    const double s4 = m * y * (2.0 * m + 1.0) * (3.0 * m * m + 3.0 * m - 1.0) / 30.0;
    const double s5 = m * m * y * y * (2.0 * m * m + 2.0 * m - 1.0) / 12.0;
    if (y * tau < 1e-3) return -(s2 - tau * (2.0 * s3 - tau * (3.0 * s4 - tau * 4.0 * s5)));
    // Σ k²/(1 + kτ)² = (y − 2φ(ψ(y+φ) − ψ(φ)) + φ²(ψ′(φ) − ψ′(y+φ)))/τ² with φ = 1/τ.
    const double phi = 1.0 / tau;
    const double trigammas = boost::math::trigamma(phi, models::detail::FastPolicy()) -
                             boost::math::trigamma(y + phi, models::detail::FastPolicy());
    return -(y - 2.0 * phi * digammaDifference(d, phi) + phi * phi * trigammas) / (tau * tau);
  }
  /// −yμ/(1 + μτ), the slope in τ of −y log(1 + μτ), written to stay finite for μ = ∞.
  static double countSlope(double y, double mu, double tau) {
    return y == 0.0 ? 0.0 : -y / (1.0 / mu + tau);
  }
  /// D(φ) = ψ(y+φ) − ψ(φ), by the model's own arithmetic.
  static double digammaDifference(const Lik::Data& d, double phi) {
    double diff = 0.0;
    Lik::logGammaRatio<true>(d, paramsOfPhi(phi), diff);
    return diff;
  }

  ClampedSum sum_;
  LocationPrior prior_;
  PriorAxis tauAxis_;
  Lik lik_;
  std::vector<Lik::Data> data_;
  std::vector<double> settled_;  ///< per outcome: f at or below this is clamped to L by every α
  mutable std::vector<double> f_;
  mutable std::vector<PatternRange> ranges_;
};

}  // namespace

std::unique_ptr<CellTarget> makeNegbinTarget(const ExactProblem& problem) {
  return std::make_unique<NegbinTarget>(problem);
}

}  // namespace dpsynth::core::privacy::detail
