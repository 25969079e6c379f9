#include "core/mcmc/diagonal_metric.h"

#include <cmath>
#include <stdexcept>

namespace dpsynth::core::mcmc {

namespace {

void checkInverse(const Eigen::VectorXd& inverse) {
  if (inverse.size() < 1) throw std::invalid_argument("DiagonalMetric: dimension must be >= 1");
  for (Eigen::Index i = 0; i < inverse.size(); ++i) {
    if (!(std::isfinite(inverse[i]) && inverse[i] > 0.0)) {
      throw std::invalid_argument("DiagonalMetric: inverse mass entries must be finite and > 0");
    }
  }
}

}  // namespace

DiagonalMetric::DiagonalMetric(int dim) {
  if (dim < 1) throw std::invalid_argument("DiagonalMetric: dimension must be >= 1");
  inverse_ = Eigen::VectorXd::Ones(dim);
}

DiagonalMetric::DiagonalMetric(Eigen::VectorXd inverseDiagonal)
    : inverse_(std::move(inverseDiagonal)) {
  checkInverse(inverse_);
}

void DiagonalMetric::setInverse(const Eigen::VectorXd& inverseDiagonal) {
  if (inverseDiagonal.size() != inverse_.size()) {
    throw std::invalid_argument("DiagonalMetric: new inverse metric has the wrong size");
  }
  checkInverse(inverseDiagonal);
  inverse_ = inverseDiagonal;
}

double DiagonalMetric::kineticEnergy(const Eigen::VectorXd& p) const {
  return 0.5 * p.cwiseProduct(inverse_).dot(p);
}

double DiagonalMetric::kineticEnergy(const Eigen::VectorXd& p, const Eigen::VectorXd&) const {
  return kineticEnergy(p);
}

void DiagonalMetric::velocityInto(const Eigen::VectorXd& p, Eigen::VectorXd& v) const {
  v = inverse_.cwiseProduct(p);
}

void DiagonalMetric::sampleMomentum(random::Rng& rng, Eigen::VectorXd& p) const {
  p.resize(inverse_.size());
  for (Eigen::Index i = 0; i < inverse_.size(); ++i) {
    p[i] = random::standardNormal(rng) / std::sqrt(inverse_[i]);
  }
}

}  // namespace dpsynth::core::mcmc
