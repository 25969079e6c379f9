#pragma once
/// Runs one stage (a weighted, possibly censored NUTS fit plus its Lipschitz reductions), serving
/// it from the cache when the same inputs were fitted before.
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "core/data/dataset.h"
#include "core/pipeline/pipeline.h"

namespace dpsynth::core::pipeline::detail {

/// How a stage draws its parameters (SPEC §0 "exact sampling").
struct StageSampling {
  /// Exact draws of the (censored) pseudo posterior (intercept-only models,
  /// privacy/exact_sampler.h) instead of NUTS: chains × draws independent draws, laid out as
  /// `chains` blocks so that summaries and synthesis read them like any fit. Needs no previous
  /// stage and ignores one.
  bool exact = false;
  /// NUTS: warm-up and draws are the run's times this (a screen's retries, screen.h).
  int budgetFactor = 1;
  /// NUTS: 0 draws from the stage kind's stream; retry k > 0 from a fresh stream derived from
  /// the run's seed, so that a retry is new randomness, not a replay.
  int retry = 0;
};

class StageRunner {
 public:
  /// reference: the dataset is the public reference of a weight function (its stages are
  /// marked as such).
  StageRunner(const data::Dataset& dataset, const RunSettings& settings, StageCache* cache,
              std::stop_token stop, PipelineObserver* observer, bool reference = false);

  /// kind names the stage family ("unweighted", "lw", "censor-w", ...) and fixes its random
  /// stream, so that the same stage run for different mechanisms gives the same draws. label is
  /// what reports show (e.g. "lw-final k=0.9500"). previous (may be null) provides one initial
  /// point per chain. clamp: the censoring interval, none for an uncensored fit. Returns null
  /// when cancelled. previousRunner: the runner that fitted `previous` when that is not this
  /// one (a stage of the reference data starting a fit of the data being released): its draws
  /// live in that runner's unconstrained space and are converted (constrain there, unconstrain
  /// here). Throws std::logic_error for a stage of other data without its runner, and for an
  /// exact stage without a clamp or of a regression.
  StagePtr run(const std::string& mechanism, const std::string& kind, const std::string& label,
               const std::vector<double>& alpha, std::optional<privacy::ClampInterval> clamp,
               const StagePtr& previous, std::optional<double> k = std::nullopt,
               const StageRunner* previousRunner = nullptr, StageSampling sampling = {});

  bool cancelled() const { return stop_.stop_requested(); }
  std::stop_token stopToken() const { return stop_; }
  const data::Dataset& dataset() const { return dataset_; }
  const RunSettings& settings() const { return settings_; }
  bool reference() const { return reference_; }
  /// An unweighted model of this runner's data. Every stage the runner fits shares its
  /// unconstrained space (the QR transform depends on the design only, never on weights), so
  /// it maps any of their draws to and from the constrained scale. Not thread-safe: call it
  /// from the pipeline thread.
  const models::SynthesisModel& spaceModel() const;

 private:
  /// `sampled`: the digest of what the stage samples (kind, weights, clamp, exact or not).
  std::string cacheKey(const std::string& kind, const std::string& sampled,
                       const mcmc::NutsConfig& nuts) const;
  /// The exact route of run(): draws, laid out as the sampler's chains; nullopt if cancelled.
  std::optional<mcmc::SampleResult> sampleExactly(const models::LikelihoodWeights& weights,
                                                  const mcmc::NutsConfig& nuts,
                                                  privacy::ExactSampleStats& stats);

  const data::Dataset& dataset_;
  const RunSettings& settings_;
  StageCache* cache_;
  std::stop_token stop_;
  PipelineObserver* observer_;
  std::string dataFingerprint_;
  bool reference_;
  mutable std::unique_ptr<models::SynthesisModel> spaceModel_;
};

/// One starting point per chain from the previous stage's posterior: chain c starts from the
/// last draw of previous chain c mod P (then the one before it, and so on), so the starts are
/// dispersed over the posterior. With `from` and `to` (the previous stage was fitted by another
/// model's space), each point is converted from `from`'s unconstrained space to `to`'s.
std::vector<Eigen::VectorXd> initsFrom(const StageResult& previous, int chains,
                                       const models::Model* from = nullptr,
                                       const models::Model* to = nullptr);

/// Workers for a Lipschitz pass: settings.lipschitzThreads, or every core when it is 0.
int lipschitzThreadCount(const RunSettings& settings);

/// v with `digits` decimals, for the plain-language messages of the pipeline.
std::string formatFixed(double v, int digits);

/// Plain-language warnings for R-hat > 1.01, bulk-ESS < 100 per chain, divergences and tree
/// depth saturation. Parameters are named by `labels` (StageResult::labels) when given.
/// `censored`: the stage's likelihood is clamped, the only case in which they may speak of
/// censoring.
std::vector<std::string> diagnosticWarnings(const std::string& stage,
                                            const std::vector<mcmc::ParameterSummary>& posterior,
                                            const mcmc::SampleResult& sample, int maxTreeDepth,
                                            bool censored,
                                            const std::vector<std::string>& labels = {});

/// Beyond this posterior mean a count or beta regression's coefficient is far outside its
/// prior: ten times the widest of those priors' scales (poisson's Normal(0, 10)).
inline constexpr double kFarCoefficient = 100.0;

/// Plain-language warnings for the coefficients of a count or beta regression whose posterior
/// mean lies beyond ±kFarCoefficient: the prior pulls such a coefficient towards 0 against the
/// data (negbin's prior has a spike there, where a chain can stick), and a change of the
/// covariate's units puts it back within the prior's scale. For the intercept (beta[0]) the
/// remedy is to centre covariates whose values lie far from 0. None for the normal family,
/// whose coefficients are in the outcome's units.
std::vector<std::string> coefficientScaleWarnings(
    const std::string& stage, const std::vector<mcmc::ParameterSummary>& posterior,
    models::Family family, const std::vector<std::string>& labels = {});

}  // namespace dpsynth::core::pipeline::detail
