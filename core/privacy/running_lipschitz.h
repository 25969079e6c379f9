#pragma once
/// The per-record Lipschitz bound of SPEC §1 kept up to date while a sampler's draws arrive, so
/// that a display can fill in before the stage ends. Only running maxima are stored: memory is
/// O(n) whatever the number of draws, and never draws × records.
#include <Eigen/Dense>
#include <cstddef>
#include <memory>
#include <mutex>

#include "core/models/model.h"
#include "core/privacy/contribution_groups.h"

namespace dpsynth::core::privacy {

class RunningLipschitz {
 public:
  /// The weights alpha and the clamp interval [L, U] are the model's own (model->weights()). Throws
  /// std::invalid_argument for a null model.
  explicit RunningLipschitz(std::shared_ptr<const models::SynthesisModel> model);

  /// Adds unconstrained draws (rows × dim; any number of rows, in any order). Thread-safe: the
  /// record log-likelihoods are computed outside the lock, only the O(n) merge is serialized.
  /// After all of a stage's draws, perRecord() equals computeLipschitz(...).perRecord exactly.
  void addDraws(const Eigen::MatrixXd& rows);

  /// Snapshot of Δ_i = max over the draws so far of |clamp(alpha_i f(x_i), L, U)| (zeros
  /// before the first draw).
  Eigen::VectorXd perRecord() const;
  /// max_i perRecord()_i (0 before the first draw).
  double max() const;
  /// Number of draws added so far.
  std::size_t draws() const;

 private:
  std::shared_ptr<const models::SynthesisModel> model_;
  ContributionGroups groups_;  ///< built once: every batch reuses it
  mutable std::mutex mutex_;
  Eigen::VectorXd perRecord_;
  double max_ = 0.0;
  std::size_t draws_ = 0;
};

}  // namespace dpsynth::core::privacy
