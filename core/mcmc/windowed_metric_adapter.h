#pragma once
/// Stan's windowed warm-up schedule for the metric (diag_e and dense_e). Warm-up iterations are
/// split into a fast initial buffer (step size only, while the chain finds the typical set), a
/// series of slow windows that double in length and each end with a new variance estimate, and a
/// fast terminal buffer in which the step size settles for the final metric. The last slow window
/// is stretched to reach the terminal buffer.
#include <Eigen/Dense>
#include <optional>

#include "core/mcmc/metric.h"
#include "core/mcmc/welford_covariance.h"
#include "core/mcmc/welford_variance.h"

namespace dpsynth::core::mcmc {

/// The dense metric's regularised estimate from a window's sample covariance Σ̂ of n draws:
/// Stan's shrinkage n/(n + 5) towards a scaled identity, taken in standardised coordinates.
/// Its diagonal is the diagonal adapter's (n/(n + 5)) var + 1e-3 (5/(n + 5)) exactly, and its
/// correlations are Σ̂'s shrunk by n/(n + 5). Stan's (n/(n + 5)) Σ̂ + 1e-3 (5/(n + 5)) I adds the
/// same absolute 1e-3 to every variance, which swamps a coordinate of sd 10⁻⁴ (a coefficient of
/// a covariate in tens of thousands) and keeps the full covariances beside it: the metric then
/// moves such coordinates together on scales the posterior does not have. Here the dense metric
/// never gives a coordinate another scale than the diagonal metric would.
Eigen::MatrixXd regularisedCovariance(const Eigen::MatrixXd& covariance, double n);

class WindowedMetricAdapter {
 public:
  static constexpr int kInitBuffer = 75;
  static constexpr int kTermBuffer = 50;
  static constexpr int kBaseWindow = 25;

  /// If the three stages do not fit into warmup iterations, uses 15% / 75% / 10% of warmup
  /// (truncated) as Stan does; below 20 warm-up iterations the metric is never adapted.
  WindowedMetricAdapter(int dim, int warmup, int initBuffer = kInitBuffer,
                        int termBuffer = kTermBuffer, int baseWindow = kBaseWindow);
  /// The same schedule for either metric: a dense adapter estimates the covariance matrix and
  /// is fed through the MatrixXd overload of learn().
  WindowedMetricAdapter(MetricKind kind, int dim, int warmup, int initBuffer = kInitBuffer,
                        int termBuffer = kTermBuffer, int baseWindow = kBaseWindow);

  /// Call once after every warm-up iteration with the chain's position. Returns true when a
  /// slow window has just ended, in which case inverseMetric holds the new regularised
  /// variance estimate (n / (n + 5)) var + 1e-3 (5 / (n + 5)). Throws std::runtime_error if the
  /// estimate overflows.
  bool learn(const Eigen::VectorXd& q, Eigen::VectorXd& inverseMetric);
  /// The dense counterpart: at the end of a slow window inverseMetric holds
  /// regularisedCovariance(Σ̂, n) of the window's sample covariance Σ̂. Throws
  /// std::logic_error unless the adapter was made for MetricKind::dense.
  bool learn(const Eigen::VectorXd& q, Eigen::MatrixXd& inverseMetric);

  MetricKind kind() const { return kind_; }

  int initBuffer() const { return initBuffer_; }
  int termBuffer() const { return termBuffer_; }
  int baseWindow() const { return baseWindow_; }
  /// True when no slow window exists (warm-up below 20 iterations).
  bool disabled() const { return warmup_ == 0; }

 private:
  bool inSlowWindow() const;
  bool atWindowEnd() const;
  void computeNextWindow();

  int warmup_ = 0;  ///< 0 when adaptation is disabled
  int initBuffer_ = 0, termBuffer_ = 0, baseWindow_ = 0;
  int counter_ = 0;  ///< index of the warm-up iteration being learnt from
  int windowSize_ = 0;
  int nextWindowEnd_ = 0;  ///< index of the last iteration of the current slow window
  MetricKind kind_ = MetricKind::diag;
  WelfordVariance estimator_;
  std::optional<WelfordCovariance> covariance_;  ///< dense adapters only
};

}  // namespace dpsynth::core::mcmc
