#pragma once
/// Running mean and covariance matrix (Welford's update), the dense counterpart of
/// WelfordVariance: numerically stable in one pass.
#include <Eigen/Dense>

namespace dpsynth::core::mcmc {

class WelfordCovariance {
 public:
  explicit WelfordCovariance(int dim);
  void restart();
  void add(const Eigen::VectorXd& x);
  int count() const { return count_; }
  const Eigen::VectorXd& mean() const { return mean_; }
  /// Unbiased sample covariance (divisor n − 1), exactly symmetric; zeros while fewer than two
  /// samples.
  Eigen::MatrixXd covariance() const;

 private:
  int count_ = 0;
  Eigen::VectorXd mean_;
  Eigen::MatrixXd m2_;
};

}  // namespace dpsynth::core::mcmc
