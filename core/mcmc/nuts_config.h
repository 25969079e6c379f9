#pragma once
#include <Eigen/Dense>
#include <cstdint>
#include <string>
#include <vector>

#include "core/random/seed.h"

namespace dpsynth::core::mcmc {

/// Sampler settings (SPEC §3). A value type: validate() lists every problem in words.
struct NutsConfig {
  int chains = 4;
  int warmup = 1000;
  int draws = 1000;
  random::Seed seed = 1;       ///< a user seed, or 128 bits from the OS for a release
  int threads = 0;             ///< worker threads for chains; 0 = min(chains, hardware)
  int maxTreeDepth = 10;
  double targetAccept = 0.8;
  double initRadius = 2.0;     ///< random inits: initialPoint() + Uniform(-r, r) per coordinate
  /// Optional per-chain unconstrained starting points (e.g. draws of a previous stage); when
  /// non-empty it must hold `chains` vectors of the model's dimension.
  std::vector<Eigen::VectorXd> inits;
  int progressEvery = 25;      ///< iterations between progress callbacks / draw batches

  /// Empty when the configuration is usable; otherwise one message per problem.
  std::vector<std::string> validate() const;
};

}  // namespace dpsynth::core::mcmc
