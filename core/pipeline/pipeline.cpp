#include "core/pipeline/pipeline.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <iomanip>
#include <limits>
#include <numeric>
#include <sstream>
#include <stdexcept>

#include "core/exec/cancellation.h"
#include "core/exec/interruptible_sort.h"
#include "core/pipeline/reweight_search.h"
#include "core/pipeline/screen.h"
#include "core/pipeline/stage_runner.h"
#include "core/pipeline/synthesis.h"
#include "core/privacy/weights.h"
#include "core/utility/utility.h"

namespace dpsynth::core::pipeline {

WeightSummary summarizeWeights(const std::vector<double>& alpha, std::size_t n,
                               const std::stop_token& stop) {
  WeightSummary s;
  if (alpha.empty()) {
    // Unweighted: every weight is 1 (sorting 10^7 ones three times took half a second that no
    // Ctrl-C could interrupt).
    if (n > 0) s.min = s.max = s.mean = s.q25 = s.median = s.q75 = 1.0;
    return s;
  }
  std::vector<double> sorted = alpha;
  exec::stableSort(sorted.begin(), sorted.end(), std::less<double>(), stop);
  const Eigen::Map<const Eigen::VectorXd> a(alpha.data(), static_cast<Eigen::Index>(alpha.size()));
  s.min = sorted.front();
  s.max = sorted.back();
  s.mean = a.mean();
  s.q25 = utility::quantileSorted(sorted, 0.25);
  s.median = utility::quantileSorted(sorted, 0.5);
  s.q75 = utility::quantileSorted(sorted, 0.75);
  return s;
}

namespace {

using detail::formatFixed;

/// The size a run publishes and, when it differs from n, the input rows its synthetic records
/// take their covariates from: one draw per run, shared by every mechanism.
struct RunSize {
  privacy::PublishedSize published;
  std::shared_ptr<const std::vector<std::size_t>> sourceRows;
};

/// Tags of the run seed's sub-seeds for the size (seeded runs only; a release reads the OS).
constexpr std::uint64_t kSizeNoiseTag = 0x53495a45ULL;  // "SIZE"
constexpr std::uint64_t kSizeRowsTag = 0x524f5753ULL;   // "ROWS"

/// SPEC §0: the noise of a release's size comes from the operating system's CSPRNG, a seeded
/// run's from its seed (reproducible, not for release), as the histogram's noise does.
RunSize drawRunSize(const data::Dataset& dataset, const RunSettings& settings) {
  const std::size_t n = dataset.size();
  const auto bits =
      settings.release
          ? privacy::makeOsRandomSource()
          : privacy::makeSeededSource(random::deriveSeed(settings.nuts.seed, kSizeNoiseTag));
  RunSize out;
  out.published =
      privacy::publishSize(n, settings.size, settings.neighbours, dataset.completeCasesOnly, *bits);
  if (out.published.rows != n && n > 0) {
    random::Rng rng = random::makeRng(
        settings.release ? random::osSeed() : random::deriveSeed(settings.nuts.seed, kSizeRowsTag));
    out.sourceRows = std::make_shared<const std::vector<std::size_t>>(
        syntheticSourceRows(n, out.published.rows, rng));
  }
  return out;
}

/// Runs the stages of one mechanism. Every method returns null/nullopt when cancelled.
class MechanismRun {
 public:
  /// reference: the runner of the public reference data, or null (weights from the data).
  /// size: the run's published size and the synthetic records' source rows.
  MechanismRun(detail::StageRunner& runner, detail::StageRunner* reference,
               const MechanismConfig& config, const RunSize& size)
      : runner_(runner),
        reference_(usesReferenceWeights(config.mechanism) ? reference : nullptr),
        config_(config),
        name_(mechanismName(config.mechanism)) {
    const RunSettings& settings = runner.settings();
    result_.size = size.published;
    result_.sourceRows = size.sourceRows;
    result_.config = config;
    result_.referenceWeights = reference_ != nullptr;
    result_.claimed = guaranteeOf(config.mechanism, result_.referenceWeights);
    result_.guarantee = result_.claimed;
    result_.neighbours = settings.neighbours;
    result_.notForRelease = !settings.release || config.reproducibleNoise;
    result_.sampling = config.mechanism == Mechanism::ph ? Sampling::none : Sampling::mcmc;
  }

  std::optional<MechanismResult> run() {
    const auto start = std::chrono::steady_clock::now();
    if (!dispatch()) return std::nullopt;
    finish();
    result_.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return std::move(result_);
  }

 private:
  std::size_t n() const { return runner_.dataset().size(); }
  std::vector<double> ones() const { return std::vector<double>(n(), 1.0); }
  double halfEpsilon() const { return *config_.epsilon / 2.0; }

  /// previousRunner: the reference runner when `previous` was fitted on the reference data.
  StagePtr stage(const std::string& kind, const std::string& label,
                 const std::vector<double>& alpha, std::optional<privacy::ClampInterval> clamp,
                 const StagePtr& previous, std::optional<double> k = std::nullopt,
                 const detail::StageRunner* previousRunner = nullptr,
                 detail::StageSampling sampling = {}) {
    StagePtr s =
        runner_.run(name_, kind, label, alpha, clamp, previous, k, previousRunner, sampling);
    if (s) result_.stages.push_back(s);
    return s;
  }

  /// A DP stage (SPEC §0 "exact sampling"). Intercept-only models: an exact draw of the
  /// censored pseudo posterior, which needs neither diagnostics nor a start (`previous` is not
  /// used, and nothing is fitted on the data before it). Regressions: NUTS from `previous`,
  /// screened (screen.h); while the draws fail the screen the stage is run again with fresh
  /// randomness and twice the warm-up and draws, up to kScreenMaxBudgetFactor, after which the
  /// failures stand as the mechanism's refusals.
  StagePtr dpStage(const std::string& kind, const std::string& label,
                   const std::vector<double>& alpha, privacy::ClampInterval clamp,
                   const std::function<StagePtr()>& previous,
                   const detail::StageRunner* previousRunner = nullptr) {
    if (runner_.dataset().interceptOnly()) {
      result_.sampling = Sampling::exactEnvelope;
      return stage(kind, label, alpha, clamp, nullptr, std::nullopt, nullptr, {true, 1, 0});
    }
    result_.sampling = Sampling::mcmcScreened;
    const StagePtr start = previous();
    if (!start) return nullptr;
    detail::StageSampling how;
    StagePtr fit = stage(kind, label, alpha, clamp, start, std::nullopt, previousRunner, how);
    while (fit) {
      result_.refusals = screenFailures(fit->name, fit->posterior, fit->sample, fit->labels);
      if (result_.refusals.empty() || how.budgetFactor >= kScreenMaxBudgetFactor) break;
      how.budgetFactor *= 2;
      ++how.retry;
      fit = stage(kind,
                  label + " (retry " + std::to_string(how.retry) + ", " +
                      std::to_string(how.budgetFactor) + "x warm-up and draws)",
                  alpha, clamp, start, std::nullopt, previousRunner, how);
    }
    return fit;
  }

  StagePtr unweighted() { return stage("unweighted", "unweighted", ones(), std::nullopt, nullptr); }

  /// The censoring interval of SPEC §0 for this family, relation and ε.
  privacy::ClampInterval censorInterval() {
    const auto interval = privacy::censorInterval(runner_.dataset().family,
                                                  runner_.settings().neighbours, *config_.epsilon);
    result_.clamp = interval;
    return interval;
  }

  /// LW weights as a function fitted on the public reference (SPEC §0): the reference's
  /// unweighted fit gives f(y, X) = max_s |log p(y | θ_s, X)|, normalised by the reference's
  /// own min and max f, and applied record by record to the data being released. With
  /// downscale auto, the reference's LW fit also gives Δ for d. Null when cancelled.
  struct ReferenceWeights {
    std::vector<double> alpha;
    StagePtr unweighted;
    std::optional<double> delta;  ///< Δ of the reference's LW fit (downscale auto only)
  };
  std::optional<ReferenceWeights> referenceWeights() {
    const std::size_t refN = reference_->dataset().size();
    StagePtr refUnw = reference_->run(name_, "reference-unweighted", "reference unweighted",
                                      std::vector<double>(refN, 1.0), std::nullopt, nullptr);
    if (!refUnw) return std::nullopt;
    result_.stages.push_back(refUnw);
    const Eigen::VectorXd& refF = refUnw->lipschitz.perRecordRaw;
    if (!refF.allFinite())
      throw std::invalid_argument(
          "the reference data give an unbounded log-likelihood for some record, so no weight "
          "function can be fitted on them");
    const double lo = refF.minCoeff(), hi = refF.maxCoeff();
    // f of each record being released, under the reference draws: one streaming pass. The
    // draws live in the reference model's unconstrained space (its QR transform comes from the
    // reference design): convert them to a direct-form model of the released data (u = β, no
    // transform). The released data's own space would do in exact arithmetic, but its QR
    // transform depends on every record's covariates, and through rounding (about 1e-15) each
    // weight would then depend on the other records, which a strict claim rules out.
    models::ModelSpec direct = runner_.settings().model;
    direct.parameterisation = models::Parameterisation::direct;
    const auto model = models::makeModel(runner_.dataset(), direct, {}, runner_.stopToken());
    const Eigen::MatrixXd draws =
        models::convertDraws(reference_->spaceModel(), *model, refUnw->sample->pooled());
    const auto pass = privacy::computeLipschitz(*model, draws, models::LikelihoodWeights{},
                                                detail::lipschitzThreadCount(runner_.settings()),
                                                runner_.stopToken());
    if (!pass) return std::nullopt;
    const Eigen::VectorXd& f = pass->perRecordRaw;
    ReferenceWeights out{privacy::lwWeightsFromReference(f, lo, hi, config_.c, config_.g), refUnw,
                         std::nullopt};
    if (!config_.downscale) {
      StagePtr refLw =
          reference_->run(name_, "reference-lw", "reference lw",
                          privacy::lwWeightsFromReference(refF, lo, hi, config_.c, config_.g),
                          std::nullopt, refUnw);
      if (!refLw) return std::nullopt;
      result_.stages.push_back(refLw);
      out.delta = refLw->lipschitz.max;
    }
    return out;
  }

  /// d: given, or auto = min(1, (eps/2)/Delta) with Delta of an LW fit (the reference's when
  /// the weights come from it).
  double downscaleFromDelta(double delta) {
    const double d = config_.downscale ? *config_.downscale
                                       : std::min(1.0, delta > 0 ? halfEpsilon() / delta : 1.0);
    result_.downscale = d;
    return d;
  }

  /// LW or CW weighted fit (with its prerequisites).
  StagePtr weightedBase(bool lw) {
    StagePtr base = unweighted();
    if (!base) return nullptr;
    std::vector<double> alpha;
    if (lw) {
      alpha = privacy::lwWeights(base->lipschitz.perRecordRaw, config_.c, config_.g);
    } else {
      alpha = privacy::cwWeights(runner_.dataset().y, config_.radius, config_.radiusRelative,
                                 config_.c, config_.g);
    }
    return stage(lw ? "lw" : "cw", lw ? "lw" : "cw", alpha, std::nullopt, base);
  }

  bool dispatch() {
    switch (config_.mechanism) {
      case Mechanism::unweighted:
        return unweighted() != nullptr;
      case Mechanism::lw:
        return weightedBase(true) != nullptr;
      case Mechanism::cw:
        return weightedBase(false) != nullptr;
      case Mechanism::sw:
        return runSw();
      case Mechanism::lwFinal:
        return runFinal(true);
      case Mechanism::cwFinal:
        return runFinal(false);
      case Mechanism::weightedE:
        return runWeightedE();
      case Mechanism::censorUw:
        return runCensorUw();
      case Mechanism::censorW:
        return runCensorW();
      case Mechanism::ph:
        return runPh();
    }
    return false;
  }

  bool runSw() {
    StagePtr base = unweighted();
    if (!base) return false;
    const double deltaX = base->lipschitz.max;
    double a = 1.0;
    if (config_.epsilon) {
      a = deltaX > 0 ? std::min(1.0, halfEpsilon() / deltaX) : 1.0;
    } else {
      StagePtr lw = weightedBase(true);
      if (!lw) return false;
      a = deltaX > 0 ? std::min(1.0, lw->lipschitz.max / deltaX) : 1.0;
    }
    StagePtr fit =
        stage("sw", "sw a=" + formatFixed(a, 4), std::vector<double>(n(), a), std::nullopt, base);
    if (!fit) return false;
    if (config_.epsilon && 2.0 * fit->lipschitz.max > *config_.epsilon) {
      result_.warnings.push_back(
          "sw: the scaled pseudo-posterior is wider than the unweighted one, so its eps_x = " +
          formatFixed(2.0 * fit->lipschitz.max, 3) + " lands above the target eps = " +
          formatFixed(*config_.epsilon, 3) + "; the aDP guarantee refers to the achieved eps_x");
    }
    return true;
  }

  bool runFinal(bool lw) {
    StagePtr base = weightedBase(lw);
    if (!base) return false;
    const std::string kind = lw ? "lw-final" : "cw-final";
    auto fit = [&](double k) {
      std::vector<double> alpha = privacy::reweight(base->alpha, base->lipschitz.perRecord, k);
      return stage(kind, kind + " k=" + formatFixed(k, 4), alpha, std::nullopt, base, k);
    };
    if (config_.k) {
      result_.k = *config_.k;
      return fit(*config_.k) != nullptr;
    }
    const auto search = detail::searchReweightK(base->lipschitz.max, base->lipschitz.maxMcSd, fit);
    if (search.cancelled) return false;
    result_.kBand = search.band;
    if (!search.chosen) {
      // No k kept Delta at or below the target: keep the fit before re-weighting.
      result_.warnings.push_back(kind +
                                 ": no re-weighting k kept the Lipschitz bound at or below the " +
                                 (lw ? "LW" : "CW") + " bound in " + std::to_string(search.refits) +
                                 " refits; the fit before re-weighting is used");
      result_.final = base;
      return true;
    }
    result_.k = search.chosen->k;
    if (search.shortfall > search.band) {
      result_.warnings.push_back(
          kind + ": k=auto could not land within " + formatFixed(100.0 * search.band, 1) +
          "% of the target bound in " + std::to_string(search.refits) + " refits" +
          (search.stoppedOnNoise ? " (the last two refits were within Monte Carlo error of "
                                   "each other)"
                                 : "") +
          "; kept k=" + formatFixed(*search.chosen->k, 4) + " whose bound is " +
          formatFixed(100.0 * search.shortfall, 1) + "% below the target");
    }
    result_.final = search.chosen;
    return true;
  }

  bool runWeightedE() {
    StagePtr lw;
    double d = 1.0;
    if (reference_) {
      auto ref = referenceWeights();
      if (!ref) return false;
      lw = stage("lw-reference", "lw (reference weights)", ref->alpha, std::nullopt,
                 ref->unweighted, std::nullopt, reference_);
      if (!lw) return false;
      d = downscaleFromDelta(ref->delta.value_or(0.0));
    } else {
      lw = weightedBase(true);
      if (!lw) return false;
      d = downscaleFromDelta(lw->lipschitz.max);
    }
    const std::vector<double> scaled = privacy::downscale(lw->alpha, d);
    const Eigen::VectorXd bound = lw->lipschitz.perRecord * d;  // bounds scale with the weights
    std::size_t truncated = 0;
    const auto alpha = privacy::truncateAbove(scaled, bound, halfEpsilon(), &truncated);
    result_.truncatedRecords = truncated;
    StagePtr fit = stage("weighted-e", "weighted-e", alpha, std::nullopt, lw);
    if (!fit) return false;
    if (2.0 * fit->lipschitz.max > *config_.epsilon) {
      result_.warnings.push_back("weighted-e: after dropping " + std::to_string(truncated) +
                                 " records the refit's posterior moved and its eps_x = " +
                                 formatFixed(2.0 * fit->lipschitz.max, 3) +
                                 " exceeds the target eps = " + formatFixed(*config_.epsilon, 3) +
                                 "; the aDP guarantee refers to the achieved eps_x");
    }
    return true;
  }

  bool runCensorUw() {
    StagePtr fit =
        dpStage("censor-uw", "censor-uw", ones(), censorInterval(), [&] { return unweighted(); });
    if (!fit) return false;
    result_.censoredRecords = fit->lipschitz.censoredRecords;
    return true;
  }

  bool runCensorW() {
    StagePtr fit;
    if (reference_) {
      // No fit on the data being released before the censored one: the weights are a function
      // of each record alone, so the clamp bounds one record's influence (strict DP).
      auto ref = referenceWeights();
      if (!ref) return false;
      const double d = downscaleFromDelta(ref->delta.value_or(0.0));
      fit = dpStage(
          "censor-w", "censor-w (reference weights)", privacy::downscale(ref->alpha, d),
          censorInterval(), [&] { return ref->unweighted; }, reference_);
    } else {
      StagePtr lw = weightedBase(true);
      if (!lw) return false;
      const double d = downscaleFromDelta(lw->lipschitz.max);
      fit = stage("censor-w", "censor-w", privacy::downscale(lw->alpha, d), censorInterval(), lw);
    }
    if (!fit) return false;
    result_.censoredRecords = fit->lipschitz.censoredRecords;
    return true;
  }

  bool runPh() {
    privacy::PhConfig ph;
    ph.lower = config_.lower;
    ph.upper = config_.upper;
    // The default bin count comes from the published size, never from a confidential n.
    ph.bins = config_.bins > 0
                  ? config_.bins
                  : static_cast<int>(privacy::phDefaultBins(result_.size.rowsFor(n())));
    ph.epsilon = *config_.epsilon;
    ph.integer = models::isCountFamily(runner_.dataset().family);
    ph.sensitivity = privacy::histogramSensitivity(runner_.settings().neighbours);
    // A release's noise comes from the OS CSPRNG; any other run's from its seed.
    if (result_.notForRelease)
      ph.reproducibleSeed = random::deriveSeed(runner_.settings().nuts.seed, 0x5048ULL);
    result_.ph = privacy::perturbHistogram(runner_.dataset().y, ph);
    return !runner_.cancelled();
  }

  void finish() {
    if (config_.mechanism != Mechanism::ph && !result_.final) result_.final = result_.stages.back();
    // A DP claim rests on draws from the censored pseudo posterior (SPEC §0): exact ones need
    // nothing more; MCMC ones that failed their screen at every budget carry no DP label.
    if (result_.claimed == Guarantee::DP && !result_.refusals.empty()) {
      result_.guarantee = Guarantee::none;
      result_.warnings.push_back(
          name_ + ": not released as DP: the censored fit failed the sampling screen (" +
          joined(result_.refusals) + ") at every budget up to " + kScreenMaxBudgetFactorText +
          " the warm-up and draws, each time with fresh randomness; the guarantee needs draws "
          "from the exact pseudo posterior. This refusal is an internal outcome of this run; "
          "run again with more warm-up and draws");
    }
    if (result_.guarantee == Guarantee::DP) {
      result_.epsilon = *config_.epsilon;
    } else {
      result_.epsilon = 2.0 * result_.final->lipschitz.max;
    }
    // Stage warnings, each once (a cached stage shared by several mechanisms repeats them).
    std::vector<std::string> all;
    for (const auto& s : result_.stages)
      for (const auto& w : s->warnings)
        if (std::find(all.begin(), all.end(), w) == all.end()) all.push_back(w);
    all.insert(all.end(), result_.warnings.begin(), result_.warnings.end());
    result_.warnings = std::move(all);
  }

  static std::string joined(const std::vector<std::string>& parts) {
    std::string out;
    for (const auto& p : parts) out += (out.empty() ? "" : "; ") + p;
    return out;
  }

  detail::StageRunner& runner_;
  detail::StageRunner* reference_;
  const MechanismConfig& config_;
  std::string name_;
  MechanismResult result_;
};

/// The same records in any order: each dataset's rows (y, then X) sorted, then compared. A
/// copy of the data with its rows shuffled was taken for a public reference, and censor-w
/// labelled DP with weights that move with every record.
bool sameRecords(const data::Dataset& a, const data::Dataset& b) {
  if (a.size() != b.size() || a.X.cols() != b.X.cols()) return false;
  const auto n = static_cast<Eigen::Index>(a.size());
  const auto sorted = [n](const data::Dataset& d) {
    std::vector<Eigen::Index> order(static_cast<std::size_t>(n));
    std::iota(order.begin(), order.end(), Eigen::Index{0});
    std::sort(order.begin(), order.end(), [&d](Eigen::Index i, Eigen::Index j) {
      if (d.y[i] != d.y[j]) return d.y[i] < d.y[j];
      for (Eigen::Index c = 0; c < d.X.cols(); ++c)
        if (d.X(i, c) != d.X(j, c)) return d.X(i, c) < d.X(j, c);
      return false;
    });
    return order;
  };
  const auto ia = sorted(a), ib = sorted(b);
  for (std::size_t k = 0; k < ia.size(); ++k) {
    if (a.y[ia[k]] != b.y[ib[k]] || a.X.row(ia[k]) != b.X.row(ib[k])) return false;
  }
  return true;
}

}  // namespace

void makeRelease(RunSettings& settings) {
  settings.nuts.seed = random::osSeed();
  settings.release = true;
}

RunResult runMechanisms(const data::Dataset& dataset, const std::vector<MechanismConfig>& asked,
                        const RunSettings& settings, StageCache* cache, std::stop_token stop,
                        PipelineObserver* observer) {
  // The family's public bounds fill unset PH bounds, whichever front end asked (SPEC §4).
  std::vector<MechanismConfig> configs;
  for (const auto& c : asked) configs.push_back(withFamilyDefaults(c, dataset.family));
  std::vector<std::string> problems = settings.nuts.validate();
  for (const auto& c : configs) {
    auto p = c.validate();
    problems.insert(problems.end(), p.begin(), p.end());
  }
  if (!(settings.model.sdScale > 0) || !std::isfinite(settings.model.sdScale))
    problems.push_back("the normal family's sd scale must be a finite number > 0");
  // Values whose squares overflow leave every model without a finite starting point: say which
  // column to rescale rather than failing inside the sampler.
  constexpr double kLargest = 1e100;
  if (dataset.size() > 0 && dataset.y.cwiseAbs().maxCoeff() > kLargest)
    problems.push_back("the outcome '" + dataset.outcomeName.substr(0, 60) +
                       "' has values beyond 1e100 in size; rescale it (for example to thousands "
                       "or millions) before synthesis");
  for (Eigen::Index j = 1; j < dataset.X.cols(); ++j)
    if (dataset.X.col(j).cwiseAbs().maxCoeff() > kLargest)
      problems.push_back("the covariate '" +
                         dataset.designNames[static_cast<std::size_t>(j)].substr(0, 60) +
                         "' has values beyond 1e100 in size; rescale it before synthesis");
  for (const auto& p : settings.size.validate()) problems.push_back(p);
  if (settings.release && settings.nuts.seed.isUserSeed())
    problems.push_back(
        "a release needs a seed from the operating system (makeRelease), not a "
        "user seed");
  if (const auto& ref = settings.weightReference) {
    if (ref->family != dataset.family || ref->designNames != dataset.designNames) {
      std::string want, got;
      for (const auto& d : dataset.designNames) want += (want.empty() ? "" : ", ") + d;
      for (const auto& d : ref->designNames) got += (got.empty() ? "" : ", ") + d;
      // The same covariates with other dummies: most often a categorical covariate whose
      // levels come in label order from an SPSS or Stata file and sorted from a CSV (last
      // period's synthetic CSV as the reference of this period's .sav), so another level is
      // left out as the reference.
      const auto columnsOf = [](const std::vector<std::string>& names) {
        std::vector<std::string> columns;
        for (const auto& n : names) columns.push_back(n.substr(0, n.find('=')));
        return columns;
      };
      const bool sameColumns = ref->family == dataset.family &&
                               columnsOf(ref->designNames) == columnsOf(dataset.designNames);
      problems.push_back(
          "the reference data must have the same family and design as the data "
          "(data: " +
          models::familyName(dataset.family) + " with " + want +
          "; reference: " + models::familyName(ref->family) + " with " + got + ")" +
          (sameColumns ? ": a categorical covariate's levels differ in order or reference (an "
                         "SPSS or Stata file lists them in label order, a CSV sorted): with "
                         "--reference COLUMN=LEVEL both leave out the same level, and the "
                         "others must then come in the same order too"
                       : ""));
    } else if (!settings.referenceMayBeTheData && sameRecords(*ref, dataset)) {
      // Weights fitted on the data being released move with every record, so censor-w's DP
      // label would be false (SPEC §0). The records are compared, not the paths, so that a
      // copy under another name is caught as well as the file itself.
      problems.push_back(
          "the reference data hold the same records as the data being synthesised; weights "
          "from a reference are DP only when the reference is public (another source, or an "
          "earlier period already released). Give such a file to --weights-from, or use "
          "censor-uw, which needs no reference");
    }
  }
  if (!problems.empty()) {
    std::string message;
    for (const auto& p : problems) message += (message.empty() ? "" : "; ") + p;
    throw std::invalid_argument(message);
  }

  // The normal family's priors are scaled by a public sd scale. When the outcome sits far
  // outside them the prior dominates and the synthetic data are useless: say so (this warning
  // is internal, like the report; it is not part of the release).
  std::optional<std::string> scaleWarning;
  if (dataset.family == models::Family::normal && dataset.size() > 0) {
    const double scale = settings.model.sdScale;
    const double mean = std::abs(dataset.y.mean());
    const double sd = std::sqrt((dataset.y.array() - dataset.y.mean()).square().mean());
    if (mean > 30.0 * scale || sd > 50.0 * scale) {
      scaleWarning =
          "normal family: the outcome's scale is far larger than the prior scale (sd scale " +
          formatFixed(scale, 3) +
          "), so the priors dominate and the synthetic data will not resemble the data; set "
          "the sd scale (--sd-scale, or 'Prior sd scale' in the studio) to a public figure of "
          "the outcome's typical size";
    }
  }

  StageCache local;
  StageCache* shared = cache ? cache : &local;
  RunResult out;
  // Code below the sampler (grouping 10^7 records, hashing the data) unwinds a stop request
  // with exec::Cancelled: a cancelled run, like one the sampler stopped.
  try {
    detail::StageRunner runner(dataset, settings, shared, stop, observer);
    std::optional<detail::StageRunner> reference;
    if (settings.weightReference)
      reference.emplace(*settings.weightReference, settings, shared, stop, observer, true);
    const RunSize size = drawRunSize(dataset, settings);
    for (const auto& config : configs) {
      MechanismRun run(runner, reference ? &*reference : nullptr, config, size);
      auto result = run.run();
      if (!result) {
        out.outcome = RunOutcome::cancelled;
        return out;
      }
      if (scaleWarning) result->warnings.insert(result->warnings.begin(), *scaleWarning);
      if (observer) observer->onMechanismFinished(*result);
      out.mechanisms.push_back(std::move(*result));
    }
  } catch (const exec::Cancelled&) {
    out.outcome = RunOutcome::cancelled;
  }
  return out;
}

}  // namespace dpsynth::core::pipeline
