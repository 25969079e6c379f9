#pragma once
/// The Euclidean metric with a diagonal mass matrix M. We store the inverse diagonal M^{-1},
/// which is what warm-up estimates (the posterior variances).
#include <Eigen/Dense>

#include "core/mcmc/metric.h"
#include "core/random/rng.h"

namespace dpsynth::core::mcmc {

class DiagonalMetric final : public Metric {
 public:
  /// The unit metric of the given dimension.
  explicit DiagonalMetric(int dim);
  /// Throws std::invalid_argument unless every entry is finite and positive.
  explicit DiagonalMetric(Eigen::VectorXd inverseDiagonal);

  int dim() const override { return static_cast<int>(inverse_.size()); }
  MetricKind kind() const override { return MetricKind::diag; }
  const Eigen::VectorXd& inverse() const { return inverse_; }
  /// Replaces M^{-1}; same checks as the constructor.
  void setInverse(const Eigen::VectorXd& inverseDiagonal);

  /// Kinetic energy tau(p) = p' M^{-1} p / 2.
  double kineticEnergy(const Eigen::VectorXd& p) const override;
  /// As kineticEnergy(p): the diagonal product costs no more than reading v.
  double kineticEnergy(const Eigen::VectorXd& p, const Eigen::VectorXd& v) const override;
  /// d tau / d p = M^{-1} p: the velocity of q, and the "p sharp" of the no-U-turn criterion.
  void velocityInto(const Eigen::VectorXd& p, Eigen::VectorXd& v) const override;
  /// Draws p ~ Normal(0, M) into p (resized to dim()).
  void sampleMomentum(random::Rng& rng, Eigen::VectorXd& p) const override;

 private:
  Eigen::VectorXd inverse_;
};

}  // namespace dpsynth::core::mcmc
