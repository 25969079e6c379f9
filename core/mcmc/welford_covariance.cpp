#include "core/mcmc/welford_covariance.h"

#include <stdexcept>

namespace dpsynth::core::mcmc {

WelfordCovariance::WelfordCovariance(int dim) {
  if (dim < 1) throw std::invalid_argument("WelfordCovariance: dimension must be >= 1");
  mean_ = Eigen::VectorXd::Zero(dim);
  m2_ = Eigen::MatrixXd::Zero(dim, dim);
}

void WelfordCovariance::restart() {
  count_ = 0;
  mean_.setZero();
  m2_.setZero();
}

void WelfordCovariance::add(const Eigen::VectorXd& x) {
  if (x.size() != mean_.size()) throw std::invalid_argument("WelfordCovariance: wrong size");
  ++count_;
  const Eigen::VectorXd delta = x - mean_;
  mean_ += delta / static_cast<double>(count_);
  m2_.noalias() += (x - mean_) * delta.transpose();
}

Eigen::MatrixXd WelfordCovariance::covariance() const {
  if (count_ < 2) return Eigen::MatrixXd::Zero(mean_.size(), mean_.size());
  // (x − mean_new)(x − mean_old)ᵀ is symmetric only in exact arithmetic.
  return (m2_ + m2_.transpose()) / (2.0 * static_cast<double>(count_ - 1));
}

}  // namespace dpsynth::core::mcmc
