#pragma once
/// The Euclidean metric with a full mass matrix M. We store M⁻¹, which warm-up estimates (the
/// posterior covariance), and its Cholesky factor M⁻¹ = LLᵀ: momenta are drawn as p = L⁻ᵀε with
/// ε ~ Normal(0, I), so that Cov(p) = L⁻ᵀL⁻¹ = (LLᵀ)⁻¹ = M. With M⁻¹ equal to the posterior
/// covariance, the dynamics see a posterior that is uncorrelated with unit scales.
#include <Eigen/Dense>

#include "core/mcmc/metric.h"
#include "core/random/rng.h"

namespace dpsynth::core::mcmc {

class DenseMetric final : public Metric {
 public:
  /// The unit metric of the given dimension.
  explicit DenseMetric(int dim);
  /// Throws std::invalid_argument unless the matrix is square, finite, symmetric (to 1e-10
  /// relative) and positive definite.
  explicit DenseMetric(const Eigen::MatrixXd& inverse);

  int dim() const override { return static_cast<int>(inverse_.rows()); }
  MetricKind kind() const override { return MetricKind::dense; }
  const Eigen::MatrixXd& inverse() const { return inverse_; }
  /// Lower-triangular L with M⁻¹ = LLᵀ.
  Eigen::MatrixXd choleskyFactor() const { return upper_.transpose(); }
  /// Replaces M⁻¹ (symmetrised); same checks as the constructor.
  void setInverse(const Eigen::MatrixXd& inverse);
  /// As setInverse, but returns false (and keeps the old metric) for a matrix that is not
  /// numerically positive definite; still throws for a wrong size or non-finite entries.
  bool trySetInverse(const Eigen::MatrixXd& inverse);

  double kineticEnergy(const Eigen::VectorXd& p) const override;
  double kineticEnergy(const Eigen::VectorXd& p, const Eigen::VectorXd& v) const override;
  void velocityInto(const Eigen::VectorXd& p, Eigen::VectorXd& v) const override;
  void sampleMomentum(random::Rng& rng, Eigen::VectorXd& p) const override;

 private:
  Eigen::MatrixXd inverse_;
  Eigen::MatrixXd upper_;  ///< Lᵀ, upper triangular
};

}  // namespace dpsynth::core::mcmc
