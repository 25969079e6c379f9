#include "core/study/coverage_study.h"

#include <chrono>
#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/data/csv_writer.h"
#include "core/data/sha256.h"
#include "core/infer/da_sampler.h"
#include "core/infer/release_file.h"
#include "core/privacy/perturbed_histogram.h"
#include "core/random/rng.h"
#include "core/study/config_reader.h"
#include "core/study/study_plan.h"
#include "core/utility/utility.h"

namespace dpsynth::core::study {
namespace {

using nlohmann::json;
constexpr const char* kCoverageKind = "da-coverage";

/// Index of a category drawn from probabilities p (summing to 1).
int coverageCategory(const double* p, int count, random::Rng& rng) {
  const double u = random::uniform01(rng);
  double cumulative = 0;
  for (int j = 0; j + 1 < count; ++j) {
    cumulative += p[j];
    if (u < cumulative) return j;
  }
  return count - 1;
}

infer::CodedRecords coverageRecords(const CoverageConfig& config, const Eigen::VectorXd& truth,
                                    random::Rng& rng) {
  const infer::NaiveBayesLayout layout = config.layout();
  const int classes = layout.classCount();
  infer::CodedRecords records(static_cast<std::size_t>(layout.featureCount()) + 1);
  records.reserve(static_cast<std::size_t>(config.records));
  for (int r = 0; r < config.records; ++r) {
    const int y = coverageCategory(truth.data(), classes, rng);
    records.push(y);
    for (int k = 0; k < layout.featureCount(); ++k)
      records.push(coverageCategory(truth.data() + classes + layout.cell(y, k, 0),
                                    layout.levelCount(k), rng));
  }
  return records;
}

}  // namespace

infer::NaiveBayesLayout CoverageConfig::layout() const {
  infer::NaiveBayesLayout layout;
  for (int i = 0; i < classes(); ++i) layout.classes.push_back(std::to_string(i + 1));
  for (std::size_t k = 0; k < levels.size(); ++k) {
    layout.features.push_back("x" + std::to_string(k + 1));
    std::vector<std::string> names;
    for (int j = 0; j < levels[k]; ++j) names.push_back(std::to_string(j + 1));
    layout.levels.push_back(names);
  }
  return layout;
}

std::vector<std::string> CoverageConfig::validate() const {
  std::vector<std::string> problems;
  if (version != 1) problems.push_back("version: must be 1");
  if (records < 1 || records > 10'000'000)
    problems.push_back("records: must be between 1 and 10000000");
  if (classProbabilities.size() < 2)
    problems.push_back("class_probabilities: must list at least 2 classes");
  double sum = 0;
  for (double p : classProbabilities) {
    if (!(p > 0) || !std::isfinite(p))
      problems.push_back("class_probabilities: every value must be > 0");
    sum += p;
  }
  if (std::isfinite(sum) && std::abs(sum - 1.0) > 0.01)
    problems.push_back("class_probabilities: must sum to 1 (within 0.01; they are normalised)");
  if (levels.empty()) problems.push_back("levels: must list at least one feature");
  for (int j : levels)
    if (j < 2 || j > 1000) problems.push_back("levels: every feature needs 2 to 1000 levels");
  if (!(priorAlpha > 0) || !std::isfinite(priorAlpha))
    problems.push_back("prior_alpha: must be > 0");
  if (epsilon.empty()) problems.push_back("epsilon: must list at least one value");
  for (double e : epsilon)
    if (!(e > 0 && e <= 1e6)) problems.push_back("epsilon: every value must be in (0, 1e6]");
  if (replicates < 1 || replicates > 1'000'000)
    problems.push_back("replicates: must be between 1 and 1000000");
  if (chains < 1 || chains > 64) problems.push_back("sampler.chains: must be between 1 and 64");
  if (warmup < 0 || iterations <= warmup)
    problems.push_back("sampler.iterations: must exceed sampler.warmup (>= 0)");
  if (!(level > 0 && level < 1)) problems.push_back("level: must be in (0, 1)");
  for (const auto& [e, values] : reference)
    if (values.size() != classProbabilities.size())
      problems.push_back("reference." + e + ": must hold one coverage per class");
  return problems;
}

bool isCoverageConfigText(const std::string& text) {
  const json top = io::tryParseJson(text).value_or(json());
  if (!top.is_object()) return false;
  const auto it = top.find("kind");
  return it != top.end() && it->is_string() && it->get<std::string>() == kCoverageKind;
}

CoverageConfig coverageConfigFromJson(const std::string& text, const std::string& file) {
  const json top = parseConfigJson(text, file);
  const ConfigReader r(top, file, "");
  r.onlyKeys({"version", "kind", "note", "records", "class_probabilities", "levels", "prior_alpha",
              "epsilon", "replicates", "sampler", "level", "seed", "reference", "reference_name"});
  if (r.string("kind") != kCoverageKind)
    r.fail("kind", std::string("must be \"") + kCoverageKind + "\"");
  CoverageConfig c;
  c.version = static_cast<int>(r.integer("version", 1, 1));
  if (r.find("note")) c.note = r.string("note");
  c.records = static_cast<int>(r.integer("records", 1, 10'000'000));
  c.classProbabilities = r.numbers("class_probabilities");
  c.levels = r.integers<int>("levels", 2, 1000);
  if (const json* a = r.find("prior_alpha")) c.priorAlpha = r.number(*a, "prior_alpha");
  c.epsilon = r.numbers("epsilon");
  c.replicates = static_cast<int>(r.integer("replicates", 1, 1'000'000));
  if (const json* s = r.find("sampler")) {
    const ConfigReader sr(*s, file, "sampler");
    sr.onlyKeys({"iterations", "warmup", "chains"});
    if (sr.find("iterations"))
      c.iterations = static_cast<int>(sr.integer("iterations", 2, 100'000'000));
    if (sr.find("warmup")) c.warmup = static_cast<int>(sr.integer("warmup", 0, 100'000'000));
    if (sr.find("chains")) c.chains = static_cast<int>(sr.integer("chains", 1, 64));
  }
  if (const json* l = r.find("level")) c.level = r.number(*l, "level");
  if (r.find("seed")) c.seed = r.integer<std::uint64_t>("seed");
  if (const json* ref = r.find("reference")) {
    const ConfigReader rr(*ref, file, "reference");
    for (auto it = ref->begin(); it != ref->end(); ++it)
      c.reference[it.key()] = rr.numbers(it.key());
  }
  if (r.find("reference_name")) c.referenceName = r.string("reference_name");
  const auto problems = c.validate();
  if (!problems.empty()) r.fail("", problems.front());
  double sum = 0;
  for (double p : c.classProbabilities) sum += p;
  for (double& p : c.classProbabilities) p /= sum;
  return c;
}

std::string coverageConfigToJson(const CoverageConfig& c) {
  json out{{"version", c.version},
           {"kind", kCoverageKind},
           {"records", c.records},
           {"class_probabilities", c.classProbabilities},
           {"levels", c.levels},
           {"prior_alpha", c.priorAlpha},
           {"epsilon", c.epsilon},
           {"replicates", c.replicates},
           {"sampler", {{"iterations", c.iterations}, {"warmup", c.warmup}, {"chains", c.chains}}},
           {"level", c.level},
           {"seed", c.seed}};
  if (!c.note.empty()) out["note"] = c.note;
  if (!c.reference.empty()) out["reference"] = c.reference;
  if (!c.referenceName.empty()) out["reference_name"] = c.referenceName;
  return out.dump(2) + "\n";
}

std::string coverageConfigHash(const CoverageConfig& config) {
  return data::sha256Hex(coverageConfigToJson(config));
}

StoreIdentity coverageStoreIdentity(const CoverageConfig& config) {
  return {coverageConfigToJson(config), coverageConfigHash(config), coverageHeader(),
          config.replicates};
}

Eigen::VectorXd coverageTruth(const CoverageConfig& config) {
  const infer::NaiveBayesLayout layout = config.layout();
  const int classes = layout.classCount();
  Eigen::VectorXd theta(classes + layout.classCount() * layout.cellsPerClass());
  for (int i = 0; i < classes; ++i)
    theta[i] = config.classProbabilities[static_cast<std::size_t>(i)];
  random::Rng rng = random::makeRng(random::deriveSeed(random::Seed(config.seed), 7));
  for (int i = 0; i < classes; ++i)
    for (int k = 0; k < layout.featureCount(); ++k) {
      const int first = classes + layout.cell(i, k, 0);
      double sum = 0;
      for (int j = 0; j < layout.levelCount(k); ++j)
        sum += theta[first + j] = random::gamma(rng, config.priorAlpha);
      for (int j = 0; j < layout.levelCount(k); ++j) theta[first + j] /= sum;
    }
  return theta;
}

std::vector<std::string> coverageHeader() {
  return {"replicate",
          "epsilon",
          "parameter",
          "truth",
          "mean",
          "lower",
          "upper",
          "covered",
          "mean_acceptance",
          "min_acceptance",
          "acceptance_bound",
          "rhat",
          "seconds"};
}

std::optional<ReplicateRows> runCoverageReplicate(const CoverageConfig& config, int replicate,
                                                  std::stop_token stop) {
  const random::Seed seed(replicateSeed(config.seed, replicate));
  const Eigen::VectorXd truth = coverageTruth(config);
  random::Rng rng = random::makeRng(random::deriveSeed(seed, 1));
  const auto records = coverageRecords(config, truth, rng);
  const infer::NaiveBayesLayout layout = config.layout();
  const double tail = (1.0 - config.level) / 2.0;
  ReplicateRows out;
  out.replicate = replicate;
  for (std::size_t e = 0; e < config.epsilon.size(); ++e) {
    const auto start = std::chrono::steady_clock::now();
    auto bits = privacy::makeSeededSource(random::deriveSeed(seed, 100 + e));
    const infer::NaiveBayesRelease release = infer::makeNaiveBayesRelease(
        layout, records, config.epsilon[e], *bits, /*notForRelease=*/true, config.priorAlpha);
    const infer::NaiveBayesModel model = release.model();
    infer::DaConfig da;
    da.iterations = config.iterations;
    da.warmup = config.warmup;
    da.chains = config.chains;
    da.threads = 1;  // replicates are the parallel unit
    da.seed = random::deriveSeed(seed, 200 + e);
    da.progressEvery = config.iterations;
    const infer::DaResult result = infer::runDataAugmentation(model, da, stop);
    if (result.cancelled) return std::nullopt;
    const auto summary = infer::summarize(model, result);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    for (int i = 0; i < layout.classCount(); ++i) {
      std::vector<double> pooled;
      for (const auto& chain : result.chains)
        for (Eigen::Index d = 0; d < chain.draws.rows(); ++d) pooled.push_back(chain.draws(d, i));
      std::sort(pooled.begin(), pooled.end());
      const double lower = utility::quantileSorted(pooled, tail);
      const double upper = utility::quantileSorted(pooled, 1.0 - tail);
      const double t = truth[i];
      out.rows.push_back(
          {std::to_string(replicate), data::formatNumber(config.epsilon[e]),
           summary[static_cast<std::size_t>(i)].name, data::formatNumber(t),
           data::formatNumber(summary[static_cast<std::size_t>(i)].mean), data::formatNumber(lower),
           data::formatNumber(upper), (lower <= t && t <= upper) ? "1" : "0",
           data::formatNumber(result.meanAcceptance()), data::formatNumber(result.minAcceptance()),
           data::formatNumber(std::exp(-config.epsilon[e])),
           data::formatNumber(summary[static_cast<std::size_t>(i)].rhat),
           data::formatNumber(seconds)});
    }
  }
  return out;
}

StudyOutcome runCoverageStudy(const CoverageConfig& config, const std::vector<int>& replicates,
                              int threads,
                              const std::function<void(const ReplicateRows&)>& onReplicate,
                              const std::function<void(const StudyProgress&)>& onProgress,
                              std::stop_token stop) {
  return runReplicates(
      replicates, threads,
      [&](int r, std::stop_token token) { return runCoverageReplicate(config, r, token); },
      onReplicate, onProgress, stop);
}

}  // namespace dpsynth::core::study
