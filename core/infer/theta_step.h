#pragma once
/// θ | x for a data-augmentation chain whose model has no conjugate draw (SPEC §6 step 1: "one
/// NUTS step on the confidential-data posterior"). One object per chain: it holds the chain's
/// sufficient statistics of the latent records (updated in O(1) per accepted move, never
/// regrouped) and the adapted NUTS kernel, and draws records from the current θ.
#include <Eigen/Dense>
#include <stop_token>

#include "core/random/rng.h"

namespace dpsynth::core::infer {

class ThetaStep {
 public:
  virtual ~ThetaStep() = default;
  /// Adds a record to the statistics (the chain's initial records).
  virtual void addRecord(const double* record) = 0;
  /// Replaces record `from` by `to` in the statistics (an accepted proposal). O(1) in n.
  virtual void moveRecord(const double* from, const double* to) = 0;
  /// Places the chain at θ (constrained, as RecordAdditiveModel::initialTheta gives it) once
  /// the initial records are added; searches the initial step size, drawing from rng.
  virtual void start(const Eigen::VectorXd& theta, random::Rng& rng, std::stop_token stop) = 0;
  /// One NUTS transition given the current records (adapting during the first `warmup` calls);
  /// returns the new θ (constrained). After a cancelled transition θ is unchanged.
  virtual Eigen::VectorXd step(random::Rng& rng, std::stop_token stop) = 0;
  /// Draws one record x ~ f(· | current θ) into out (cheaper than the model's drawRecord: the
  /// family's per-θ constants are computed once per step).
  virtual void drawRecord(random::Rng& rng, double* out) const = 0;
  /// Log-density and gradient evaluations so far.
  virtual long long gradientEvaluations() const = 0;
};

}  // namespace dpsynth::core::infer
