#include "core/pipeline/report.h"

#include <algorithm>
#include <cmath>

#include "core/models/regression_kernels.h"
#include "core/pipeline/covariate_utility.h"
#include "core/pipeline/disclosure.h"
#include "core/pipeline/release_claim.h"
#include "core/pipeline/verdict.h"
#include "core/utility/utility.h"
#include "core/version.h"

namespace dpsynth::core::pipeline {

using nlohmann::json;

namespace {

json optionalNumber(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

json optionalCount(const std::optional<std::size_t>& v) { return v ? json(*v) : json(nullptr); }

json weightsJson(const WeightSummary& w) {
  return {{"min", w.min},   {"q25", w.q25}, {"median", w.median},
          {"mean", w.mean}, {"q75", w.q75}, {"max", w.max}};
}

json posteriorJson(const std::vector<mcmc::ParameterSummary>& posterior) {
  json out = json::object();
  for (const auto& p : posterior) {
    out[p.name] = {{"mean", p.mean},        {"sd", p.sd},           {"q025", p.q025},
                   {"q50", p.q50},          {"q975", p.q975},       {"rhat", p.rhat},
                   {"ess_bulk", p.essBulk}, {"ess_tail", p.essTail}};
  }
  return out;
}

double maxRhat(const StageResult& s) {
  double r = 0;
  for (const auto& p : s.posterior) r = std::isnan(p.rhat) ? NAN : std::max(r, p.rhat);
  return r;
}

double minEssBulk(const StageResult& s) {
  double e = INFINITY;
  for (const auto& p : s.posterior) e = std::min(e, p.essBulk);
  return s.posterior.empty() ? NAN : e;
}

}  // namespace

json stageJson(const StageResult& s) {
  json j = {{"name", s.name},
            {"lipschitz", s.lipschitz.max},
            {"epsilon_x", 2.0 * s.lipschitz.max},
            {"lipschitz_q90", s.lipschitz.q90},
            {"lipschitz_q95", s.lipschitz.q95},
            {"seconds", s.seconds},
            {"sampling_seconds", s.sample->seconds},
            {"divergences", s.sample->divergences()},
            {"max_rhat", maxRhat(s)},
            {"min_ess_bulk", minEssBulk(s)},
            {"gradient_evaluations", s.sample->gradientEvaluations()},
            {"metric", mcmc::metricKindName(s.sample->metric())},
            {"weights", weightsJson(s.weights)},
            {"from_cache", s.fromCache},
            {"k", optionalNumber(s.k)},
            {"lipschitz_mc_sd",
             std::isfinite(s.lipschitz.maxMcSd) ? json(s.lipschitz.maxMcSd) : json(nullptr)},
            {"warnings", s.warnings}};
  if (s.censored()) {
    j["clamp"] = std::max(std::abs(s.lower), std::abs(s.upper));  // the bound on |contribution|
    j["clamp_lower"] = s.lower;
    j["clamp_upper"] = s.upper;
    j["lipschitz_uncensored"] = s.lipschitz.maxRaw;
    j["censored_records"] = s.lipschitz.censoredRecords;
  }
  if (s.reference) j["reference"] = true;
  j["sampling"] = samplingName(s.sampling);
  if (s.exact)
    j["exact_sampler"] = {
        {"cells", s.exact->cells},
        {"proposals", s.exact->proposals},
        {"acceptance", s.exact->proposals > 0 ? static_cast<double>(s.exact->accepted) /
                                                    static_cast<double>(s.exact->proposals)
                                              : 0.0},
        {"acceptance_bound", s.exact->acceptanceBound},
        {"refine_seconds", s.exact->refineSeconds},
        {"rounding_slips", s.exact->roundingSlips}};
  return j;
}

json buildReport(const data::Dataset& dataset, const MechanismResult& result,
                 const RunSettings& settings, const Eigen::VectorXd& synthetic,
                 const std::stop_token& stop) {
  const auto& config = result.config;
  json r;
  r["mechanism"] = mechanismName(config.mechanism);
  r["family"] = models::familyName(dataset.family);
  r["n"] = dataset.size();
  // A seeded run claims nothing (SPEC §0): the label it would carry is given apart.
  r["guarantee"] = guaranteeName(statedGuarantee(result));
  r["guarantee_if_released"] = guaranteeName(guaranteeIfReleased(result));
  r["guarantee_claimed"] = guaranteeName(result.claimed);
  r["release_refused"] = result.refusals;
  // What the label rests on (SPEC §0): "exact-grid", "mcmc-screened", "mcmc"; null for ph.
  r["sampling"] =
      result.sampling == Sampling::none ? json(nullptr) : json(samplingName(result.sampling));
  // The published ε: the mechanism's plus ε_n of a noisy size (SPEC §0), with the split.
  r["epsilon"] = result.epsilon + sizeEpsilon(result);
  r["epsilon_mechanism"] = result.epsilon;
  r["epsilon_size"] = sizeEpsilon(result);
  r["size"] = {
      {"rows", result.size.rowsFor(dataset.size())},
      {"source", privacy::sizeSourceName(result.size.source)},
      {"epsilon", result.size.source == privacy::SizeSource::noisy ? json(result.size.epsilon)
                                                                   : json(nullptr)},
      {"complete_cases_only", dataset.completeCasesOnly}};
  r["epsilon_target"] = optionalNumber(config.epsilon);
  // False for mechanisms whose ε is an outcome (ε_x = 2Δ) whatever the target.
  r["epsilon_target_used"] = usesEpsilonTarget(config.mechanism);
  r["neighbours"] = privacy::neighboursName(result.neighbours);
  r["censoring_interval"] =
      result.clamp ? json{{"lower", result.clamp->lower}, {"upper", result.clamp->upper}}
                   : json(nullptr);
  r["weights_from"] = usesReferenceWeights(config.mechanism)
                          ? json(result.referenceWeights ? "reference" : "data")
                          : json(nullptr);
  r["not_for_release"] = result.notForRelease;
  r["outcome"] = dataset.outcomeName;
  r["covariates"] = json::array();
  for (std::size_t j = 1; j < dataset.designNames.size(); ++j)
    r["covariates"].push_back(dataset.designNames[j]);
  r["tool_version"] = version();

  const StageResult* fin = result.final.get();
  if (fin) {
    r["lipschitz"] = fin->lipschitz.max;
    r["lipschitz_q90"] = fin->lipschitz.q90;
    r["lipschitz_q95"] = fin->lipschitz.q95;
    r["lipschitz_uncensored"] = fin->censored() ? json(fin->lipschitz.maxRaw) : json(nullptr);
    r["weights"] = weightsJson(fin->weights);
    r["posterior"] = posteriorJson(fin->posterior);
    // Each posterior key's design name ("beta[1]": "health=poor"), for readers of the report.
    r["parameter_labels"] = json::object();
    for (std::size_t j = 0; j < fin->posterior.size(); ++j)
      r["parameter_labels"][fin->posterior[j].name] =
          parameterLabel(fin->posterior, fin->labels, j);
  } else {
    r["lipschitz"] = nullptr;
    r["lipschitz_q90"] = nullptr;
    r["lipschitz_q95"] = nullptr;
    r["lipschitz_uncensored"] = nullptr;
    r["weights"] = nullptr;
    r["posterior"] = json::object();
    r["parameter_labels"] = json::object();
  }
  r["k"] = optionalNumber(result.k);
  r["k_band"] = optionalNumber(result.kBand);
  r["downscale"] = optionalNumber(result.downscale);
  r["censored_records"] = optionalCount(result.censoredRecords);
  r["truncated_records"] = optionalCount(result.truncatedRecords);
  r["tuning"] = {{"c", config.c},
                 {"g", config.g},
                 {"radius", config.radius},
                 {"radius_relative", config.radiusRelative},
                 {"k", config.k ? json(*config.k) : json("auto")},
                 {"downscale", config.downscale ? json(*config.downscale) : json("auto")}};
  // Whether the choice of mechanism, ε and tuning came from the confidential data (SPEC §0).
  r["tuning_source"] =
      settings.tunedOnConfidential ? "confidential data (not covered by epsilon)" : "public";

  double seconds = 0;
  long long gradients = 0;
  for (const auto& s : result.stages) {
    if (s->fromCache) continue;
    seconds += s->sample->seconds;
    gradients += s->sample->gradientEvaluations();
  }
  r["sampler"] = {
      {"chains", settings.nuts.chains},
      {"warmup", settings.nuts.warmup},
      {"draws", settings.nuts.draws},
      {"divergences", fin ? fin->sample->divergences() : 0},
      {"tree_depth_saturated", fin ? fin->sample->treeDepthSaturated() : 0},
      {"seconds", seconds},
      {"gradient_evaluations", gradients},
      // A release's seed came from the OS and is written nowhere (SPEC §0).
      {"seed", settings.nuts.seed.isUserSeed() && !settings.release ? json(settings.nuts.seed.lo)
                                                                    : json(nullptr)},
      {"mode", settings.release ? "release" : "reproducible"},
      {"max_tree_depth", settings.nuts.maxTreeDepth},
      // The metric setting, and the metric the final fit's chains used.
      {"metric_setting", mcmc::metricChoiceName(settings.nuts.metric)},
      {"metric", fin ? json(mcmc::metricKindName(fin->sample->metric())) : json(nullptr)},
      // The regression kernels' instruction set (from the CPU, or DPSYNTH_SIMD): a seed
      // reproduces a run bit for bit on machines with the same one.
      {"kernels", models::kernels::isaName(models::kernels::activeIsa())},
      {"step_sizes", json::array()}};
  if (fin)
    for (const auto& c : fin->sample->chains) r["sampler"]["step_sizes"].push_back(c.stepSize);
  r["seconds"] = result.seconds;

  r["stages"] = json::array();
  for (const auto& s : result.stages) r["stages"].push_back(stageJson(*s));

  if (result.ph) {
    const auto& ph = *result.ph;
    r["ph"] = {{"bins", ph.noisy.size()},
               {"lower", ph.edges.front()},
               {"upper", ph.edges.back()},
               {"for_release", ph.forRelease},
               {"noisy_counts", ph.noisy}};
  }

  const auto u = utility::measureUtility(dataset.y, synthetic, stop);
  r["utility"] = {{"mean", u.mean}, {"median", u.median},    {"q15", u.q15},
                  {"q90", u.q90},   {"max_ecdf", u.maxEcdf}, {"avg_ecdf", u.avgEcdf}};
  // The mechanism ignores the covariates (ph): the marginal measures above cannot show it.
  r["utility"]["marginal_only"] = marginalOnly(config.mechanism);
  // Measures that see the covariates; null for a model without covariates.
  r["utility_covariates"] =
      covariateUtilityJson(covariateUtility(dataset, synthetic, result.sourceRows.get(), stop));
  // Empirical disclosure risk of this synthetic dataset, from the confidential data: the report
  // is internal, and these numbers never enter release/.
  r["disclosure_risk"] =
      disclosureRiskJson(dataset, disclosureRisk(dataset, synthetic, result.sourceRows.get(),
                                                 utility::kDefaultRiskTolerance, stop));
  const auto c = utility::describe(dataset.y, stop);
  r["confidential"] = {{"mean", c.mean}, {"median", c.median}, {"q15", c.q15}, {"q90", c.q90}};
  r["warnings"] = result.warnings;
  const Verdict verdict = judge(result, dataset.y, synthetic);
  r["verdict"] = verdictName(verdict);
  r["verdict_reasons"] = verdict.reasons;
  return r;
}

}  // namespace dpsynth::core::pipeline
