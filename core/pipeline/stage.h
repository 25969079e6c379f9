#pragma once
/// One fit of a pseudo posterior (a "stage") and what a mechanism run produces.
#include <Eigen/Dense>
#include <limits>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "core/mcmc/diagnostics.h"
#include "core/mcmc/sampler.h"
#include "core/pipeline/mechanism.h"
#include "core/pipeline/sampling.h"
#include "core/privacy/exact_sampler.h"
#include "core/privacy/lipschitz.h"
#include "core/privacy/neighbours.h"
#include "core/privacy/perturbed_histogram.h"
#include "core/privacy/size_release.h"

namespace dpsynth::core::pipeline {

struct WeightSummary {
  double min = 0, q25 = 0, median = 0, mean = 0, q75 = 0, max = 0;
};
/// The weights' summary; alpha empty means n weights of 1. `stop`: exec::Cancelled.
WeightSummary summarizeWeights(const std::vector<double>& alpha, std::size_t n,
                               const std::stop_token& stop = {});

/// A stage's draws, immutable and shared: the StageResult a cache hit hands out (under its own
/// name, marked fromCache) shares them with the cached stage instead of copying chains × draws
/// × dimension doubles. Reads go through -> (or convert to const mcmc::SampleResult&).
class SharedSample {
 public:
  SharedSample() : sample_(std::make_shared<mcmc::SampleResult>()) {}
  /// Takes a fresh sample (implicit: `stage.sample = std::move(sample)`).
  SharedSample(mcmc::SampleResult sample)  // NOLINT(google-explicit-constructor)
      : sample_(std::make_shared<mcmc::SampleResult>(std::move(sample))) {}
  const mcmc::SampleResult& operator*() const { return *sample_; }
  const mcmc::SampleResult* operator->() const { return sample_.get(); }
  operator const mcmc::SampleResult&() const { return *sample_; }  // NOLINT
  /// The sample to change in place (a stage built by hand): copied first when another stage
  /// shares it, so that no other stage sees the change.
  mcmc::SampleResult& edit() {
    if (sample_.use_count() > 1) sample_ = std::make_shared<mcmc::SampleResult>(*sample_);
    return *sample_;
  }
  /// True when both hold the very same draws (no copy was made).
  bool sharesWith(const SharedSample& other) const { return sample_ == other.sample_; }

 private:
  std::shared_ptr<mcmc::SampleResult> sample_;
};

/// The result of one weighted (and possibly censored) fit. Immutable once made: shared between
/// mechanisms and threads through std::shared_ptr<const StageResult>.
/// alpha and lipschitz.perRecord are CONFIDENTIAL (functions of the data): plots and internal
/// reports only, never the exported synthetic-data bundle.
struct StageResult {
  std::string name;           ///< "unweighted", "lw", "lw-final k=0.95", "censor-w", ...
  std::vector<double> alpha;  ///< weights used (size n; all ones for unweighted)
  double lower = -std::numeric_limits<double>::infinity();  ///< clamp L (-inf: not censored)
  double upper = std::numeric_limits<double>::infinity();   ///< clamp U (+inf: not censored)
  SharedSample sample;  ///< draws on the unconstrained scale (shared, immutable)
  std::vector<mcmc::ParameterSummary> posterior;
  /// What tables and messages call posterior[j]: its design name ("intercept", "health=poor",
  /// models::parameterLabels); posterior[j].name stays the report's key ("beta[1]").
  std::vector<std::string> labels;
  privacy::LipschitzResult lipschitz;
  WeightSummary weights;
  std::vector<std::string> warnings;  ///< plain-language diagnostics problems of this stage
  double seconds = 0;                 ///< sampling + Lipschitz
  std::optional<double> k;            ///< the re-weighting k this stage used, if any
  bool fromCache = false;             ///< reused from the cache, not run again
  bool reference = false;             ///< fitted on the public reference data, not the release data
  /// exactEnvelope: independent exact draws (no chains in the MCMC sense; `sample` holds them
  /// in `chains` blocks); mcmc: NUTS.
  Sampling sampling = Sampling::mcmc;
  /// The exact sampler's effort (cells, proposals, acceptance). CONFIDENTIAL: it depends on the
  /// data, so internal reports only.
  std::optional<privacy::ExactSampleStats> exact;
  int budgetFactor = 1;  ///< NUTS warm-up and draws were the run's times this

  bool censored() const { return std::isfinite(lower) || std::isfinite(upper); }
};
using StagePtr = std::shared_ptr<const StageResult>;

/// labels[j] when there is one label per posterior entry, else posterior[j].name.
inline const std::string& parameterLabel(const std::vector<mcmc::ParameterSummary>& posterior,
                                         const std::vector<std::string>& labels, std::size_t j) {
  return labels.size() == posterior.size() ? labels[j] : posterior[j].name;
}

/// What one mechanism run produces.
struct MechanismResult {
  MechanismConfig config;
  /// The guarantee that holds for this run as executed (SPEC §0): `claimed`, or none when the
  /// DP stage failed its diagnostics (see refusals).
  Guarantee guarantee = Guarantee::none;
  /// What the mechanism promises when its draws are exact (DP for censor-uw, ph, and censor-w
  /// with reference weights; aDP for the weighted mechanisms; none for unweighted).
  Guarantee claimed = Guarantee::none;
  /// The ε the guarantee refers to: the asked ε for DP mechanisms, ε_x = 2Δ_{α,x} otherwise.
  double epsilon = 0;
  privacy::Neighbours neighbours = privacy::Neighbours::replaceOne;
  /// Censored mechanisms: the interval each contribution was clamped to.
  std::optional<privacy::ClampInterval> clamp;
  /// Weights came from a weight function fitted on public reference data (--weights-from).
  bool referenceWeights = false;
  /// True unless the run was a release (OS seed, OS noise): seeded output is for studies and
  /// tests and says so in every file.
  bool notForRelease = true;
  /// How the released θ was drawn, i.e. what a DP label rests on (sampling.h).
  Sampling sampling = Sampling::mcmc;
  /// Why this mechanism's output may not be released with a DP label: the screen of an
  /// MCMC-drawn DP stage (screen.h) failed at every budget up to its cap. Never set for exact
  /// draws. Empty: nothing refused.
  std::vector<std::string> refusals;
  /// The size everything published uses (SPEC §0): n when public, else a noisy ñ (whose ε_n is
  /// part of the published ε) or a declared size. One per run, shared by its mechanisms.
  privacy::PublishedSize size;
  /// The input row whose declared covariates each synthetic record takes, one per record, when
  /// size.rows differs from n (syntheticSourceRows); null: record i is input row i. CONFIDENTIAL
  /// (which rows were kept or repeated): never written anywhere.
  std::shared_ptr<const std::vector<std::size_t>> sourceRows;
  std::vector<StagePtr> stages;  ///< every fit in run order (k=auto: every refit)
  StagePtr final;                ///< the fit synthetic data come from; null for ph
  std::optional<privacy::PhRelease> ph;
  std::optional<double> k;  ///< chosen re-weighting k
  /// k = auto: relative width of the accept band the search used, [(1 − band)·Δ, Δ] (from the
  /// Monte Carlo error of Δ, reweight_search.h). CONFIDENTIAL (a function of the data).
  std::optional<double> kBand;
  std::optional<double> downscale;  ///< d used (weighted-e, censor-w)
  std::optional<std::size_t> censoredRecords;
  std::optional<std::size_t> truncatedRecords;
  std::vector<std::string> warnings;  ///< all stages' warnings plus mechanism-level ones
  double seconds = 0;
};

}  // namespace dpsynth::core::pipeline
