#pragma once
/// Utility of synthetic data against the confidential data (SPEC §5).
#include <Eigen/Dense>
#include <stop_token>
#include <vector>

namespace dpsynth::core::utility {

/// Type-7 quantile (R's default) of an unsorted sample; p in [0,1].
double quantile(const Eigen::VectorXd& values, double p);
/// Type-7 quantile of an already sorted std::vector.
double quantileSorted(const std::vector<double>& sorted, double p);

struct DistributionSummary {
  double mean = 0, median = 0, q15 = 0, q90 = 0;
};
/// Sorting 10^7 values takes a second: `stop` is checked throughout (exec::Cancelled).
DistributionSummary describe(const Eigen::VectorXd& values, const std::stop_token& stop = {});

struct UtilityMeasures {
  double mean = 0, median = 0, q15 = 0, q90 = 0;  ///< of the synthetic data
  double maxEcdf = 0;  ///< max over pooled points v of |F_conf(v) - F_syn(v)|
  double avgEcdf = 0;  ///< mean over pooled points v of (F_conf(v) - F_syn(v))^2
};
/// O((n + m) log(n + m)). An empty confidential sample (an empty database) gives NaN ECDF
/// measures; describe() of an empty sample is all NaN.
UtilityMeasures measureUtility(const Eigen::VectorXd& confidential,
                               const Eigen::VectorXd& synthetic, const std::stop_token& stop = {});

}  // namespace dpsynth::core::utility
