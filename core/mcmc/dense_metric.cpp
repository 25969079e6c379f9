#include "core/mcmc/dense_metric.h"

#include <cmath>
#include <stdexcept>

namespace dpsynth::core::mcmc {

namespace {

[[noreturn]] void reject(const char* problem) {
  throw std::invalid_argument(std::string("DenseMetric: ") + problem);
}

}  // namespace

DenseMetric::DenseMetric(int dim) {
  if (dim < 1) reject("dimension must be >= 1");
  inverse_ = Eigen::MatrixXd::Identity(dim, dim);
  upper_ = inverse_;
}

DenseMetric::DenseMetric(const Eigen::MatrixXd& inverse) {
  if (inverse.rows() < 1) reject("dimension must be >= 1");
  inverse_ = Eigen::MatrixXd::Identity(inverse.rows(), inverse.rows());
  setInverse(inverse);
}

void DenseMetric::setInverse(const Eigen::MatrixXd& inverse) {
  if (!trySetInverse(inverse)) reject("the inverse metric must be positive definite");
}

bool DenseMetric::trySetInverse(const Eigen::MatrixXd& inverse) {
  if (inverse.rows() != inverse.cols()) reject("the inverse metric must be square");
  if (inverse_.size() > 0 && inverse.rows() != inverse_.rows()) {
    reject("new inverse metric has the wrong size");
  }
  if (!inverse.allFinite()) reject("inverse metric entries must be finite");
  const double scale = inverse.cwiseAbs().maxCoeff();
  if (!((inverse - inverse.transpose()).cwiseAbs().maxCoeff() <= 1e-10 * scale)) {
    reject("the inverse metric must be symmetric");
  }
  const Eigen::MatrixXd symmetric = 0.5 * (inverse + inverse.transpose());
  const Eigen::LLT<Eigen::MatrixXd> llt(symmetric);
  if (llt.info() != Eigen::Success) return false;
  Eigen::MatrixXd upper = llt.matrixU();
  if (!(upper.diagonal().array() > 0.0).all() || !upper.allFinite()) return false;
  inverse_ = symmetric;
  upper_ = std::move(upper);
  return true;
}

double DenseMetric::kineticEnergy(const Eigen::VectorXd& p) const {
  return 0.5 * p.dot(inverse_ * p);
}

// p.dot(inverse_ * p) above evaluates the product into a temporary with the same matrix-vector
// kernel as velocityInto, so both overloads give the same bits.
double DenseMetric::kineticEnergy(const Eigen::VectorXd& p, const Eigen::VectorXd& v) const {
  return 0.5 * p.dot(v);
}

void DenseMetric::velocityInto(const Eigen::VectorXd& p, Eigen::VectorXd& v) const {
  v.noalias() = inverse_ * p;
}

void DenseMetric::sampleMomentum(random::Rng& rng, Eigen::VectorXd& p) const {
  const Eigen::Index n = inverse_.rows();
  p.resize(n);
  for (Eigen::Index i = 0; i < n; ++i) p[i] = random::standardNormal(rng);
  upper_.triangularView<Eigen::Upper>().solveInPlace(p);  // Lᵀp = ε
}

}  // namespace dpsynth::core::mcmc
