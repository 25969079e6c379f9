#include "core/mcmc/welford_variance.h"

#include <stdexcept>

namespace dpsynth::core::mcmc {

WelfordVariance::WelfordVariance(int dim) {
  if (dim < 1) throw std::invalid_argument("WelfordVariance: dimension must be >= 1");
  mean_ = Eigen::VectorXd::Zero(dim);
  m2_ = Eigen::VectorXd::Zero(dim);
}

void WelfordVariance::restart() {
  count_ = 0;
  mean_.setZero();
  m2_.setZero();
}

void WelfordVariance::add(const Eigen::VectorXd& x) {
  if (x.size() != mean_.size()) throw std::invalid_argument("WelfordVariance: wrong size");
  ++count_;
  const Eigen::VectorXd delta = x - mean_;
  mean_ += delta / static_cast<double>(count_);
  m2_ += delta.cwiseProduct(x - mean_);
}

Eigen::VectorXd WelfordVariance::variance() const {
  if (count_ < 2) return Eigen::VectorXd::Zero(mean_.size());
  return m2_ / static_cast<double>(count_ - 1);
}

}  // namespace dpsynth::core::mcmc
