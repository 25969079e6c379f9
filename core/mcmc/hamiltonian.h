#pragma once
/// H(q, p) = -log pi(q) + tau(p) for a model and a metric (diagonal or dense). The only place where
/// the sampler calls the model, so it also counts gradient evaluations.
#include <Eigen/Dense>

#include "core/mcmc/metric.h"
#include "core/mcmc/phase_point.h"
#include "core/models/model.h"

namespace dpsynth::core::mcmc {

class Hamiltonian {
 public:
  /// Both references must outlive the Hamiltonian; the metric may change between transitions
  /// (warm-up adapts it in place).
  Hamiltonian(const models::Model& model, const Metric& metric) : model_(model), metric_(metric) {}

  const models::Model& model() const { return model_; }
  const Metric& metric() const { return metric_; }

  /// Evaluates log density and gradient at z.q. Any non-finite log density or gradient is
  /// stored as logDensity = -inf: the point is outside the support, and the tree builder turns
  /// it into a divergence instead of propagating NaN.
  void updatePotential(PhasePoint& z);
  /// Total energy; +inf outside the support or when the arithmetic produced NaN.
  double energy(const PhasePoint& z) const;
  /// energy(z) given v = velocity(z): the same bits, one matrix-vector product fewer.
  double energy(const PhasePoint& z, const Eigen::VectorXd& v) const;
  Eigen::VectorXd velocity(const PhasePoint& z) const { return metric_.velocity(z.p); }
  void velocity(const PhasePoint& z, Eigen::VectorXd& v) const { metric_.velocityInto(z.p, v); }
  void sampleMomentum(PhasePoint& z, random::Rng& rng) const { metric_.sampleMomentum(rng, z.p); }

  long long gradientEvaluations() const { return gradientEvaluations_; }

 private:
  const models::Model& model_;
  const Metric& metric_;
  long long gradientEvaluations_ = 0;
};

}  // namespace dpsynth::core::mcmc
