#pragma once
/// Exact draws from the censored pseudo posterior of an intercept-only model (SPEC §0 "exact
/// sampling, and no data-dependent refusal"):
///   θ ~ prior(θ) · exp(Σ_i clamp(α_i log p(y_i | θ), L, U))
/// for poisson (β), negbin (β with its prior scale integrated out, φ), beta (φ, λ) and normal
/// (β, σ) — the priors of SPEC §2, negbin's as stated in location_prior.h.
///
/// Method: rejection sampling from a cell envelope (cell_envelope.h), refined on the data until
/// a set share (ExactSamplerSettings::goal) of the proposals is sure to be accepted (or a work
/// budget is spent), then refined again whenever the running acceptance falls below half of it.
/// Each accepted θ is an exact draw of the target whatever the envelope looks like, so there is no
/// diagnostic, no refusal and no starting point: the sampler runs until it has every draw asked
/// for, or until `stop`. Single-threaded and driven by the Rng handed in, so a seed fixes the draws
/// on any machine.
#include <Eigen/Dense>
#include <cstddef>
#include <stop_token>

#include "core/privacy/cell_target.h"
#include "core/random/rng.h"

namespace dpsynth::core::privacy {

struct ExactSamplerSettings {
  /// Refine until Σ m·e^lower >= goal · Σ m·e^B (the acceptance rate is then at least this; the
  /// lower bounds are conservative, so proposals are accepted more often than that).
  double goal = 0.35;
  int cellsPerAxis1d = 64;  ///< initial equal-probability cells, one-parameter families
  int cellsPerAxis2d = 16;  ///< the same per axis, two-parameter families
  std::size_t maxCells = 400000;
  /// Budget of refinement work in bound evaluations × distinct terms (about 10 ns each).
  double maxWork = 4e8;
};

struct ExactSampleStats {
  std::size_t proposals = 0;
  std::size_t accepted = 0;
  std::size_t cells = 0;
  double acceptanceBound = 0.0;  ///< the envelope's guaranteed acceptance rate at the end
  /// Proposals whose ℓ came out above their cell's bound by less than the rounding tolerance
  /// (accepted with probability 1); a larger excess is a defect and throws std::logic_error.
  std::size_t roundingSlips = 0;
  /// Proposals where the model's likelihood is NaN in double precision (parameters beyond
  /// 1e150 on two axes at once), drawn again.
  std::size_t unevaluable = 0;
  double refineSeconds = 0.0;
  double sampleSeconds = 0.0;
};

struct ExactSample {
  bool cancelled = false;
  /// draws × dim on the model's unconstrained scale (models::makeModel's layout); empty when
  /// cancelled.
  Eigen::MatrixXd draws;
  ExactSampleStats stats;
};

/// `draws` exact draws of the problem's censored pseudo posterior. Throws
/// std::invalid_argument for an invalid problem (ExactProblem::validate) or draws < 1.
ExactSample sampleExact(const ExactProblem& problem, int draws, random::Rng& rng,
                        std::stop_token stop = {}, const ExactSamplerSettings& settings = {});

}  // namespace dpsynth::core::privacy
