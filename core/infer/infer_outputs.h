#pragma once
/// The three files of an inference run (`dpsynth infer` and the studio's "Analyze a release"
/// workspace write the same ones): draws.csv (chain, draw, one column per parameter),
/// summary.json (run settings, acceptance, per-parameter mean, sd, 5/50/95% quantiles, R-hat,
/// ESS) and trace.csv (chain, sweep, acceptance of every sweep, warm-up included).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/infer/da_sampler.h"
#include "core/infer/record_additive.h"

namespace dpsynth::core::infer {

/// What summary.json says about the run besides the draws.
struct InferRunInfo {
  std::string release;  ///< the release file as named by the user
  std::string kind;     ///< "naive-bayes", …
  double epsilon = 0.0;
  /// The smallest acceptance probability the mechanism allows: e^{−ε} for the pure ε-DP
  /// replace-one releases, the ph release's own e^{−2t} (ph_release.h).
  double acceptanceBound = 0.0;
  std::string family;             ///< ph releases: the latent records' family
  std::optional<double> sdScale;  ///< ph releases, normal family
  int iterations = 0, warmup = 0, chains = 0;
  std::optional<std::uint64_t> seed;  ///< set: reproducible, labelled not_for_release
  /// The run's sweeps and warm-up as a multiple of the ones asked for (da_convergence.h).
  int budgetFactor = 1;
  /// daConvergenceProblems of the run: summary.json says "converged": false and lists them.
  std::vector<std::string> convergenceProblems;
};

struct InferOutputs {
  std::string drawsCsv, summaryJson, traceCsv;
};

std::string inferDrawsCsv(const RecordAdditiveModel& model, const DaResult& result);
std::string inferTraceCsv(const DaResult& result);
/// Non-finite R-hat/ESS (too few draws to diagnose) are written as null.
std::string inferSummaryJson(const RecordAdditiveModel& model, const DaResult& result,
                             const InferRunInfo& info);
InferOutputs inferOutputs(const RecordAdditiveModel& model, const DaResult& result,
                          const InferRunInfo& info);

}  // namespace dpsynth::core::infer
