#pragma once
/// One fit of a pseudo posterior (a "stage") and what a mechanism run produces.
#include <Eigen/Dense>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/mcmc/diagnostics.h"
#include "core/mcmc/sampler.h"
#include "core/pipeline/mechanism.h"
#include "core/privacy/lipschitz.h"
#include "core/privacy/perturbed_histogram.h"

namespace dpsynth::core::pipeline {

struct WeightSummary {
  double min = 0, q25 = 0, median = 0, mean = 0, q75 = 0, max = 0;
};
WeightSummary summarizeWeights(const std::vector<double>& alpha, std::size_t n);

/// The result of one weighted (and possibly censored) fit. Immutable once made: shared between
/// mechanisms and threads through std::shared_ptr<const StageResult>.
/// alpha and lipschitz.perRecord are CONFIDENTIAL (functions of the data): plots and internal
/// reports only, never the exported synthetic-data bundle.
struct StageResult {
  std::string name;                  ///< "unweighted", "lw", "lw-final k=0.95", "censor-w", ...
  std::vector<double> alpha;         ///< weights used (size n; all ones for unweighted)
  double clamp = 0;                  ///< M (infinity when not censored)
  mcmc::SampleResult sample;         ///< draws on the unconstrained scale
  std::vector<mcmc::ParameterSummary> posterior;
  privacy::LipschitzResult lipschitz;
  WeightSummary weights;
  std::vector<std::string> warnings; ///< plain-language diagnostics problems of this stage
  double seconds = 0;                ///< sampling + Lipschitz
  std::optional<double> k;           ///< the re-weighting k this stage used, if any
  bool fromCache = false;            ///< reused from the cache, not run again
};
using StagePtr = std::shared_ptr<const StageResult>;

/// What one mechanism run produces.
struct MechanismResult {
  MechanismConfig config;
  Guarantee guarantee = Guarantee::none;
  /// The ε the guarantee refers to: the asked ε for DP mechanisms, ε_x = 2Δ_{α,x} otherwise.
  double epsilon = 0;
  std::vector<StagePtr> stages;      ///< every fit in run order (k=auto: every refit)
  StagePtr final;                    ///< the fit synthetic data come from; null for ph
  std::optional<privacy::PhRelease> ph;
  std::optional<double> k;           ///< chosen re-weighting k
  std::optional<double> downscale;   ///< d used (weighted-e, censor-w)
  std::optional<std::size_t> censoredRecords;
  std::optional<std::size_t> truncatedRecords;
  std::vector<std::string> warnings; ///< all stages' warnings plus mechanism-level ones
  double seconds = 0;
};

}  // namespace dpsynth::core::pipeline
