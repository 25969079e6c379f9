#include "core/mcmc/windowed_metric_adapter.h"

#include <stdexcept>

namespace dpsynth::core::mcmc {

namespace {
/// Stan's threshold: fewer warm-up iterations leave no room for a meaningful estimate.
constexpr int kMinWarmupForMetric = 20;

constexpr const char* kOverflow =
    "numerical overflow in metric adaptation: the chain reached extreme values on the "
    "unconstrained scale (is the posterior improper or very wide?)";
}  // namespace

Eigen::MatrixXd regularisedCovariance(const Eigen::MatrixXd& covariance, double n) {
  const double weight = n / (n + 5.0);
  const Eigen::VectorXd sd = covariance.diagonal().cwiseMax(0.0).cwiseSqrt();
  // The diagonal adapter's variances, exactly.
  const Eigen::VectorXd var =
      (weight * covariance.diagonal().array() + 1e-3 * (5.0 / (n + 5.0))).matrix();
  const Eigen::VectorXd s = var.cwiseSqrt();
  Eigen::MatrixXd out(covariance.rows(), covariance.cols());
  for (Eigen::Index j = 0; j < covariance.cols(); ++j) {
    for (Eigen::Index i = 0; i < covariance.rows(); ++i) {
      if (i == j) {
        out(i, j) = var[i];
      } else if (sd[i] > 0.0 && sd[j] > 0.0) {
        out(i, j) = weight * covariance(i, j) / (sd[i] * sd[j]) * s[i] * s[j];
      } else {
        out(i, j) = 0.0;  // a coordinate that never moved in the window: no correlation to keep
      }
    }
  }
  return out;
}

WindowedMetricAdapter::WindowedMetricAdapter(MetricKind kind, int dim, int warmup, int initBuffer,
                                             int termBuffer, int baseWindow)
    : WindowedMetricAdapter(dim, warmup, initBuffer, termBuffer, baseWindow) {
  kind_ = kind;
  if (kind == MetricKind::dense) covariance_.emplace(dim);
}

WindowedMetricAdapter::WindowedMetricAdapter(int dim, int warmup, int initBuffer, int termBuffer,
                                             int baseWindow)
    : estimator_(dim) {
  if (warmup < 0 || initBuffer < 0 || termBuffer < 0 || baseWindow < 1) {
    throw std::invalid_argument("WindowedMetricAdapter: negative warm-up or buffer sizes");
  }
  if (warmup < kMinWarmupForMetric) return;  // disabled
  warmup_ = warmup;
  if (initBuffer + baseWindow + termBuffer > warmup) {
    initBuffer_ = static_cast<int>(0.15 * warmup);
    termBuffer_ = static_cast<int>(0.1 * warmup);
    baseWindow_ = warmup - (initBuffer_ + termBuffer_);
  } else {
    initBuffer_ = initBuffer;
    termBuffer_ = termBuffer;
    baseWindow_ = baseWindow;
  }
  windowSize_ = baseWindow_;
  nextWindowEnd_ = initBuffer_ + windowSize_ - 1;
}

bool WindowedMetricAdapter::inSlowWindow() const {
  return counter_ >= initBuffer_ && counter_ < warmup_ - termBuffer_ && counter_ != warmup_;
}

bool WindowedMetricAdapter::atWindowEnd() const {
  return counter_ == nextWindowEnd_ && counter_ != warmup_;
}

void WindowedMetricAdapter::computeNextWindow() {
  const int lastSlowIteration = warmup_ - termBuffer_ - 1;
  if (nextWindowEnd_ == lastSlowIteration) return;
  windowSize_ *= 2;
  nextWindowEnd_ = counter_ + windowSize_;
  // Stretch this window to the terminal buffer if the one after it would not fit.
  if (nextWindowEnd_ != lastSlowIteration) {
    const int nextBoundary = nextWindowEnd_ + 2 * windowSize_;
    if (nextBoundary >= warmup_ - termBuffer_) nextWindowEnd_ = lastSlowIteration;
  }
}

bool WindowedMetricAdapter::learn(const Eigen::VectorXd& q, Eigen::VectorXd& inverseMetric) {
  if (kind_ != MetricKind::diag) {
    throw std::logic_error("WindowedMetricAdapter: a dense adapter learns a matrix");
  }
  if (disabled()) return false;
  if (inSlowWindow()) estimator_.add(q);
  if (atWindowEnd()) {
    computeNextWindow();
    const double n = static_cast<double>(estimator_.count());
    inverseMetric = (n / (n + 5.0)) * estimator_.variance().array() + 1e-3 * (5.0 / (n + 5.0));
    if (!inverseMetric.allFinite()) throw std::runtime_error(kOverflow);
    estimator_.restart();
    ++counter_;
    return true;
  }
  ++counter_;
  return false;
}

bool WindowedMetricAdapter::learn(const Eigen::VectorXd& q, Eigen::MatrixXd& inverseMetric) {
  if (kind_ != MetricKind::dense) {
    throw std::logic_error("WindowedMetricAdapter: a diagonal adapter learns a vector");
  }
  if (disabled()) return false;
  if (inSlowWindow()) covariance_->add(q);
  if (atWindowEnd()) {
    computeNextWindow();
    inverseMetric =
        regularisedCovariance(covariance_->covariance(), static_cast<double>(covariance_->count()));
    if (!inverseMetric.allFinite()) throw std::runtime_error(kOverflow);
    covariance_->restart();
    ++counter_;
    return true;
  }
  ++counter_;
  return false;
}

}  // namespace dpsynth::core::mcmc
