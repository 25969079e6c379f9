#include "core/utility/utility.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>

#include "core/exec/interruptible_sort.h"

namespace dpsynth::core::utility {

namespace {

std::vector<double> sortedCopy(const Eigen::VectorXd& values, const char* what,
                               const std::stop_token& stop = {}) {
  std::vector<double> sorted(values.data(), values.data() + values.size());
  for (double v : sorted) {
    // A NaN has no place in an order: sorting would silently give garbage quantiles.
    if (std::isnan(v)) throw std::invalid_argument(std::string(what) + ": values contain NaN");
  }
  exec::stableSort(sorted.begin(), sorted.end(), std::less<double>(), stop);
  return sorted;
}

}  // namespace

double quantileSorted(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) throw std::invalid_argument("quantile: the sample is empty");
  if (!(p >= 0.0 && p <= 1.0)) throw std::invalid_argument("quantile: p must be in [0, 1]");
  // Type 7: h = (n - 1) p, interpolate between the order statistics around h.
  const double h = static_cast<double>(sorted.size() - 1) * p;
  const auto lo = static_cast<std::size_t>(std::floor(h));
  if (lo + 1 >= sorted.size()) return sorted.back();
  const double frac = h - static_cast<double>(lo);
  return sorted[lo] + frac * (sorted[lo + 1] - sorted[lo]);
}

double quantile(const Eigen::VectorXd& values, double p) {
  return quantileSorted(sortedCopy(values, "quantile"), p);
}

DistributionSummary describe(const Eigen::VectorXd& values, const std::stop_token& stop) {
  const std::vector<double> sorted = sortedCopy(values, "describe", stop);
  DistributionSummary s;
  // An empty database (a release whose count is confidential may hold none) has no summary.
  if (sorted.empty()) {
    const double none = std::numeric_limits<double>::quiet_NaN();
    return {none, none, none, none};
  }
  s.mean = values.mean();
  s.median = quantileSorted(sorted, 0.5);
  s.q15 = quantileSorted(sorted, 0.15);
  s.q90 = quantileSorted(sorted, 0.90);
  return s;
}

UtilityMeasures measureUtility(const Eigen::VectorXd& confidential,
                               const Eigen::VectorXd& synthetic, const std::stop_token& stop) {
  const std::vector<double> conf = sortedCopy(confidential, "measureUtility", stop);
  const std::vector<double> syn = sortedCopy(synthetic, "measureUtility", stop);
  if (syn.empty()) throw std::invalid_argument("measureUtility: the synthetic sample is empty");
  UtilityMeasures u;
  const DistributionSummary d = describe(synthetic, stop);
  u.mean = d.mean;
  u.median = d.median;
  u.q15 = d.q15;
  u.q90 = d.q90;
  if (conf.empty()) {  // an empty database: nothing to compare the synthetic data with
    u.maxEcdf = u.avgEcdf = std::numeric_limits<double>::quiet_NaN();
    return u;
  }

  // Merge walk over the pooled sorted points. Each distinct value v is evaluated once all points
  // equal to v (in both samples) are counted, so F(v) = #{x <= v}/n is right under ties; its
  // squared difference is then counted once per pooled point equal to v.
  const double n = static_cast<double>(conf.size());
  const double m = static_cast<double>(syn.size());
  std::size_t i = 0, j = 0;
  double maxDiff = 0.0;
  double sumSq = 0.0;
  while (i < conf.size() || j < syn.size()) {
    double v;
    if (j == syn.size() || (i < conf.size() && conf[i] <= syn[j])) {
      v = conf[i];
    } else {
      v = syn[j];
    }
    std::size_t multiplicity = 0;
    while (i < conf.size() && conf[i] == v) ++i, ++multiplicity;
    while (j < syn.size() && syn[j] == v) ++j, ++multiplicity;
    const double diff = static_cast<double>(i) / n - static_cast<double>(j) / m;
    maxDiff = std::max(maxDiff, std::abs(diff));
    sumSq += static_cast<double>(multiplicity) * diff * diff;
  }
  u.maxEcdf = maxDiff;
  u.avgEcdf = sumSq / (n + m);
  return u;
}

}  // namespace dpsynth::core::utility
