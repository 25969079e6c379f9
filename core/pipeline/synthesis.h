#pragma once
/// Synthetic datasets (SPEC §5) and the report of a run (SPEC §7).
#include <Eigen/Dense>
#include <cstdint>
#include <memory>
#include <stop_token>
#include <string>
#include <vector>

#include "core/data/dataset.h"
#include "core/pipeline/stage.h"
#include "core/utility/utility.h"

namespace dpsynth::core::pipeline {

/// Draws the synthetic datasets of one mechanism one at a time, so that an export of m datasets
/// holds one in memory rather than m, and stops between them. Dataset j uses one posterior draw
/// chosen at random from the final stage's pooled draws (for ph: the noisy histogram), then
/// y*_i ~ p(y | θ_s, X_i), all from random::makeRng(seed, 1000 + j): draw(j) does not depend on
/// which datasets were drawn before.
class Synthesizer {
 public:
  /// Builds the posterior-predictive model (grouping 10^7 records takes seconds: `stop` ends it
  /// with exec::Cancelled). Throws std::invalid_argument for a result without a final fit.
  Synthesizer(const data::Dataset& dataset, const MechanismResult& result,
              const models::ModelSpec& spec, random::Seed seed, const std::stop_token& stop = {});
  ~Synthesizer();
  Synthesizer(const Synthesizer&) = delete;
  Synthesizer& operator=(const Synthesizer&) = delete;

  /// Synthetic dataset j (0-based). Throws exec::Cancelled when `stop` was requested.
  Eigen::VectorXd draw(int j, const std::stop_token& stop = {}) const;

 private:
  const data::Dataset& dataset_;
  const MechanismResult& result_;
  random::Seed seed_;
  std::unique_ptr<models::SynthesisModel> model_;
  std::uint64_t totalDraws_ = 0;
};

/// m synthetic outcome vectors: Synthesizer(...).draw(0), ..., draw(m - 1). Deterministic in
/// (seed, m).
std::vector<Eigen::VectorXd> synthesize(const data::Dataset& dataset,
                                        const MechanismResult& result,
                                        const models::ModelSpec& spec, int m,
                                        random::Seed seed);

}  // namespace dpsynth::core::pipeline
