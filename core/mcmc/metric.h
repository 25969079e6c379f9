#pragma once
/// The Euclidean metric of Hamiltonian Monte Carlo: kinetic energy τ(p) = pᵀM⁻¹p/2 with
/// momentum p ~ Normal(0, M). Two implementations: DiagonalMetric (M⁻¹ diagonal, adapted from
/// the posterior variances) and DenseMetric (M⁻¹ full, adapted from the posterior covariance,
/// which also undoes linear correlations between coordinates).
#include <Eigen/Dense>
#include <string>

#include "core/random/rng.h"

namespace dpsynth::core::mcmc {

enum class MetricKind { diag, dense };

/// "diag" | "dense".
std::string metricKindName(MetricKind kind);

class Metric {
 public:
  virtual ~Metric() = default;
  virtual int dim() const = 0;
  virtual MetricKind kind() const = 0;
  /// Kinetic energy τ(p) = pᵀM⁻¹p/2.
  virtual double kineticEnergy(const Eigen::VectorXd& p) const = 0;
  /// τ(p) when v = M⁻¹p is already known (the tree builder needs both at every state): the
  /// same bits as kineticEnergy(p), without its second matrix-vector product for a dense metric.
  virtual double kineticEnergy(const Eigen::VectorXd& p, const Eigen::VectorXd& v) const = 0;
  /// dτ/dp = M⁻¹p: the velocity of q, and the "p sharp" of the no-U-turn criterion.
  Eigen::VectorXd velocity(const Eigen::VectorXd& p) const {
    Eigen::VectorXd v;
    velocityInto(p, v);
    return v;
  }
  /// velocity(p) written into v (resized to dim()), so that a warm sampler allocates nothing.
  virtual void velocityInto(const Eigen::VectorXd& p, Eigen::VectorXd& v) const = 0;
  /// Draws p ~ Normal(0, M) into p (resized to dim()).
  virtual void sampleMomentum(random::Rng& rng, Eigen::VectorXd& p) const = 0;
};

}  // namespace dpsynth::core::mcmc
