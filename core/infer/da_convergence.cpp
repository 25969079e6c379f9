#include "core/infer/da_convergence.h"

#include <cmath>
#include <cstdio>

#include "core/random/seed.h"

namespace dpsynth::core::infer {

namespace {

constexpr std::uint64_t kRetryStream = 0x4441524554ULL;  // "DARET"

std::string fixed(double v, int digits) {
  if (std::isnan(v)) return "not computable";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

}  // namespace

std::vector<std::string> daConvergenceProblems(const std::vector<DaParameterSummary>& summary,
                                               int chains) {
  std::vector<std::string> problems;
  const DaParameterSummary* worstRhat = nullptr;
  const DaParameterSummary* worstEss = nullptr;
  for (const auto& s : summary) {
    if (std::isnan(s.rhat) || s.rhat > kDaMaxRhat)
      if (!worstRhat || std::isnan(s.rhat) || s.rhat > worstRhat->rhat) worstRhat = &s;
    if (std::isnan(s.ess) || s.ess < kDaMinEssPerChain * chains)
      if (!worstEss || std::isnan(s.ess) || s.ess < worstEss->ess) worstEss = &s;
  }
  if (worstRhat)
    problems.push_back("R-hat " + fixed(worstRhat->rhat, 2) + " for " + worstRhat->name +
                       " (converged chains have at most " + fixed(kDaMaxRhat, 2) + ")");
  if (worstEss)
    problems.push_back("bulk-ESS " + fixed(worstEss->ess, 0) + " for " + worstEss->name +
                       " (at least " + fixed(kDaMinEssPerChain, 0) + " per chain are needed, " +
                       fixed(kDaMinEssPerChain * chains, 0) + " for " + std::to_string(chains) +
                       " chains)");
  return problems;
}

std::string daAcceptanceProblem(double minAcceptance, double bound) {
  // A relative margin for rounding in the acceptance ratio; the failures seen were orders of
  // magnitude below (3.7e-6 and 2.2e-39 against 0.37).
  if (!(minAcceptance < bound * (1.0 - 1e-9))) return {};
  char text[64];
  std::snprintf(text, sizeof text, "%.3g, below the bound %.3g", minAcceptance, bound);
  return std::string("minimum acceptance ") + text +
         " that every release of this mechanism keeps: the file's values are not ones the "
         "mechanism produces for its n records (edited by hand?), and the posterior is not "
         "reliable";
}

DaCheckedRun runDataAugmentationChecked(
    const RecordAdditiveModel& model, const DaConfig& config, bool extend, std::stop_token stop,
    const DaProgress& progress, const DaObserver& observer,
    const std::function<void(int, const std::vector<std::string>&)>& onRetry) {
  DaCheckedRun run;
  run.config = config;
  for (;;) {
    run.result = runDataAugmentation(model, run.config, stop, progress, observer);
    if (run.result.cancelled) return run;
    run.summary = summarize(model, run.result);
    run.problems = daConvergenceProblems(run.summary, run.config.chains);
    if (run.problems.empty() || !extend || run.budgetFactor >= kDaMaxBudgetFactor) return run;
    DaConfig next = run.config;
    next.iterations *= 2;
    next.warmup *= 2;
    next.seed = random::deriveSeed(config.seed,
                                   kRetryStream + static_cast<std::uint64_t>(2 * run.budgetFactor));
    if (!daMemoryProblem(model, next).empty()) return run;
    if (onRetry) onRetry(2 * run.budgetFactor, run.problems);
    run.config = next;
    run.budgetFactor *= 2;
  }
}

}  // namespace dpsynth::core::infer
