#pragma once
/// Whether a data-augmentation run has converged, and the defaults that make it so. `dpsynth
/// infer` once wrote R-hat 4.4 and an ESS of 4 (β 38 to 69 posterior sds from the answer) with
/// exit 0 and no word: a linreg release at ε = 1000 needs far more warm-up than the defaults.
/// The thresholds are those of the fit's sampling screen (pipeline/screen.h).
#include <functional>
#include <stop_token>
#include <string>
#include <vector>

#include "core/infer/da_sampler.h"

namespace dpsynth::core::infer {

inline constexpr double kDaMaxRhat = 1.01;
inline constexpr double kDaMinEssPerChain = 100.0;
/// A run that has not converged is run again with fresh randomness at 2×, then 4× the sweeps
/// and warm-up; the cap is fixed in advance.
inline constexpr int kDaMaxBudgetFactor = 4;

/// One sentence per failed diagnostic (the worst parameter's R-hat above kDaMaxRhat, its bulk
/// ESS below kDaMinEssPerChain per chain, or either not computable); empty when converged.
std::vector<std::string> daConvergenceProblems(const std::vector<DaParameterSummary>& summary,
                                               int chains);

/// A sentence when the smallest acceptance probability fell below the release's bound (e^−ε for
/// the Laplace releases, SPEC §6), which holds for every release the mechanism can produce: below
/// it, the file's values are far outside what the mechanism gives for its n records (a count
/// edited by hand, say) and the sums lose their precision, so the posterior is not reliable.
/// Empty otherwise.
std::string daAcceptanceProblem(double minAcceptance, double bound);

struct DaCheckedRun {
  DaResult result;
  DaConfig config;       ///< the settings of the run kept (the last one)
  int budgetFactor = 1;  ///< its sweeps and warm-up as a multiple of the ones asked for
  std::vector<DaParameterSummary> summary;
  std::vector<std::string> problems;  ///< daConvergenceProblems of the run kept
};

/// Runs the sampler; when `extend` and the chains have not converged, runs it again with twice
/// the sweeps and warm-up from a fresh stream of the seed, up to kDaMaxBudgetFactor (or the
/// memory bound of daMemoryProblem), and keeps the last run. onRetry(factor, problems) is
/// called before each new run. A cancelled run is returned as it is.
DaCheckedRun runDataAugmentationChecked(
    const RecordAdditiveModel& model, const DaConfig& config, bool extend,
    std::stop_token stop = {}, const DaProgress& progress = {}, const DaObserver& observer = {},
    const std::function<void(int, const std::vector<std::string>&)>& onRetry = {});

}  // namespace dpsynth::core::infer
