#include "core/privacy/weights.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace dpsynth::core::privacy {

namespace {

double clamp01(double x) { return std::clamp(x, 0.0, 1.0); }

void requireTuning(double c, double g, const char* who) {
  if (!(c >= 0.0) || !std::isfinite(c)) {
    throw std::invalid_argument(std::string(who) + ": c must be a finite number >= 0");
  }
  // g may be any real (the clamp to [0, 1] absorbs it) but NaN would poison every weight.
  if (std::isnan(g)) throw std::invalid_argument(std::string(who) + ": g must not be NaN");
}

void requireWeights(const std::vector<double>& alpha, const char* who) {
  for (double a : alpha) {
    if (!(a >= 0.0 && a <= 1.0)) {
      throw std::invalid_argument(std::string(who) + ": weights must lie in [0, 1]");
    }
  }
}

void requireBounds(const std::vector<double>& alpha, const Eigen::VectorXd& delta,
                   const char* who) {
  if (static_cast<Eigen::Index>(alpha.size()) != delta.size()) {
    throw std::invalid_argument(std::string(who) + ": " + std::to_string(alpha.size()) +
                                " weights but " + std::to_string(delta.size()) +
                                " per-record bounds");
  }
  for (Eigen::Index i = 0; i < delta.size(); ++i) {
    // An infinite bound means no finite guarantee exists; there is nothing sensible to scale.
    if (!(delta[i] >= 0.0) || !std::isfinite(delta[i])) {
      throw std::invalid_argument(std::string(who) + ": per-record bounds must be finite and >= 0");
    }
  }
}

}  // namespace

std::vector<double> lwWeights(const Eigen::VectorXd& f, double c, double g) {
  requireTuning(c, g, "lwWeights");
  std::vector<double> alpha(static_cast<std::size_t>(f.size()));
  if (f.size() == 0) return alpha;
  if (!f.allFinite()) {
    throw std::invalid_argument(
        "lwWeights: every f_i must be finite (an infinite log-likelihood bound has no scale)");
  }
  const double lo = f.minCoeff();
  const double range = f.maxCoeff() - lo;
  for (Eigen::Index i = 0; i < f.size(); ++i) {
    const double scaled = range > 0.0 ? (f[i] - lo) / range : 0.0;
    alpha[static_cast<std::size_t>(i)] = clamp01(c * (1.0 - scaled) + g);
  }
  return alpha;
}

std::vector<double> lwWeightsFromReference(const Eigen::VectorXd& f, double refMin, double refMax,
                                           double c, double g) {
  requireTuning(c, g, "lwWeightsFromReference");
  if (!(std::isfinite(refMin) && std::isfinite(refMax) && refMin <= refMax))
    throw std::invalid_argument("lwWeightsFromReference: the reference range must be finite");
  const double range = refMax - refMin;
  std::vector<double> alpha(static_cast<std::size_t>(f.size()));
  for (Eigen::Index i = 0; i < f.size(); ++i) {
    double a;
    if (!std::isfinite(f[i])) {
      a = c > 0.0 ? 0.0 : g;  // beyond every reference value
    } else {
      const double scaled = range > 0.0 ? (f[i] - refMin) / range : (f[i] > refMax ? 1.0 : 0.0);
      a = c * (1.0 - scaled) + g;
    }
    alpha[static_cast<std::size_t>(i)] = clamp01(a);
  }
  return alpha;
}

Eigen::VectorXd isolationRisk(const Eigen::VectorXd& y, double r, bool relative) {
  if (!(r >= 0.0)) throw std::invalid_argument("isolationRisk: the radius must be >= 0");
  for (Eigen::Index i = 0; i < y.size(); ++i) {
    if (std::isnan(y[i])) throw std::invalid_argument("isolationRisk: y contains NaN");
  }
  std::vector<double> sorted(y.data(), y.data() + y.size());
  std::sort(sorted.begin(), sorted.end());
  const double n = static_cast<double>(sorted.size());
  Eigen::VectorXd risk(y.size());
  for (Eigen::Index i = 0; i < y.size(); ++i) {
    const double yi = y[i];
    const double ri = relative ? r * std::abs(yi) : r;
    // The neighbourhood {j : |y_j - y_i| <= r_i} is a contiguous run of the sorted values. The
    // predicates are written with the same floating-point differences as the definition (both
    // are monotone in y_j), so the count agrees exactly with the O(n^2) definition, also at
    // the boundary.
    const auto first =
        std::partition_point(sorted.begin(), sorted.end(), [&](double v) { return yi - v > ri; });
    const auto last =
        std::partition_point(first, sorted.end(), [&](double v) { return v - yi <= ri; });
    risk[i] = (n - static_cast<double>(last - first)) / n;
  }
  return risk;
}

std::vector<double> cwWeights(const Eigen::VectorXd& y, double r, bool relative, double c,
                              double g) {
  requireTuning(c, g, "cwWeights");
  const Eigen::VectorXd risk = isolationRisk(y, r, relative);
  std::vector<double> alpha(static_cast<std::size_t>(risk.size()));
  for (Eigen::Index i = 0; i < risk.size(); ++i) {
    alpha[static_cast<std::size_t>(i)] = clamp01(c * (1.0 - risk[i]) + g);
  }
  return alpha;
}

std::vector<double> reweight(const std::vector<double>& alpha,
                             const Eigen::VectorXd& deltaPerRecord, double k) {
  if (!(k > 0.0 && k <= 1.0)) throw std::invalid_argument("reweight: k must be in (0, 1]");
  requireWeights(alpha, "reweight");
  requireBounds(alpha, deltaPerRecord, "reweight");
  std::vector<double> out(alpha.size());
  if (alpha.empty()) return out;
  const double overall = deltaPerRecord.maxCoeff();
  for (std::size_t i = 0; i < alpha.size(); ++i) {
    const double own = deltaPerRecord[static_cast<Eigen::Index>(i)];
    if (alpha[i] == 0.0) {
      out[i] = 0.0;  // an excluded record stays excluded
    } else if (own == 0.0) {
      out[i] = 1.0;  // contributes nothing at any weight, so it costs no privacy
    } else {
      // (k alpha) * (Δ/Δ_i) with Δ/Δ_i >= 1: rounding is monotone, so the result is never
      // below k alpha.
      out[i] = clamp01((k * alpha[i]) * (overall / own));
    }
  }
  return out;
}

std::vector<double> truncateAbove(const std::vector<double>& alpha,
                                  const Eigen::VectorXd& deltaPerRecord, double halfEpsilon,
                                  std::size_t* truncated) {
  if (!(halfEpsilon > 0.0)) throw std::invalid_argument("truncateAbove: epsilon/2 must be > 0");
  requireWeights(alpha, "truncateAbove");
  if (static_cast<Eigen::Index>(alpha.size()) != deltaPerRecord.size()) {
    throw std::invalid_argument("truncateAbove: weights and per-record bounds differ in size");
  }
  std::vector<double> out = alpha;
  std::size_t count = 0;
  for (std::size_t i = 0; i < out.size(); ++i) {
    const double own = deltaPerRecord[static_cast<Eigen::Index>(i)];
    if (std::isnan(own)) throw std::invalid_argument("truncateAbove: a per-record bound is NaN");
    if (own > halfEpsilon) {
      out[i] = 0.0;
      ++count;
    }
  }
  if (truncated != nullptr) *truncated = count;
  return out;
}

std::vector<double> downscale(const std::vector<double>& alpha, double d) {
  if (!(d > 0.0 && d <= 1.0)) throw std::invalid_argument("downscale: d must be in (0, 1]");
  requireWeights(alpha, "downscale");
  std::vector<double> out = alpha;
  for (double& a : out) a *= d;
  return out;
}

}  // namespace dpsynth::core::privacy
