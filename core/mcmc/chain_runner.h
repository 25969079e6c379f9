#pragma once
/// One NUTS chain from initialisation through warm-up to the last draw: composes the metric,
/// the transition, the step-size and metric adapters, and reports to the observer.
#include <optional>
#include <stop_token>

#include "core/mcmc/hamiltonian.h"
#include "core/mcmc/nuts_config.h"
#include "core/mcmc/phase_point.h"
#include "core/mcmc/sampler.h"
#include "core/models/model.h"
#include "core/random/rng.h"

namespace dpsynth::core::mcmc {

class ChainRunner {
 public:
  /// Attempts at a random starting point before giving up.
  static constexpr int kMaxInitAttempts = 100;

  /// config must be valid (sample() checks it); observer may be null.
  ChainRunner(const models::Model& model, const NutsConfig& config, int chain,
              SamplerObserver* observer = nullptr);

  /// Runs the chain with randomness from makeRng(config.seed, chain) only. Returns nullopt if
  /// the stop token fired. Throws std::runtime_error when no finite starting point is found.
  std::optional<ChainResult> run(std::stop_token stop = {});

 private:
  const models::Model& model_;
  const NutsConfig& config_;
  int chain_;
  SamplerObserver* observer_;
};

/// The starting point of a chain: config.inits[chain] if given, otherwise model.initialPoint()
/// jittered by Uniform(-initRadius, initRadius) per coordinate, retried up to
/// ChainRunner::kMaxInitAttempts times until log density and gradient are finite. Throws
/// std::runtime_error("could not find a finite starting point ...") otherwise.
PhasePoint findInitialPoint(Hamiltonian& hamiltonian, const NutsConfig& config, int chain,
                            random::Rng& rng);

}  // namespace dpsynth::core::mcmc
