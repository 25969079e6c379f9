#pragma once
/// Runs mechanisms as pipelines of stages (SPEC §4): unweighted fit → weights → weighted fit →
/// re-weighting → censoring... Stages are cached by their inputs so that several mechanisms
/// (and the studio's re-runs after a settings change) share work such as the unweighted fit.
#include <functional>
#include <memory>
#include <stop_token>
#include <string>
#include <vector>

#include "core/data/dataset.h"
#include "core/mcmc/nuts_config.h"
#include "core/models/model.h"
#include "core/pipeline/stage.h"
#include "core/pipeline/stage_cache.h"
#include "core/privacy/neighbours.h"
#include "core/privacy/size_release.h"

namespace dpsynth::core::pipeline {

/// Typed progress from a pipeline run. Calls come from worker threads (sampler chains call
/// onSamplerProgress/onDraws concurrently): implementations must be thread-safe.
class PipelineObserver {
 public:
  virtual ~PipelineObserver() = default;
  /// A stage is about to run (or is served from the cache: fromCache).
  virtual void onStageStarted(const std::string& mechanism, const std::string& stage,
                              bool fromCache) {}
  /// The model a stage is about to sample (stages served from the cache have none): lets an
  /// observer reduce the draws of onDraws as they arrive (e.g. a running Lipschitz bound).
  /// Called on the pipeline thread, after onStageStarted and before the first onDraws.
  virtual void onStageModel(const std::string& mechanism, const std::string& stage,
                            std::shared_ptr<const models::SynthesisModel> model) {}
  virtual void onSamplerProgress(const std::string& stage, const mcmc::Progress& progress) {}
  virtual void onDraws(const std::string& stage, int chain, int firstDraw,
                       const Eigen::MatrixXd& rows) {}
  virtual void onStageFinished(const std::string& mechanism, const StagePtr& stage) {}
  virtual void onMechanismFinished(const MechanismResult& result) {}
};

struct RunSettings {
  models::ModelSpec model;
  mcmc::NutsConfig nuts;     ///< seed, chains, warm-up, draws, threads (inits are set per stage)
  int lipschitzThreads = 0;  ///< 0 = hardware concurrency
  /// The neighbour relation every guarantee of the run is stated under (SPEC §0).
  privacy::Neighbours neighbours = privacy::Neighbours::replaceOne;
  /// A release (SPEC §0): nuts.seed came from the OS CSPRNG (makeRelease) and perturbed-histogram
  /// noise comes from the OS CSPRNG; nothing the run writes may contain the seed. False (the
  /// default): a reproducible study/test run whose every output says not_for_release.
  bool release = false;
  /// Public reference data (same outcome, covariates and family) from which censor-w and
  /// weighted-e take a weight function (SPEC §0); null: weights from the data being released.
  std::shared_ptr<const data::Dataset> weightReference;
  /// A study's replicates are drawn from data that may be the reference itself (a bootstrap
  /// of public data), and nothing they produce is released: the refusal of a reference holding
  /// the same records as the data (runMechanisms) is then off.
  bool referenceMayBeTheData = false;
  /// The size the run publishes when n is confidential (add-remove, or complete records after
  /// dropping missing values): a size declared public, or ε_n of a noisy one (size_release.h).
  privacy::SizeSettings size;
  /// The mechanism, ε and tuning were picked on the confidential data (the studio's frontier on
  /// bootstrap replicates of them). That choice is itself a function of the data which ε does
  /// not cover (SPEC §0 "Choices made on the confidential data"): the report's "tuning_source"
  /// and the release note say so. False: declared by the analyst or tuned on public data.
  bool tunedOnConfidential = false;
};

/// Turns settings into a release: a fresh 128-bit seed from the OS CSPRNG, release = true.
void makeRelease(RunSettings& settings);

enum class RunOutcome { completed, cancelled };

struct RunResult {
  RunOutcome outcome = RunOutcome::completed;
  std::vector<MechanismResult> mechanisms;  ///< complete ones only (all of them if completed)
};

/// Runs each mechanism on the dataset, sharing stages through `cache` (may be null). Throws
/// std::invalid_argument for invalid settings (every problem in one message) before any work.
/// A cancelled run returns outcome cancelled and only the mechanisms that finished.
RunResult runMechanisms(const data::Dataset& dataset, const std::vector<MechanismConfig>& configs,
                        const RunSettings& settings, StageCache* cache = nullptr,
                        std::stop_token stop = {}, PipelineObserver* observer = nullptr);

}  // namespace dpsynth::core::pipeline
