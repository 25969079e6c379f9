#pragma once
/// A model for data-augmentation inference from a record-additive release (SPEC §6, paper 004):
/// the release density is η(s_dp | x) = g(s_dp, T) with T = Σ_i t_i(x_i), so replacing one latent
/// record changes log η through T alone. Records are rows of doubles (categorical codes or
/// continuous values); θ is a vector. Implementations are immutable and shared by all chains.
#include <Eigen/Dense>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/infer/theta_step.h"
#include "core/random/rng.h"

namespace dpsynth::core::infer {

class RecordAdditiveModel {
 public:
  virtual ~RecordAdditiveModel() = default;

  /// n: the number of latent records (public in the release).
  virtual int recordCount() const = 0;
  /// Doubles per record.
  virtual int recordWidth() const = 0;
  /// Length of T.
  virtual int statisticDim() const = 0;
  /// Length of θ.
  virtual int parameterDim() const = 0;
  virtual std::vector<std::string> parameterNames() const = 0;

  /// A starting θ (e.g. a prior draw).
  virtual Eigen::VectorXd initialTheta(random::Rng& rng) const = 0;
  /// Draws one record x ~ f(· | θ) into out (recordWidth() doubles).
  virtual void drawRecord(const Eigen::VectorXd& theta, random::Rng& rng, double* out) const = 0;
  /// T += t(record).
  virtual void addStatistic(const double* record, Eigen::VectorXd& T) const = 0;
  /// Replaces t(from) by t(to) in T and returns log η(s_dp | new T) − log η(s_dp | old T),
  /// touching only the entries the two records reach (O(1) in n). Calling it again with the
  /// arguments swapped restores T.
  virtual double moveStatistic(Eigen::VectorXd& T, const double* from, const double* to) const = 0;
  /// A draw of θ from its prior, for models that have one to offer (the sampler's joint
  /// prior-predictive step, da_sampler.h); nullopt otherwise.
  virtual std::optional<Eigen::VectorXd> drawPriorTheta(random::Rng& rng) const {
    (void)rng;
    return std::nullopt;
  }
  /// Draws θ ~ p(θ | x) given the records' statistic T (conjugate models).
  virtual Eigen::VectorXd drawTheta(const Eigen::VectorXd& T, random::Rng& rng) const = 0;
  /// Models without a conjugate θ | x return a fresh per-chain θ step (theta_step.h) whose
  /// first `warmup` steps adapt; the sampler then uses it instead of drawTheta and drawRecord.
  /// Conjugate models return nullptr.
  virtual std::unique_ptr<ThetaStep> makeThetaStep(int warmup) const {
    (void)warmup;
    return nullptr;
  }
};

}  // namespace dpsynth::core::infer
