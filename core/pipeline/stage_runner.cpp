#include "core/pipeline/stage_runner.h"

#include <chrono>
#include <cmath>
#include <cstring>
#include <iomanip>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "core/exec/cancellation.h"
#include "core/models/parameter_labels.h"
#include "core/privacy/exact_sampler.h"
#include "core/random/rng.h"

namespace dpsynth::core::pipeline::detail {

namespace {

/// Two independent 64-bit FNV-style streams over raw bytes; 128 bits make accidental key
/// collisions between different stage inputs negligible.
class Hasher {
 public:
  void bytes(const void* data, std::size_t size) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < size; ++i) {
      a_ = (a_ ^ p[i]) * 0x100000001B3ULL;
      b_ = (b_ ^ p[i]) * 0x00000100000001B3ULL + 0x9E3779B97F4A7C15ULL;
    }
  }
  void text(const std::string& s) {
    bytes(s.data(), s.size());
    bytes("\0", 1);
  }
  template <typename T>
  void value(const T& v) {
    bytes(&v, sizeof v);
  }
  /// In steps of 2^16 values with a stop check between them: the data of 10^7 records are
  /// hundreds of megabytes (the same bytes in the same order, so the same digest).
  void doubles(const double* d, std::size_t n, const std::stop_token& stop) {
    value(n);
    constexpr std::size_t kStep = std::size_t{1} << 16;
    for (std::size_t at = 0; at < n; at += kStep) {
      exec::throwIfStopped(stop);
      bytes(d + at, std::min(kStep, n - at) * sizeof(double));
    }
  }
  std::uint64_t word() const { return random::splitMix64(a_ ^ random::splitMix64(b_)); }
  std::string hex() const {
    std::ostringstream out;
    out << std::hex << std::setfill('0') << std::setw(16) << random::splitMix64(a_) << std::setw(16)
        << random::splitMix64(b_);
    return out.str();
  }

 private:
  std::uint64_t a_ = 0xCBF29CE484222325ULL;
  std::uint64_t b_ = 0x84222325CBF29CE4ULL;
};

/// Stream tags mixed into a stage's seed: a screen's retries and the exact sampler each draw from
/// their own stream.
constexpr std::uint64_t kRetryStream = 0x5245545259ULL;  // "RETRY"
constexpr std::uint64_t kExactStream = 0x4558414354ULL;  // "EXACT"

std::uint64_t kindStream(const std::string& kind) {
  std::uint64_t h = 0xCBF29CE484222325ULL;
  for (unsigned char ch : kind) h = (h ^ ch) * 0x100000001B3ULL;
  return h;
}

/// What a stage samples: its kind, weights, clamp, exact or not, digested once (the weights
/// are n numbers) for both its stream and its cache key. Two stages of one kind in a run
/// (censor-uw at ε = 1 and at ε = 2) drew from one stream, so their released draws shared their
/// randomness, where composition (ε₁ + ε₂) assumes independent mechanisms. The same stage asked
/// for twice is one stage (cached), with one stream.
Hasher samplingDigest(const std::string& kind, const models::LikelihoodWeights& weights, bool exact,
                      const std::stop_token& stop) {
  Hasher h;
  h.value(kindStream(kind));
  h.doubles(weights.alpha.data(), weights.alpha.size(), stop);
  h.value(weights.lower);
  h.value(weights.upper);
  h.value(exact);
  return h;
}

/// Forwards sampler events to the pipeline observer with the stage's label.
class StageSamplerObserver : public mcmc::SamplerObserver {
 public:
  StageSamplerObserver(PipelineObserver* target, std::string label)
      : target_(target), label_(std::move(label)) {}
  void onProgress(const mcmc::Progress& progress) override {
    target_->onSamplerProgress(label_, progress);
  }
  void onDraws(int chain, int firstDraw, const Eigen::MatrixXd& rows) override {
    target_->onDraws(label_, chain, firstDraw, rows);
  }

 private:
  PipelineObserver* target_;
  std::string label_;
};

}  // namespace

int lipschitzThreadCount(const RunSettings& settings) {
  return settings.lipschitzThreads > 0
             ? settings.lipschitzThreads
             : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

std::string formatFixed(double v, int digits) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(digits) << v;
  return out.str();
}

StageRunner::StageRunner(const data::Dataset& dataset, const RunSettings& settings,
                         StageCache* cache, std::stop_token stop, PipelineObserver* observer,
                         bool reference)
    : dataset_(dataset),
      settings_(settings),
      cache_(cache),
      stop_(std::move(stop)),
      observer_(observer),
      reference_(reference) {
  Hasher h;
  h.value(static_cast<int>(dataset.family));
  h.doubles(dataset.y.data(), static_cast<std::size_t>(dataset.y.size()), stop_);
  h.doubles(dataset.X.data(), static_cast<std::size_t>(dataset.X.size()), stop_);
  h.value(settings.model.sdScale);
  h.value(static_cast<int>(settings.model.parameterisation));
  dataFingerprint_ = h.hex();
}

const models::SynthesisModel& StageRunner::spaceModel() const {
  if (!spaceModel_) spaceModel_ = models::makeModel(dataset_, settings_.model, {}, stop_);
  return *spaceModel_;
}

std::vector<Eigen::VectorXd> initsFrom(const StageResult& previous, int chains,
                                       const models::Model* from, const models::Model* to) {
  std::vector<Eigen::VectorXd> inits;
  const auto& prevChains = previous.sample->chains;
  if (prevChains.empty()) return inits;
  for (int c = 0; c < chains; ++c) {
    const auto& draws = prevChains[static_cast<std::size_t>(c) % prevChains.size()].draws;
    const Eigen::Index row = draws.rows() - 1 - (c / static_cast<int>(prevChains.size()));
    Eigen::VectorXd u = draws.row(std::max<Eigen::Index>(row, 0)).transpose();
    if (from && to) u = models::convertDraw(*from, *to, u);
    inits.push_back(std::move(u));
  }
  return inits;
}

std::string StageRunner::cacheKey(const std::string& kind, const std::string& sampled,
                                  const mcmc::NutsConfig& nuts) const {
  const auto& inits = nuts.inits;
  Hasher h;
  h.text(dataFingerprint_);
  h.text(sampled);
  h.value(nuts.chains);
  h.value(nuts.warmup);
  h.value(nuts.draws);
  h.value(nuts.seed);
  h.value(nuts.maxTreeDepth);
  h.value(nuts.targetAccept);
  h.value(nuts.initRadius);
  h.value(nuts.metric);
  for (const auto& init : inits)
    h.doubles(init.data(), static_cast<std::size_t>(init.size()), stop_);
  return kind + ":" + h.hex();
}

StagePtr StageRunner::run(const std::string& mechanism, const std::string& kind,
                          const std::string& label, const std::vector<double>& alpha,
                          std::optional<privacy::ClampInterval> clamp, const StagePtr& previous,
                          std::optional<double> k, const StageRunner* previousRunner,
                          StageSampling sampling) {
  if (stop_.stop_requested()) return nullptr;

  if (sampling.exact && (!clamp || dataset_.X.cols() != 1))
    throw std::logic_error("stage " + label +
                           ": exact sampling is for censored intercept-only fits");
  models::LikelihoodWeights weights{alpha};
  if (clamp) {
    weights.lower = clamp->lower;
    weights.upper = clamp->upper;
  }
  const Hasher sampled = samplingDigest(kind, weights, sampling.exact, stop_);
  mcmc::NutsConfig nuts = settings_.nuts;
  // Every stage has its own random stream, independent of which mechanism asked for it.
  nuts.seed = random::deriveSeed(settings_.nuts.seed, sampled.word());
  if (sampling.retry > 0)
    nuts.seed =
        random::deriveSeed(nuts.seed, kRetryStream + static_cast<std::uint64_t>(sampling.retry));
  nuts.warmup *= sampling.budgetFactor;
  nuts.draws *= sampling.budgetFactor;
  nuts.inits.clear();
  if (previous && !sampling.exact) {
    if (previousRunner == this) previousRunner = nullptr;
    if (previousRunner == nullptr && previous->reference != reference_) {
      throw std::logic_error("stage " + label + " starts from stage " + previous->name +
                             " of other data without that data's runner to convert its draws");
    }
    nuts.inits = previousRunner ? initsFrom(*previous, nuts.chains, &previousRunner->spaceModel(),
                                            &spaceModel())
                                : initsFrom(*previous, nuts.chains);
  }

  const std::string key = cacheKey(kind, sampled.hex(), nuts);
  if (cache_) {
    if (StagePtr cached = cache_->find(key)) {
      // A stage of its own (this use's label, marked fromCache) that shares the cached draws.
      auto copy = std::make_shared<StageResult>(*cached);
      copy->name = label;
      copy->fromCache = true;
      if (observer_) observer_->onStageStarted(mechanism, label, true);
      StagePtr result = copy;
      if (observer_) observer_->onStageFinished(mechanism, result);
      return result;
    }
  }
  if (observer_) observer_->onStageStarted(mechanism, label, false);

  const auto start = std::chrono::steady_clock::now();
  // Shared: an observer may keep the model to reduce the draws while they arrive.
  std::shared_ptr<const models::SynthesisModel> model =
      models::makeModel(dataset_, settings_.model, weights, stop_);

  std::optional<StageSamplerObserver> forward;
  if (observer_) {
    observer_->onStageModel(mechanism, label, model);
    forward.emplace(observer_, label);
  }
  mcmc::SampleResult sample;
  std::optional<privacy::ExactSampleStats> exactStats;
  if (sampling.exact) {
    exactStats.emplace();
    auto drawn = sampleExactly(weights, nuts, *exactStats);
    if (!drawn) return nullptr;
    sample = std::move(*drawn);
    if (forward) {
      for (std::size_t c = 0; c < sample.chains.size(); ++c) {
        const int chain = static_cast<int>(c);
        forward->onProgress({chain, nuts.draws, nuts.draws, false, 0});
        forward->onDraws(chain, 0, sample.chains[c].draws);
      }
    }
  } else {
    sample = mcmc::sample(*model, nuts, stop_, forward ? &*forward : nullptr);
    if (sample.status == mcmc::RunStatus::cancelled) return nullptr;
  }

  auto stage = std::make_shared<StageResult>();
  stage->name = label;
  stage->alpha = alpha;
  stage->lower = weights.lower;
  stage->upper = weights.upper;
  stage->reference = reference_;
  stage->k = k;
  stage->posterior = mcmc::summarize(*model, sample);
  std::vector<std::string> names;
  for (const auto& p : stage->posterior) names.push_back(p.name);
  stage->labels = models::parameterLabels(names, dataset_.designNames);
  // The pass polls the stop token: a Cancel during a large fit's pass ends the stage too.
  auto lipschitz = privacy::computeLipschitz(*model, sample.pooled(), weights,
                                             lipschitzThreadCount(settings_), stop_);
  if (!lipschitz) return nullptr;
  stage->lipschitz = std::move(*lipschitz);
  std::vector<Eigen::Index> chainLengths;
  for (const auto& c : sample.chains) chainLengths.push_back(c.draws.rows());
  stage->lipschitz.maxMcSd =
      privacy::lipschitzMonteCarloSd(stage->lipschitz.perDrawMax, chainLengths);
  stage->weights = summarizeWeights(alpha, dataset_.size(), stop_);
  stage->sampling = sampling.exact ? Sampling::exactEnvelope : Sampling::mcmc;
  stage->exact = exactStats;
  stage->budgetFactor = sampling.budgetFactor;
  // Exact draws are independent: chain diagnostics say nothing about them.
  if (!sampling.exact)
    stage->warnings = diagnosticWarnings(label, stage->posterior, sample, nuts.maxTreeDepth,
                                         weights.censored(), stage->labels);
  for (auto& w : coefficientScaleWarnings(label, stage->posterior, dataset_.family, stage->labels))
    stage->warnings.push_back(std::move(w));
  stage->sample = std::move(sample);
  stage->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  StagePtr result = stage;
  if (cache_) cache_->insert(key, result);
  if (observer_) observer_->onStageFinished(mechanism, result);
  return result;
}

std::optional<mcmc::SampleResult> StageRunner::sampleExactly(
    const models::LikelihoodWeights& weights, const mcmc::NutsConfig& nuts,
    privacy::ExactSampleStats& stats) {
  const auto start = std::chrono::steady_clock::now();
  privacy::ExactProblem problem;
  problem.family = dataset_.family;
  problem.y = dataset_.y;
  problem.alpha = weights.alpha;
  problem.lower = weights.lower;
  problem.upper = weights.upper;
  problem.sdScale = settings_.model.sdScale;
  random::Rng rng = random::makeRng(nuts.seed, kExactStream);
  const privacy::ExactSample drawn =
      privacy::sampleExact(problem, nuts.chains * nuts.draws, rng, stop_);
  if (drawn.cancelled) return std::nullopt;
  stats = drawn.stats;
  mcmc::SampleResult sample;
  for (int c = 0; c < nuts.chains; ++c) {
    mcmc::ChainResult chain;
    chain.draws = drawn.draws.middleRows(static_cast<Eigen::Index>(c) * nuts.draws, nuts.draws);
    sample.chains.push_back(std::move(chain));
  }
  sample.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return sample;
}

std::vector<std::string> diagnosticWarnings(const std::string& stage,
                                            const std::vector<mcmc::ParameterSummary>& posterior,
                                            const mcmc::SampleResult& sample, int maxTreeDepth,
                                            bool censored, const std::vector<std::string>& labels) {
  std::vector<std::string> warnings;
  const auto chains = static_cast<double>(sample.chains.size());
  const mcmc::ParameterSummary* worstRhat = nullptr;
  const mcmc::ParameterSummary* worstEss = nullptr;
  std::size_t rhatAt = 0, essAt = 0;
  for (std::size_t j = 0; j < posterior.size(); ++j) {
    const auto& p = posterior[j];
    if (std::isnan(p.rhat) || p.rhat > 1.01)
      if (!worstRhat || std::isnan(p.rhat) || p.rhat > worstRhat->rhat) {
        worstRhat = &p;
        rhatAt = j;
      }
    if (std::isnan(p.essBulk) || p.essBulk < 100.0 * chains)
      if (!worstEss || std::isnan(p.essBulk) || p.essBulk < worstEss->essBulk) {
        worstEss = &p;
        essAt = j;
      }
  }
  if (worstRhat) {
    warnings.push_back("stage " + stage + ": R-hat " + formatFixed(worstRhat->rhat, 2) + " for " +
                       parameterLabel(posterior, labels, rhatAt) +
                       ": the chains disagree, so the pseudo-posterior may be multimodal or flat" +
                       std::string(censored ? " (common with heavy censoring)" : "") +
                       "; treat this stage's Lipschitz bound and utility with caution, and try "
                       "more warm-up");
  }
  if (worstEss) {
    // The per-chain figure too: "171 is below 100 per chain" reads as a contradiction.
    const std::string perChain = std::isfinite(worstEss->essBulk) && chains > 1
                                     ? " (" + formatFixed(worstEss->essBulk / chains, 0) +
                                           " per chain over " + formatFixed(chains, 0) + " chains)"
                                     : std::string();
    warnings.push_back("stage " + stage + ": bulk-ESS " + formatFixed(worstEss->essBulk, 0) +
                       perChain + " for " + parameterLabel(posterior, labels, essAt) +
                       " is below 100 per chain: too few effective draws for "
                       "stable estimates; run more draws");
  }
  if (int d = sample.divergences(); d > 0) {
    // Only a censored fit has flat regions where the clamp holds every record at its bound;
    // elsewhere a divergence means a region of strong curvature (a funnel, a narrow ridge).
    warnings.push_back("stage " + stage + ": " + std::to_string(d) +
                       " divergent transitions: the sampler could not explore part of the " +
                       (censored ? std::string("pseudo-posterior (often a flat, censored region)")
                                 : std::string("posterior (a region of strong curvature)")) +
                       ", so the draws may be biased");
  }
  if (int t = sample.treeDepthSaturated(); t > 0) {
    warnings.push_back("stage " + stage + ": " + std::to_string(t) +
                       " iterations hit the maximum tree depth " + std::to_string(maxTreeDepth) +
                       ": sampling was inefficient and may not have explored the whole posterior");
  }
  return warnings;
}

std::vector<std::string> coefficientScaleWarnings(
    const std::string& stage, const std::vector<mcmc::ParameterSummary>& posterior,
    models::Family family, const std::vector<std::string>& labels) {
  std::vector<std::string> warnings;
  if (family == models::Family::normal) return warnings;
  for (std::size_t j = 0; j < posterior.size(); ++j) {
    const mcmc::ParameterSummary& p = posterior[j];
    if (p.name.rfind("beta[", 0) != 0 || !(std::abs(p.mean) > kFarCoefficient)) continue;
    std::ostringstream mean;
    mean << std::setprecision(3) << p.mean;
    const std::string& name = parameterLabel(posterior, labels, j);
    if (p.name == "beta[0]") {
      warnings.push_back("stage " + stage + ": the intercept averages " + mean.str() +
                         ", far outside its prior (coefficients within about ±10), which pulls "
                         "it towards 0 against the data; centre the covariates whose values lie "
                         "far from 0 (a year as year − 2000, say) and fit again");
    } else {
      std::ostringstream factor;
      factor << std::setprecision(1) << std::pow(10.0, std::floor(std::log10(std::abs(p.mean))));
      warnings.push_back("stage " + stage + ": the coefficient of " + name + " averages " +
                         mean.str() + ": one unit of " + name +
                         " moves the linear predictor that much, far outside the prior "
                         "(coefficients within about ±10), which pulls it towards 0 against "
                         "the data (chains can stick there); rescale " +
                         name + " (multiply it by " + factor.str() + ", say) and fit again");
    }
  }
  return warnings;
}

}  // namespace dpsynth::core::pipeline::detail
