#include "core/privacy/location_prior.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>

namespace dpsynth::core::privacy {

namespace {

constexpr double kPriorInf = std::numeric_limits<double>::infinity();
constexpr double kPriorHalfLog2Pi = 0.91893853320467274178;

double logSumExp(const std::vector<double>& v) {
  const double top = *std::max_element(v.begin(), v.end());
  if (!std::isfinite(top)) return top;
  double sum = 0.0;
  for (double x : v) sum += std::exp(x - top);
  return top + std::log(sum);
}

/// β² of the point of [lo, hi] nearest to 0 and of the farthest one.
double nearSquare(double lo, double hi) {
  if (lo <= 0.0 && hi >= 0.0) return 0.0;
  return std::min(lo * lo, hi * hi);
}
double farSquare(double lo, double hi) { return std::max(lo * lo, hi * hi); }

}  // namespace

LocationPrior::LocationPrior(std::vector<double> sd, std::vector<double> weight, double baseScale)
    : sd_(std::move(sd)), axis_(PriorAxis::cauchy(baseScale)) {
  double total = 0.0;
  for (double w : weight) total += w;
  for (double w : weight) logWeight_.push_back(std::log(w / total));
}

LocationPrior LocationPrior::normal(double sd) {
  if (!(sd > 0.0) || !std::isfinite(sd))
    throw std::invalid_argument("LocationPrior: the prior sd must be finite and > 0");
  return LocationPrior({sd}, {1.0}, sd);
}

LocationPrior LocationPrior::negbinIntercept() {
  std::vector<double> sd, weight;
  for (int k = 0; k < kNegbinComponents; ++k) {
    const double sigma = std::exp(kNegbinLogSigmaFrom + kNegbinLogSigmaStep * k);
    // half-Student-t(3, 0, 1) density ∝ (1 + σ²/3)^−2, times dσ/d log σ = σ.
    weight.push_back(sigma / std::pow(1.0 + sigma * sigma / 3.0, 2.0));
    sd.push_back(sigma);
  }
  return LocationPrior(std::move(sd), std::move(weight), 1.0);
}

double LocationPrior::componentWeight(std::size_t k) const { return std::exp(logWeight_[k]); }

double LocationPrior::logDensity(double beta) const {
  std::vector<double> terms(sd_.size());
  const double z = beta * beta;
  for (std::size_t k = 0; k < sd_.size(); ++k)
    terms[k] = logWeight_[k] - std::log(sd_[k]) - kPriorHalfLog2Pi - z / (2.0 * sd_[k] * sd_[k]);
  return logSumExp(terms);
}

double LocationPrior::logRatio(double beta) const {
  if (std::isinf(beta * beta)) return -kPriorInf;  // every component has vanished
  return logDensity(beta) - axis_.logDensity(beta);
}

double LocationPrior::logRatioUpper(double lo, double hi) const {
  const double s = axis_.scale();
  const double zLo = nearSquare(lo, hi), zHi = farSquare(lo, hi);
  if (std::isinf(zLo)) return -kPriorInf;  // |β| beyond 1e154: every component has vanished
  const double logBaseNorm = std::log(std::numbers::pi * s);
  std::vector<double> terms(sd_.size());
  for (std::size_t k = 0; k < sd_.size(); ++k) {
    // log Normal(β | σ_k) − log base(β) is concave in z = β², maximal at z = 2σ_k² − S².
    const double var = sd_[k] * sd_[k];
    const double z = std::clamp(2.0 * var - s * s, zLo, zHi);
    terms[k] = logWeight_[k] - std::log(sd_[k]) - kPriorHalfLog2Pi - z / (2.0 * var) + logBaseNorm +
               std::log1p(z / (s * s));
  }
  return logSumExp(terms);
}

double LocationPrior::logRatioLower(double lo, double hi) const {
  const double zFar = farSquare(lo, hi);
  if (std::isinf(zFar)) return -kPriorInf;
  const double s = axis_.scale();
  const double zNear = nearSquare(lo, hi);
  return logDensity(std::sqrt(zFar)) + std::log(std::numbers::pi * s) + std::log1p(zNear / (s * s));
}

std::size_t LocationPrior::drawComponent(double beta, random::Rng& rng) const {
  const double z = beta * beta;
  std::vector<double> logP(sd_.size());
  for (std::size_t k = 0; k < sd_.size(); ++k)
    logP[k] = logWeight_[k] - std::log(sd_[k]) - z / (2.0 * sd_[k] * sd_[k]);
  const double top = *std::max_element(logP.begin(), logP.end());
  double total = 0.0;
  for (double& p : logP) total += (p = std::exp(p - top));
  double target = random::uniform01(rng) * total;
  for (std::size_t k = 0; k < logP.size(); ++k) {
    if (target < logP[k]) return k;
    target -= logP[k];
  }
  // Rounding left the target beyond the last positive weight: take that component.
  for (std::size_t k = logP.size(); k-- > 0;)
    if (logP[k] > 0.0) return k;
  return 0;
}

}  // namespace dpsynth::core::privacy
