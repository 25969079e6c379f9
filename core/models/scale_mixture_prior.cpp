#include "core/models/scale_mixture_prior.h"

#include <algorithm>
#include <boost/math/quadrature/gauss.hpp>
#include <boost/math/special_functions/erf.hpp>
#include <boost/math/special_functions/expint.hpp>
#include <boost/math/special_functions/lambert_w.hpp>
#include <cstdint>
#include <limits>
#include <numbers>
#include <stdexcept>

#include "core/models/special_math.h"

namespace dpsynth::core::models {

namespace {

constexpr double kMixtureInf = std::numeric_limits<double>::infinity();
constexpr double kMixtureEulerGamma = 0.57721566490153286061;
/// Below this a, G(a) = 2 log(1/|β|) + κ₀ to rounding (the next term is O(a log a)).
constexpr double kMixtureTinyA = 1e-30;

/// log(4/(π√3)) − log(2√(2π)).
double mixtureLogNorm() {
  return std::log(4.0 / (std::numbers::pi * std::sqrt(3.0))) -
         std::log(2.0 * std::sqrt(2.0 * std::numbers::pi));
}

}  // namespace

const double ScaleMixturePrior::kLogNorm = mixtureLogNorm();

namespace {

/// eᵃE₁(a), G(a) and G′(a) for a ≥ 1 from the continued fraction of E₁ (A&S 5.1.22),
/// eᵃE₁(a) = 1/(a + r), r = 1/(1 + q), q = 1/(a + Q₂), Q_k = k/(1 + k/(a + Q_{k+1})), evaluated
/// from the tail. Then G = (1 + a)eᵃE₁ − 1 = q·r/(a + r) and G′ = eᵃE₁ + G − 1/a =
/// −r·Q₂/(a(a + Q₂)(a + r)): no term cancels, so all three keep full relative precision where
/// the direct forms lose 2·log10(a) digits. The depth reaches 2e-16 from a = 1 on.
struct MixtureFraction {
  double scaledE1, g, dG;
};
MixtureFraction mixtureFraction(double a) {
  const int depth = a < 1.5 ? 130 : a < 2.0 ? 90 : a < 5.0 ? 64 : a < 10.0 ? 34 : 24;
  double tail = 0.0;
  if (a < 1e100) {
    // The tail as a ratio p/q: Q_k = k(a + p/q)/(a + k + p/q) gives p ← k(aq + p) and
    // q ← (a + k)q + p, two fused multiply-adds a step where the quotient form chains two
    // divisions (3× faster at every depth, equal to it within 4.4e-16). q grows by about a + k a
    // step; rescaling by a power of two keeps it finite and rounds nothing.
    double p = 0.0, q = 1.0;
    for (int k = depth; k >= 2; --k) {
      const double next = k * std::fma(a, q, p);
      q = std::fma(a + k, q, p);
      p = next;
      if (q > 0x1p600) {
        p *= 0x1p-600;
        q *= 0x1p-600;
      }
    }
    tail = p / q;
  } else {  // a step's growth could overflow: the quotient form, whose terms stay near k
    for (int k = depth; k >= 2; --k) tail = k / (1.0 + k / (a + tail));
  }
  const double q = 1.0 / (a + tail);
  const double r = 1.0 / (1.0 + q);
  return {1.0 / (a + r), q * r / (a + r), -r * tail / (a * (a + tail) * (a + r))};
}

}  // namespace

double ScaleMixturePrior::scaledE1(double a) {
  if (a >= 1.0) return mixtureFraction(a).scaledE1;
  return std::exp(a) * boost::math::expint(1, a, detail::FastPolicy());
}

double ScaleMixturePrior::g(double a, double* dG) {
  if (a >= 1.0) {
    const MixtureFraction f = mixtureFraction(a);
    if (dG) *dG = f.dG;
    return f.g;
  }
  // Below 1, (1 + a)eᵃE₁ − 1 loses at most one digit and G′ is dominated by −1/a.
  const double s = scaledE1(a);
  const double value = (1.0 + a) * s - 1.0;
  if (dG) *dG = s + value - 1.0 / a;  // (eᵃE₁)′ = eᵃE₁ − 1/a
  return value;
}

double ScaleMixturePrior::logDensity(double beta, double* dLogDensity) {
  if (beta == 0.0) {
    if (dLogDensity) *dLogDensity = 0.0;
    return kMixtureInf;
  }
  const double a = beta * beta / 6.0;
  if (a < kMixtureTinyA) {
    const double value = 2.0 * -std::log(std::abs(beta)) + kKappa0;
    if (dLogDensity) *dLogDensity = -2.0 / (beta * value);
    return kLogNorm + std::log(value);
  }
  double dG = 0.0;
  const double value = g(a, &dG);
  if (dLogDensity) *dLogDensity = dG / value * beta / 3.0;
  return kLogNorm + std::log(value);
}

namespace {

/// eˣE₁(x) and G(x) together: one continued fraction from 1 on, one exponential integral below.
void scaledE1AndG(double x, double& scaledE1, double& g) {
  if (x >= 1.0) {
    const MixtureFraction f = mixtureFraction(x);
    scaledE1 = f.scaledE1;
    g = f.g;
    return;
  }
  scaledE1 = ScaleMixturePrior::scaledE1(x);
  g = (1.0 + x) * scaledE1 - 1.0;
}

/// σ | β for one β: what its distribution function and density share across the steps of a
/// root search (a = β²/6 and G(a)).
class ConditionalScale {
 public:
  /// Where P(σ > sigma) is integrated directly: s − 1 = 3/σ² and a(s − 1) small enough that
  /// the integrand below is a low-degree polynomial to rounding on the range.
  static constexpr double kDirectUpperMaxExcess = 0.5;
  static constexpr double kDirectUpperMaxExponent = 4.0;

  explicit ConditionalScale(double beta)
      // β = 0 makes σ | β improper (its density ∝ h(σ)/σ near 0): the smallest a keeps it
      // proper.
      : a_(std::max(beta * beta / 6.0, 1e-300)), gA_(ScaleMixturePrior::g(a_)) {}

  void cdf(double sigma, double& lower, double& upper) const {
    if (!(sigma > 0.0)) {
      lower = 0.0;
      upper = 1.0;
      return;
    }
    if (std::isinf(sigma)) {
      lower = 1.0;
      upper = 0.0;
      return;
    }
    const double excess = 3.0 / (sigma * sigma);  // s − 1
    if (!std::isfinite(excess)) {
      lower = 0.0;
      upper = 1.0;
      return;
    }
    cdfOfExcess(excess, std::exp(-a_ * excess), lower, upper);
  }

  /// At v = log σ: the distribution function (as cdf) and the density of v with the slope of
  /// its log, d/dv log density = −4/s + 2a(s − 1), for a Halley step. One e^{−2v} and one
  /// e^{−a(s−1)} serve all of them.
  struct Point {
    double lower, upper, density, dLogDensity;
  };
  Point at(double v) const {
    Point p{};
    const double excess = 3.0 * std::exp(-2.0 * v);  // s − 1
    if (!std::isfinite(excess)) {
      p.lower = 0.0;
      p.upper = 1.0;
      return p;
    }
    const double damping = std::exp(-a_ * excess);
    cdfOfExcess(excess, damping, p.lower, p.upper);
    const double s = 1.0 + excess;
    // In s, (s − 1)/s² e^{−a(s−1)}/G(a), times |ds/dv| = 2(s − 1).
    p.density = 2.0 * excess * excess / (s * s) * damping / gA_;
    p.dLogDensity = -4.0 / s + 2.0 * a_ * excess;
    return p;
  }

 private:
  /// P(σ ≤ sigma) and P(σ > sigma) from s − 1 = 3/σ² (finite) and e^{−a(s−1)}.
  void cdfOfExcess(double excess, double damping, double& lower, double& upper) const {
    if (excess == 0.0) {  // σ = ∞ to rounding
      lower = 1.0;
      upper = 0.0;
      return;
    }
    if (excess <= kDirectUpperMaxExcess && a_ * excess <= kDirectUpperMaxExponent) {
      // Far up in σ, P(σ > sigma) is far below 1 − lower's rounding: integrate it directly,
      // P(1 ≤ s < s0) = ∫₀^{s0−1} t/(1 + t)² e^{−at} dt / G(a) (a smooth integrand on a short
      // range: 20 Gauss–Legendre nodes reach rounding).
      const double tail = boost::math::quadrature::gauss<double, 20>::integrate(
          [this](double t) { return t / ((1.0 + t) * (1.0 + t)) * std::exp(-a_ * t); }, 0.0,
          excess);
      const double direct = tail / gA_;
      if (direct < 0.5) {
        upper = direct;
        lower = 1.0 - upper;
        return;
      }
    }
    const double s0 = 1.0 + excess;
    // P(s ≥ s0) = T(s0)/T(1), T(s0) = ∫_{s0}^∞ (s − 1)/s² e^{−as} ds = e^{−x}/s0 ·
    // [(s0 − 1) eˣE₁(x) + G(x)], x = a·s0: two positive terms, no cancellation.
    double e1 = 0.0, gx = 0.0;
    scaledE1AndG(a_ * s0, e1, gx);
    const double ratio = damping / s0 * (excess * e1 + gx) / gA_;
    lower = std::clamp(ratio, 0.0, 1.0);
    upper = 1.0 - lower;
  }

  double a_;
  double gA_;
};

}  // namespace

void ScaleMixturePrior::conditionalCdf(double beta, double sigma, double& lower, double& upper) {
  ConditionalScale(beta).cdf(sigma, lower, upper);
}

double ScaleMixturePrior::conditionalLogDensityOfLogSigma(double beta, double logSigma) {
  const double sigma = std::exp(logSigma);
  constexpr double kHalfLog2Pi = 0.91893853320467274178;
  const double logNormal = -logSigma - kHalfLog2Pi - beta * beta / (2.0 * sigma * sigma);
  const double logHalfT =
      std::log(4.0 / (std::numbers::pi * std::sqrt(3.0))) - 2.0 * std::log1p(sigma * sigma / 3.0);
  return logNormal + logHalfT + logSigma - logDensity(beta);
}

double ScaleMixturePrior::normalScore(double beta, double sigma) {
  double lower = 0.0, upper = 0.0;
  conditionalCdf(beta, sigma, lower, upper);
  constexpr double kMaxScore = 38.0;
  if (lower <= 0.0) return -kMaxScore;
  if (upper <= 0.0) return kMaxScore;
  const double w =
      lower < 0.5 ? -std::numbers::sqrt2 * boost::math::erfc_inv(2.0 * lower, detail::FastPolicy())
                  : std::numbers::sqrt2 * boost::math::erfc_inv(2.0 * upper, detail::FastPolicy());
  return std::clamp(w, -kMaxScore, kMaxScore);
}

double ScaleMixturePrior::sigmaFromScore(double beta, double w) {
  // Halley's method in v = log σ on f(v) = log P(σ ≤ e^v | β) − log Φ(w) (or, right of the
  // median, on the upper tails): f compares logs of probabilities, so that the tails keep their
  // relative precision, and f′ = density / probability is at hand. Steps that would leave the
  // bracket found so far bisect it instead.
  const ConditionalScale conditional(beta);
  const bool left = w <= 0.0;
  const double target = 0.5 * std::erfc((left ? -w : w) / std::numbers::sqrt2);
  const double logTarget = std::log(target);
  double lo = -kMixtureInf, hi = kMixtureInf;
  // σ | β is near |β| when |β| is large and spread over decades when it is small.
  double v = std::log(std::clamp(std::abs(beta), 1e-6, 1e6));
  for (int i = 0; i < 400; ++i) {
    const ConditionalScale::Point point = conditional.at(v);
    const double probability = left ? point.lower : point.upper;
    const double f = left ? std::log(point.lower) - logTarget : logTarget - std::log(point.upper);
    if (f == 0.0) return std::exp(v);
    if (f < 0.0) {
      lo = v;
    } else {
      hi = v;
    }
    // Halley's step: f′ = density/probability and f″ = f′(d log density/dv ∓ f′) (− on the
    // lower side, + on the upper): cubic convergence, about a third fewer steps than Newton's.
    const double slope = point.density / probability;
    const double curvature = slope * (point.dLogDensity + (left ? -slope : slope));
    double next = v - 2.0 * f * slope / (2.0 * slope * slope - f * curvature);
    const bool halley = std::isfinite(next) && next > lo && next < hi;
    if (!halley) next = v - f / slope;  // Newton's
    const bool newton = std::isfinite(next) && next > lo && next < hi;
    if (!newton) {
      // Outside the bracket (or no usable slope): halve a finite bracket, else walk outwards.
      next = std::isfinite(lo) && std::isfinite(hi) ? 0.5 * (lo + hi)
             : std::isfinite(lo)                    ? lo + 2.0 + 0.05 * i
                                                    : hi - 2.0 - 0.05 * i;
    }
    // Convergence: the error after a Halley step of size h is O(h³), after a Newton step O(h²),
    // so the last step taken is one of at most 1e-5 or 1e-9. Over β from 1e-300 to 1e6 and w
    // within ±12, stopping there moves log σ by at most 3e-13 from solving on to 1e-9.
    const double step = std::abs(next - v);
    const bool converged = halley   ? step <= 1e-5
                           : newton ? step <= 1e-9
                                    : hi - lo <= 1e-15 * std::max(1.0, std::abs(v));
    v = next;
    if (converged) break;
  }
  return std::exp(v);
}

SpikeMap::SpikeMap(double width)
    : width_(width), k_(-std::log(width) + 0.5 * ScaleMixturePrior::kKappa0) {
  if (!(width > 0.0 && width <= kMaxWidth)) {
    throw std::invalid_argument("SpikeMap: the width must lie in (0, 0.5]");
  }
  innerB_ = width_ * (1.0 + 1.0 / k_);
}

double SpikeMap::fromBeta(double beta) const {
  const double size = std::abs(beta);
  if (size > width_) return beta + std::copysign(width_ / k_, beta);
  if (size == 0.0) return beta;
  const double l = -std::log(size);
  return beta * (l + 1.0 + 0.5 * ScaleMixturePrior::kKappa0) / k_;
}

double SpikeMap::toBeta(double b, double& slope) const {
  constexpr double c = 0.5 * ScaleMixturePrior::kKappa0;
  const double size = std::abs(b);
  if (size > innerB_) {
    slope = 1.0;
    return b - std::copysign(width_ / k_, b);
  }
  const double y = k_ * size;
  const double argument = -y * std::exp(-(1.0 + c));
  if (!(argument < 0.0)) {
    slope = 0.0;
    return 0.0;
  }
  const double m = -boost::math::lambert_wm1(argument, detail::FastPolicy());
  slope = k_ / (m - (1.0 + c) + c);
  return std::copysign(y / m, b);
}

double SpikeMap::toBeta(double b, double& slope, double& logPrior, double& dLogPrior) const {
  constexpr double c = 0.5 * ScaleMixturePrior::kKappa0;
  const double size = std::abs(b);
  if (size > innerB_) {
    const double beta = b - std::copysign(width_ / k_, b);
    slope = 1.0;
    logPrior = ScaleMixturePrior::logDensity(beta, &dLogPrior);
    return beta;
  }
  // β (log(1/β) + L) = y with L = 1 + c: β = e^{L − m}, m e^{−m} = y e^{−L}, m ≥ 1.
  const double y = k_ * size;
  const double argument = -y * std::exp(-(1.0 + c));
  if (!(argument < 0.0)) {  // b = 0, or so close that the argument underflowed
    slope = 0.0;
    dLogPrior = 0.0;
    logPrior = ScaleMixturePrior::kLogNorm + std::log(2.0 * k_);
    return 0.0;
  }
  const double m = -boost::math::lambert_wm1(argument, detail::FastPolicy());
  const double l = m - (1.0 + c);  // log(1/|β|)
  const double beta = std::copysign(y / m, b);
  slope = k_ / (l + c);
  // log p(β) + log slope, with G(a) = 2l + κ₀ + E and E = G − 2l − κ₀ = O(a l) formed without
  // cancellation: with M = 2l + log 6 − γ = −γ − log a and E₁(a) = M + F(a),
  // G = (1 + a)eᵃ(M + F) − 1, so E = M((1 + a)eᵃ − 1) + (1 + a)eᵃF.
  const double a = beta * beta / 6.0;
  double f = 0.0, term = 1.0;  // F(a) = Σ_{j≥1} (−1)^{j+1} a^j/(j·j!)
  for (int j = 1; j < 30; ++j) {
    term *= (j == 1 ? a : -a * (j - 1) / (static_cast<double>(j) * j));
    f += term;
    if (std::abs(term) <= 1e-18 * std::abs(f)) break;
  }
  const double bigM = 2.0 * l + std::log(6.0) - kMixtureEulerGamma;
  const double grow = std::expm1(a) + a * std::exp(a);  // (1 + a)eᵃ − 1
  const double excess = bigM * grow + (1.0 + a) * std::exp(a) * f;
  const double gValue = 2.0 * l + ScaleMixturePrior::kKappa0 + excess;
  logPrior = ScaleMixturePrior::kLogNorm + std::log(gValue) + std::log(slope);
  // d/dβ log p = [−2/β + (β/3)(S + G)]/G with S = eᵃE₁(a); d/dβ log slope = 1/(β(l + c)). The
  // two 1/β terms combine to E/(βG(l + c)).
  const double scaled = std::exp(a) * (bigM + f);
  const double dBeta = excess / (beta * gValue * (l + c)) + beta / 3.0 * (scaled + gValue) / gValue;
  dLogPrior = slope * dBeta;
  return beta;
}

}  // namespace dpsynth::core::models
