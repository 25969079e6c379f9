#pragma once
#include <Eigen/Dense>
#include <cstdint>
#include <string>
#include <vector>

#include "core/random/seed.h"

namespace dpsynth::core::mcmc {

/// Which metric warm-up adapts. automatic: dense for models with correlated coordinates
/// (Model::correlatedCoordinates(), i.e. regressions) of dimension <= kAutoDenseMaxDim, diagonal
/// otherwise, so that intercept-only models sample exactly as with diag.
enum class MetricChoice { automatic, diag, dense };

/// Above this dimension automatic stays diagonal: a dense metric costs O(dim²) per leapfrog step
/// and needs O(dim²) warm-up draws to estimate well.
inline constexpr int kAutoDenseMaxDim = 60;

/// "auto" | "diag" | "dense".
std::string metricChoiceName(MetricChoice choice);
/// Parses "auto", "diag" or "dense"; throws std::invalid_argument naming the accepted values.
MetricChoice parseMetricChoice(const std::string& name);

/// Sampler settings (SPEC §3). A value type: validate() lists every problem in words.
struct NutsConfig {
  /// Every front end's bound on the draws kept in memory (chains × draws): a session or study
  /// file asking for 1024 × 10^8 would otherwise allocate until the machine gives out.
  static constexpr long long kMaxStoredDraws = 10'000'000;
  /// The bound on all iterations of a run (chains × (warm-up + draws)).
  static constexpr long long kMaxIterations = 1'000'000'000;

  int chains = 4;
  int warmup = 1000;
  int draws = 1000;
  random::Seed seed = 1;  ///< a user seed, or 128 bits from the OS for a release
  int threads = 0;        ///< worker threads for chains; 0 = min(chains, hardware)
  int maxTreeDepth = 10;
  double targetAccept = 0.8;
  double initRadius = 2.0;  ///< random inits: initialPoint() + Uniform(-r, r) per coordinate
  /// Optional per-chain unconstrained starting points (e.g. draws of a previous stage); when
  /// non-empty it must hold `chains` vectors of the model's dimension.
  std::vector<Eigen::VectorXd> inits;
  int progressEvery = 25;  ///< iterations between progress callbacks / draw batches
  MetricChoice metric = MetricChoice::automatic;

  /// Empty when the configuration is usable; otherwise one message per problem.
  std::vector<std::string> validate() const;
};

}  // namespace dpsynth::core::mcmc
