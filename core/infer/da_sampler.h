#pragma once
/// The privacy-aware Metropolis-within-Gibbs sampler of paper 004 (SPEC §6) over (θ, latent
/// records): each sweep draws θ | x, then for every record proposes x*_i ~ f(· | θ) and accepts
/// it with min(1, η(s_dp | x*) / η(s_dp | x)), computed in O(1) from the running statistic T.
/// Chains run in parallel threads; chain c draws only from makeRng(seed, c), so the output does
/// not depend on the number of threads.
#include <Eigen/Dense>
#include <functional>
#include <stop_token>
#include <string>
#include <vector>

#include "core/infer/record_additive.h"
#include "core/random/seed.h"

namespace dpsynth::core::infer {

/// The most values (doubles) a data-augmentation run keeps in memory, over all chains: latent
/// records with their running acceptance, the acceptance of every sweep and the kept draws.
/// 2^28 values are 2 GiB. A release edited to n = 2·10^9 made `infer` grow to 8.5 GB; a run
/// past this bound is refused before anything is allocated.
inline constexpr long long kMaxDaValues = 1LL << 28;

struct DaConfig {
  int iterations = 10000;  ///< sweeps per chain, warm-up included
  int warmup = 5000;       ///< sweeps discarded
  int chains = 4;
  int threads = 0;  ///< 0 = hardware concurrency
  random::Seed seed{};
  int progressEvery = 100;  ///< sweeps between progress calls
  /// Checks the settings; returns one message per problem (empty when valid).
  std::vector<std::string> validate() const;
};

/// Values the run would keep (see kMaxDaValues), computed without overflow.
long long daValues(const RecordAdditiveModel& model, const DaConfig& config);
/// Empty when the run fits in kMaxDaValues; otherwise one sentence saying what is too large
/// and what to lower (chains, iterations), for a message naming the release file.
std::string daMemoryProblem(const RecordAdditiveModel& model, const DaConfig& config);

struct DaChainResult {
  Eigen::MatrixXd draws;             ///< (iterations − warmup) × parameterDim
  Eigen::VectorXd sweepAcceptance;   ///< every sweep (warm-up included): accepted fraction
  Eigen::VectorXd recordAcceptance;  ///< per record: mean acceptance probability, all sweeps
  double meanAcceptance = 0.0;       ///< mean acceptance probability over all proposals
  /// The smallest acceptance probability min(1, η*/η) of any proposal of the chain, as computed
  /// (not clamped): for a pure ε-DP mechanism it is ≥ e^{−ε}.
  double minAcceptance = 1.0;
  long long proposals = 0;
  long long gradientEvaluations = 0;  ///< of the NUTS θ step (0 for conjugate draws)
  /// Joint prior-predictive steps (da_sampler.cpp) tried and accepted: not part of the record
  /// acceptances above, whose bound e^{−ε} is per record.
  long long jointProposals = 0, jointAccepted = 0;
};

struct DaResult {
  bool cancelled = false;
  std::vector<DaChainResult> chains;  ///< empty when cancelled
  double seconds = 0.0;
  double meanAcceptance() const;
  double minAcceptance() const;
  long long proposals() const;
  long long gradientEvaluations() const;
};

/// Called from the chain threads (concurrently): chain, sweeps done, total sweeps.
using DaProgress = std::function<void(int chain, int done, int total)>;

/// What one chain did since its last batch: the acceptance of sweeps firstSweep, … and the
/// kept θ draws firstDraw, … among them (none during warm-up). Copies of the chain's own rows,
/// so a live view sees exactly the draws the result will hold.
struct DaBatch {
  int chain = 0;
  int firstSweep = 0;
  Eigen::VectorXd sweepAcceptance;  ///< accepted fraction, as DaChainResult::sweepAcceptance
  /// Per sweep: the mean acceptance probability min(1, η*/η) of its proposals, ≥ e^{−ε} for a
  /// pure ε-DP release (the accepted fraction is only so on average).
  Eigen::VectorXd sweepProbability;
  int firstDraw = 0;
  Eigen::MatrixXd draws;  ///< rows: draws, columns: parameters
};

/// Live draws: onBatch is called from the chain threads (concurrently) every `every` sweeps of
/// a chain and after its last sweep. It reads what the chain has stored and never touches the
/// random stream, so the seeded output is the same with or without it.
struct DaObserver {
  int every = 10;
  std::function<void(const DaBatch&)> onBatch;
};

/// Throws std::invalid_argument for an invalid configuration or a run beyond kMaxDaValues.
/// Cancellation is polled every 4096 records (a sweep over 10^8 latent records takes seconds);
/// a cancelled run returns cancelled = true.
DaResult runDataAugmentation(const RecordAdditiveModel& model, const DaConfig& config,
                             std::stop_token stop = {}, const DaProgress& progress = {},
                             const DaObserver& observer = {});

struct DaParameterSummary {
  std::string name;
  double mean = 0, sd = 0, q05 = 0, q50 = 0, q95 = 0, rhat = 0, ess = 0;
};

/// Per parameter: pooled mean, sd and 5/50/95% quantiles; rank-normalised split R-hat and bulk
/// ESS across chains (core/mcmc/diagnostics).
std::vector<DaParameterSummary> summarize(const RecordAdditiveModel& model, const DaResult& result);

}  // namespace dpsynth::core::infer
