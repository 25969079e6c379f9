#include "core/utility/kernel_density.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

namespace dpsynth::core::utility {
namespace {

/// Direct evaluation costs n·grid kernel evaluations; below this it is fast and exact.
constexpr double kExactWorkLimit = 1e6;
/// The binned path truncates the kernel here; exp(−18) ≈ 1.5e-8 of the peak is lost.
constexpr double kKernelSupport = 6.0;

void checkValues(std::span<const double> values) {
  if (values.empty()) throw std::invalid_argument("kernel density: empty sample");
  for (double v : values) {
    if (!std::isfinite(v)) throw std::invalid_argument("kernel density: non-finite value");
  }
}

/// Type-7 quantile of sorted data (kept local so this file has no dependency on its neighbours).
double sortedQuantile(const std::vector<double>& sorted, double p) {
  const double h = (static_cast<double>(sorted.size()) - 1) * p;
  const auto lo = static_cast<size_t>(std::floor(h));
  const size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (h - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

double gaussian(double z) { return std::exp(-0.5 * z * z) / std::sqrt(2 * std::numbers::pi); }

}  // namespace

double silvermanBandwidth(std::span<const double> values) {
  checkValues(values);
  const auto n = static_cast<double>(values.size());
  double mean = 0;
  for (double v : values) mean += v;
  mean /= n;
  double ss = 0;
  for (double v : values) ss += (v - mean) * (v - mean);
  const double sd = values.size() > 1 ? std::sqrt(ss / (n - 1)) : 0.0;
  std::vector<double> sorted(values.begin(), values.end());
  std::sort(sorted.begin(), sorted.end());
  const double iqrScale = (sortedQuantile(sorted, 0.75) - sortedQuantile(sorted, 0.25)) / 1.34;

  double scale = std::min(sd, iqrScale);
  if (!(scale > 0)) scale = sd;
  if (!(scale > 0)) scale = 1e-3 * std::abs(mean);
  if (!(scale > 0)) scale = 1e-3;
  return 0.9 * scale * std::pow(n, -0.2);
}

DensityEstimate kernelDensityOn(std::span<const double> values, double lo, double hi, int gridSize,
                                double bandwidth) {
  checkValues(values);
  if (gridSize < 2) throw std::invalid_argument("kernel density: grid needs at least 2 points");
  if (!(hi > lo) || !std::isfinite(lo) || !std::isfinite(hi)) {
    throw std::invalid_argument("kernel density: grid range must satisfy lo < hi");
  }
  const double h = bandwidth > 0 ? bandwidth : silvermanBandwidth(values);
  const auto m = static_cast<size_t>(gridSize);
  const double step = (hi - lo) / static_cast<double>(gridSize - 1);
  const auto n = static_cast<double>(values.size());

  DensityEstimate out;
  out.bandwidth = h;
  out.grid.resize(m);
  out.density.assign(m, 0.0);
  for (size_t k = 0; k < m; ++k) out.grid[k] = lo + step * static_cast<double>(k);

  // Binning costs about m·(2·pad + 1) kernel products; use it only when it is the cheaper path.
  const double padSteps = std::ceil(kKernelSupport * h / step);
  if (n * static_cast<double>(m) <= kExactWorkLimit || 2 * padSteps + 1 >= n) {
    for (size_t k = 0; k < m; ++k) {
      double sum = 0;
      for (double v : values) sum += gaussian((out.grid[k] - v) / h);
      out.density[k] = sum / (n * h);
    }
    return out;
  }

  // Linear binning onto the grid extended by the kernel's support on both sides: a sample at
  // position t (in grid steps) gives weight 1 − frac(t) to bin floor(t) and frac(t) to the next.
  // Samples beyond the extension are further than the truncated kernel reaches and add nothing.
  const auto pad = static_cast<std::ptrdiff_t>(padSteps);
  const std::ptrdiff_t binCount = static_cast<std::ptrdiff_t>(m) + 2 * pad;
  std::vector<double> bins(static_cast<size_t>(binCount), 0.0);
  const double origin = lo - static_cast<double>(pad) * step;
  for (double v : values) {
    const double t = (v - origin) / step;
    if (t < 0 || t > static_cast<double>(binCount - 1)) continue;
    const auto j = std::min(static_cast<std::ptrdiff_t>(t), binCount - 2);
    const double frac = t - static_cast<double>(j);
    bins[static_cast<size_t>(j)] += 1 - frac;
    bins[static_cast<size_t>(j + 1)] += frac;
  }
  std::vector<double> kernel(static_cast<size_t>(pad) + 1);
  for (std::ptrdiff_t d = 0; d <= pad; ++d) {
    kernel[static_cast<size_t>(d)] = gaussian(static_cast<double>(d) * step / h);
  }
  for (std::ptrdiff_t k = 0; k < static_cast<std::ptrdiff_t>(m); ++k) {
    const std::ptrdiff_t centre = k + pad;
    double sum = 0;
    for (std::ptrdiff_t j = centre - pad; j <= centre + pad; ++j) {
      sum += bins[static_cast<size_t>(j)] * kernel[static_cast<size_t>(std::abs(j - centre))];
    }
    out.density[static_cast<size_t>(k)] = sum / (n * h);
  }
  return out;
}

DensityEstimate kernelDensity(std::span<const double> values, int gridSize, double bandwidth,
                              double cut) {
  checkValues(values);
  const double h = bandwidth > 0 ? bandwidth : silvermanBandwidth(values);
  const auto [minIt, maxIt] = std::minmax_element(values.begin(), values.end());
  double lo = *minIt - cut * h, hi = *maxIt + cut * h;
  if (!(hi > lo)) {  // cut ≤ 0 on a constant sample
    lo -= h;
    hi += h;
  }
  return kernelDensityOn(values, lo, hi, gridSize, h);
}

DensityEstimate kernelDensityWithin(std::span<const double> values, double lower, double upper,
                                    int gridSize, double bandwidth, double cut) {
  checkValues(values);
  if (!(lower < upper))
    throw std::invalid_argument("kernel density: bounds must satisfy lower < upper");
  const double h = bandwidth > 0 ? bandwidth : silvermanBandwidth(values);
  const auto [minIt, maxIt] = std::minmax_element(values.begin(), values.end());
  double lo = std::max(lower, *minIt - cut * h), hi = std::min(upper, *maxIt + cut * h);
  if (!(hi > lo)) {  // a constant sample on a bound, or cut ≤ 0
    lo = std::max(lower, lo - h);
    hi = std::min(upper, hi + h);
  }
  DensityEstimate out = kernelDensityOn(values, lo, hi, gridSize, h);
  for (const double bound : {lower, upper}) {
    if (!std::isfinite(bound)) continue;
    std::vector<double> mirrored(values.begin(), values.end());
    for (double& v : mirrored) v = 2 * bound - v;
    const DensityEstimate reflected = kernelDensityOn(mirrored, lo, hi, gridSize, h);
    for (std::size_t k = 0; k < out.density.size(); ++k) out.density[k] += reflected.density[k];
  }
  return out;
}

}  // namespace dpsynth::core::utility
