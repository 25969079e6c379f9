#include "core/pipeline/export.h"

#include <cmath>
#include <filesystem>
#include <stdexcept>

#include "core/data/csv_writer.h"
#include "core/version.h"

namespace dpsynth::core::pipeline {

namespace fs = std::filesystem;
using nlohmann::json;

std::vector<std::vector<std::string>> syntheticRows(const data::Dataset& dataset,
                                                    const Eigen::VectorXd& synthetic) {
  if (static_cast<std::size_t>(synthetic.size()) != dataset.source.rows.size())
    throw std::invalid_argument("synthetic data has a different number of records than the input");
  const std::size_t col = dataset.source.columnIndex(dataset.outcomeName);
  const bool integer = models::isCountFamily(dataset.family);
  std::vector<std::vector<std::string>> rows = dataset.source.rows;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const double v = synthetic[static_cast<Eigen::Index>(i)];
    rows[i][col] = data::formatNumber(integer ? std::round(v) : v);
  }
  return rows;
}

json sidecarJson(const data::Dataset& dataset, const MechanismResult& result, int datasets,
                 std::uint64_t seed, const std::vector<std::string>& files) {
  const auto& c = result.config;
  const bool seededNoise = result.ph && !result.ph->forRelease;
  json j;
  j["mechanism"] = mechanismName(c.mechanism);
  j["family"] = models::familyName(dataset.family);
  j["outcome"] = dataset.outcomeName;
  j["n"] = dataset.size();
  j["guarantee"] = guaranteeName(result.guarantee);
  j["epsilon"] = result.epsilon;
  j["epsilon_meaning"] =
      result.guarantee == Guarantee::DP
          ? "strict epsilon-differential privacy for each released dataset"
          : result.guarantee == Guarantee::aDP
                ? "asymptotic differential privacy: epsilon_x = 2 x the Lipschitz bound of the "
                  "weighted pseudo-likelihood on this database"
                : "no formal privacy guarantee (unweighted synthesizer); epsilon_x shown for "
                  "reference only";
  j["composition"] = {
      {"datasets", datasets},
      {"epsilon_per_dataset", result.epsilon},
      {"epsilon_total", datasets * result.epsilon},
      {"note", "Releasing " + std::to_string(datasets) +
                   " synthetic dataset(s) spends " + std::to_string(datasets) +
                   " x epsilon under basic composition."}};
  // Settings chosen automatically from the data (k = auto, downscale = auto) are functions of
  // the confidential Lipschitz bounds: the bundle says "auto", the internal report has values.
  auto chosen = [](const std::optional<double>& asked, const std::optional<double>& used) {
    if (!used) return json(nullptr);
    return asked ? json(*asked) : json("auto");
  };
  j["tuning"] = {{"c", c.c},
                 {"g", c.g},
                 {"k", chosen(c.k, result.k)},
                 {"downscale", chosen(c.downscale, result.downscale)},
                 {"epsilon_target", c.epsilon ? json(*c.epsilon) : json(nullptr)}};
  if (c.mechanism == Mechanism::cw || c.mechanism == Mechanism::cwFinal)
    j["tuning"]["radius"] = {{"r", c.radius}, {"relative", c.radiusRelative}};
  if (result.ph) {
    j["tuning"]["bins"] = result.ph->noisy.size();
    j["tuning"]["lower"] = result.ph->edges.front();
    j["tuning"]["upper"] = result.ph->edges.back();
  }
  j["not_for_release"] = seededNoise;
  if (seededNoise)
    j["release_note"] =
        "NOT FOR RELEASE: the perturbed-histogram noise was seeded (reproducible mode for "
        "studies and tests)";
  // The guarantee assumes the sampler's randomness is secret: with the seed, anyone holding all
  // records but one could replay the run for each candidate value. The seed stays in the
  // internal report and the session; it is published only for seeded, not-for-release output.
  j["seed"] = seededNoise ? json(seed) : json(nullptr);
  if (!seededNoise)
    j["seed_note"] = "withheld: publishing the random seed would void the privacy guarantee";
  j["files"] = files;
  j["tool"] = "dpsynth";
  j["tool_version"] = version();
  return j;
}

SyntheticBundle writeSyntheticBundle(const std::string& csvPath, const data::Dataset& dataset,
                                     const MechanismResult& result,
                                     const std::vector<Eigen::VectorXd>& synthetic,
                                     std::uint64_t seed) {
  if (synthetic.empty()) throw std::invalid_argument("no synthetic datasets to write");
  std::error_code ec;
  if (!dataset.file.empty() && fs::exists(csvPath) &&
      fs::equivalent(csvPath, dataset.file, ec)) {
    throw std::invalid_argument("refusing to overwrite the input data file " + dataset.file +
                                ": choose another output path");
  }
  SyntheticBundle bundle;
  const fs::path base(csvPath);
  if (synthetic.size() == 1) {
    bundle.csvFiles.push_back(csvPath);
  } else {
    for (std::size_t j = 0; j < synthetic.size(); ++j) {
      fs::path p = base.parent_path() /
                   (base.stem().string() + "_" + std::to_string(j + 1) + base.extension().string());
      bundle.csvFiles.push_back(p.string());
    }
  }
  bundle.sidecar = csvPath + ".json";

  std::vector<std::string> created;
  try {
    for (std::size_t j = 0; j < synthetic.size(); ++j) {
      const bool existed = fs::exists(bundle.csvFiles[j]);
      data::writeCsvAtomic(bundle.csvFiles[j], dataset.source.header,
                           syntheticRows(dataset, synthetic[j]), dataset.source.delimiter);
      if (!existed) created.push_back(bundle.csvFiles[j]);
    }
    std::vector<std::string> names;
    for (const auto& f : bundle.csvFiles) names.push_back(fs::path(f).filename().string());
    const json side =
        sidecarJson(dataset, result, static_cast<int>(synthetic.size()), seed, names);
    data::writeTextAtomic(bundle.sidecar, side.dump(2) + "\n");
  } catch (...) {
    for (const auto& f : created) fs::remove(f, ec);
    throw;
  }
  return bundle;
}

}  // namespace dpsynth::core::pipeline
