#pragma once
/// Posterior moments and quantiles by brute-force quadrature on a grid, for checking the sampler
/// against values that do not depend on it. The log density is written in the test itself.
#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

namespace dpsynth::test {

struct Marginal {
  double mean = 0, sd = 0, q025 = 0, q50 = 0, q975 = 0;
};

/// Marginal of a 1-D tabulated density (unnormalised weights w on points x, equally spaced)
/// after a transform t(x). Quantiles by linear interpolation of the CDF.
inline Marginal marginalFromGrid(const std::vector<double>& x, const std::vector<double>& w) {
  double total = 0, m1 = 0, m2 = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    total += w[i];
    m1 += w[i] * x[i];
    m2 += w[i] * x[i] * x[i];
  }
  Marginal m;
  m.mean = m1 / total;
  m.sd = std::sqrt(std::max(0.0, m2 / total - m.mean * m.mean));
  auto quantile = [&](double p) {
    // CDF with each grid cell's mass centred on its point (midpoint rule).
    double acc = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      const double next = acc + w[i] / total;
      if (next >= p) {
        const double h = i + 1 < x.size() ? x[i + 1] - x[i] : x[i] - x[i - 1];
        const double frac = (p - acc) / std::max(next - acc, 1e-300);
        return x[i] - h / 2 + frac * h;
      }
      acc = next;
    }
    return x.back();
  };
  m.q025 = quantile(0.025);
  m.q50 = quantile(0.5);
  m.q975 = quantile(0.975);
  return m;
}

/// Evaluates logDensity on a tensor grid over the given axes, then returns the marginal of each
/// axis (after optional per-axis transforms to the constrained scale; the grid is on the
/// unconstrained scale and logDensity must include the Jacobian). Marginals of transformed
/// variables: mass per grid point is kept, positions are transformed (monotone transforms).
inline std::vector<Marginal> gridMarginals(
    const std::vector<std::vector<double>>& axes,
    const std::function<double(const std::vector<double>&)>& logDensity,
    const std::vector<std::function<double(double)>>& transforms) {
  const std::size_t d = axes.size();
  std::size_t total = 1;
  for (const auto& a : axes) total *= a.size();
  std::vector<double> logs(total);
  std::vector<double> point(d);
  double maxLog = -INFINITY;
  for (std::size_t idx = 0; idx < total; ++idx) {
    std::size_t rest = idx;
    for (std::size_t j = 0; j < d; ++j) {
      point[j] = axes[j][rest % axes[j].size()];
      rest /= axes[j].size();
    }
    logs[idx] = logDensity(point);
    if (std::isfinite(logs[idx])) maxLog = std::max(maxLog, logs[idx]);
  }
  std::vector<std::vector<double>> mass(d);
  for (std::size_t j = 0; j < d; ++j) mass[j].assign(axes[j].size(), 0.0);
  for (std::size_t idx = 0; idx < total; ++idx) {
    const double w = std::isfinite(logs[idx]) ? std::exp(logs[idx] - maxLog) : 0.0;
    std::size_t rest = idx;
    for (std::size_t j = 0; j < d; ++j) {
      mass[j][rest % axes[j].size()] += w;
      rest /= axes[j].size();
    }
  }
  std::vector<Marginal> out;
  for (std::size_t j = 0; j < d; ++j) {
    std::vector<double> x = axes[j];
    if (j < transforms.size() && transforms[j])
      for (double& v : x) v = transforms[j](v);
    // Transformed points are no longer equally spaced: quantiles use the transformed quantile
    // of the untransformed CDF (exact for monotone increasing transforms).
    Marginal onAxis = marginalFromGrid(axes[j], mass[j]);
    Marginal m = marginalFromGrid(x, mass[j]);
    if (j < transforms.size() && transforms[j]) {
      m.q025 = transforms[j](onAxis.q025);
      m.q50 = transforms[j](onAxis.q50);
      m.q975 = transforms[j](onAxis.q975);
    }
    out.push_back(m);
  }
  return out;
}

inline std::vector<double> linspace(double a, double b, int n) {
  std::vector<double> v(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = a + (b - a) * i / (n - 1);
  return v;
}

}  // namespace dpsynth::test
