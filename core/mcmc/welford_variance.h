#pragma once
/// Running mean and variance per coordinate (Welford's update): numerically stable in one pass.
#include <Eigen/Dense>

namespace dpsynth::core::mcmc {

class WelfordVariance {
 public:
  explicit WelfordVariance(int dim);
  void restart();
  void add(const Eigen::VectorXd& x);
  int count() const { return count_; }
  const Eigen::VectorXd& mean() const { return mean_; }
  /// Unbiased sample variance (divisor n - 1); zeros while fewer than two samples.
  Eigen::VectorXd variance() const;

 private:
  int count_ = 0;
  Eigen::VectorXd mean_;
  Eigen::VectorXd m2_;
};

}  // namespace dpsynth::core::mcmc
