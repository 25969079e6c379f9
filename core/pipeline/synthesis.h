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
#include "core/random/rng.h"
#include "core/utility/utility.h"

namespace dpsynth::core::pipeline {

/// Draws the synthetic datasets of one mechanism one at a time, so that an export of m datasets
/// holds one in memory rather than m, and stops between them. Each dataset has
/// result.size.rowsFor(n) records (the published size, SPEC §0). Dataset j uses one posterior
/// draw chosen at random from the final stage's pooled draws (for ph: the noisy histogram), then
/// y*_r ~ p(y | θ_s, X_i) with i = (*result.sourceRows)[r] (i = r without source rows), all from
/// random::makeRng(seed, 1000 + j): draw(j) does not depend on which datasets were drawn before.
class Synthesizer {
 public:
  /// Builds the posterior-predictive model (grouping 10^7 records takes seconds: `stop` ends it
  /// with exec::Cancelled). Throws std::invalid_argument for a result without a final fit, or
  /// whose published size differs from n without one source row per synthetic record.
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
  std::size_t rows_ = 0;
  /// An empty intercept-only database's stand-in: rows_ records at the intercept, whose
  /// placeholder outcomes only give the model its shape (the draws never read them).
  std::unique_ptr<data::Dataset> empty_;
  std::unique_ptr<models::SynthesisModel> model_;
  std::uint64_t totalDraws_ = 0;
};

/// m synthetic outcome vectors: Synthesizer(...).draw(0), ..., draw(m - 1). Deterministic in
/// (seed, m).
std::vector<Eigen::VectorXd> synthesize(const data::Dataset& dataset, const MechanismResult& result,
                                        const models::ModelSpec& spec, int m, random::Seed seed);

/// The input rows whose declared covariates `rows` synthetic records take when the published
/// size differs from the n input rows: rows ≤ n, a uniformly random subset of `rows` of them;
/// rows > n, every input row once and rows − n more drawn uniformly with replacement. In a
/// random order. The covariates are public by declaration, so which rows are taken is not part
/// of the guarantee, but the choice is random (never "the first rows of the file") so that the
/// input's order says nothing.
std::vector<std::size_t> syntheticSourceRows(std::size_t n, std::size_t rows, random::Rng& rng);

}  // namespace dpsynth::core::pipeline
