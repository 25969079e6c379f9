#include "core/pipeline/export.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <stdexcept>

#include "core/data/csv_writer.h"
#include "core/data/sha256.h"
#include "core/pipeline/bundle_writer.h"
#include "core/pipeline/release_claim.h"
#include "core/privacy/size_release.h"
#include "core/random/rng.h"
#include "core/version.h"

namespace dpsynth::core::pipeline {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

bool isReleased(const data::Dataset& dataset, const std::string& column) {
  return column == dataset.outcomeName ||
         std::find(dataset.covariateNames.begin(), dataset.covariateNames.end(), column) !=
             dataset.covariateNames.end();
}

/// Item by item what the covariates are (SPEC §0): public by the user's declaration, copied as
/// they are, outside the guarantee.
std::string covariatesNote(const data::Dataset& dataset, const MechanismResult& result) {
  if (dataset.covariateNames.empty()) return "no covariates: the file holds the outcome only";
  std::string note =
      "the covariates are public by the user's declaration and outside the privacy guarantee, "
      "which covers the synthesized outcome only; they are copied from input records as they "
      "are";
  // Whether rows were sampled says whether the published size equals n, so where n is
  // confidential the wording may not follow it (SPEC §0): it is the same for every noisy size.
  const bool confidentialSize =
      privacy::sizeIsConfidential(result.neighbours, dataset.completeCasesOnly);
  if (confidentialSize || result.size.rowsFor(dataset.size()) != dataset.size() ||
      result.sourceRows)
    note +=
        " (here from a random sample of the input's records, some repeated when the "
        "published size exceeds the input's)";
  if (confidentialSize)
    note +=
        "; copied covariate values can show how many records the input holds (for example "
        "the number of distinct rows), so the size is protected only as far as the "
        "covariates are public anyway";
  return note;
}

std::string epsilonMeaning(const MechanismResult& result) {
  if (result.notForRelease)
    return "no privacy guarantee: NOT FOR RELEASE. A reproducible run (a seed was given) for "
           "studies and tests: anyone with the seed and all records but one can replay it. "
           "guarantee_if_released is what the same mechanism gives with secret randomness";
  switch (result.guarantee) {
    case Guarantee::DP:
      return "strict epsilon-differential privacy for each released dataset, under the stated "
             "neighbour relation";
    case Guarantee::aDP:
      return "asymptotic (local) differential privacy: epsilon is epsilon_x = 2 x the Lipschitz "
             "bound of the weighted pseudo-likelihood on this database, rounded up to two "
             "decimals. It is itself computed from the confidential data (local and "
             "data-dependent) and bounds the effect of removing one of this database's records; "
             "it is not a worst-case guarantee over all databases";
    case Guarantee::none:
      break;
  }
  if (result.claimed == Guarantee::DP)
    return "no privacy guarantee: the censored fit failed its sampling diagnostics, so its "
           "draws cannot be taken as exact and the DP argument does not apply";
  return "no formal privacy guarantee (unweighted synthesizer)";
}

}  // namespace

std::vector<std::string> releasedColumns(const data::Dataset& dataset) {
  std::vector<std::string> out;
  for (const auto& h : dataset.source.header)
    if (isReleased(dataset, h)) out.push_back(h);
  return out;
}

std::vector<std::string> droppedColumns(const data::Dataset& dataset) {
  std::vector<std::string> out;
  for (const auto& h : dataset.source.header)
    if (!isReleased(dataset, h)) out.push_back(h);
  return out;
}

std::vector<std::size_t> syntheticRowOrder(std::size_t n, random::Seed seed, int j) {
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = i;
  random::Rng rng = random::makeRng(seed, 2000 + static_cast<std::uint64_t>(j));
  for (std::size_t i = n; i > 1; --i) {  // Fisher–Yates
    const auto k = static_cast<std::size_t>(random::uniformIndex(rng, i));
    std::swap(order[i - 1], order[k]);
  }
  return order;
}

double roundUpEpsilon(double epsilonX) {
  if (!std::isfinite(epsilonX)) return epsilonX;
  // A tiny tolerance keeps an exact 1.23 from becoming 1.24 through binary rounding of 123.0.
  // Adding +0.0 turns the -0.0 that ε_x = 0 (an empty database) rounds to into 0.
  return std::ceil(epsilonX * 100.0 - 1e-9) / 100.0 + 0.0;
}

void checkSourceRows(const data::Dataset& dataset, std::size_t records,
                     const std::vector<std::size_t>* sourceRows) {
  // An empty intercept-only database (its count confidential: SPEC §0) releases ñ records that
  // copy nothing from it, so they need no source rows.
  const bool fromNothing = dataset.size() == 0 && dataset.interceptOnly();
  if (sourceRows ? sourceRows->size() != records : records != dataset.source.size() && !fromNothing)
    throw std::invalid_argument(
        "synthetic data has a different number of records than the input and no source rows");
  if (sourceRows)
    for (std::size_t i : *sourceRows)
      if (i >= dataset.source.size())
        throw std::invalid_argument("synthetic data: a source row is outside the input");
}

std::vector<std::vector<std::string>> syntheticRows(const data::Dataset& dataset,
                                                    const Eigen::VectorXd& synthetic,
                                                    random::Seed seed, int j,
                                                    const std::vector<std::size_t>* sourceRows) {
  const std::size_t n = static_cast<std::size_t>(synthetic.size());
  checkSourceRows(dataset, n, sourceRows);
  std::vector<std::size_t> columns;
  for (std::size_t c = 0; c < dataset.source.header.size(); ++c)
    if (isReleased(dataset, dataset.source.header[c])) columns.push_back(c);
  const std::size_t outcome = dataset.source.columnIndex(dataset.outcomeName);
  const bool integer = models::isCountFamily(dataset.family);
  const data::SourceCells cells(dataset);
  std::vector<std::vector<std::string>> rows;
  rows.reserve(n);
  for (std::size_t i : syntheticRowOrder(n, seed, j)) {
    const std::size_t input = sourceRows ? (*sourceRows)[i] : i;
    std::vector<std::string> row;
    row.reserve(columns.size());
    for (std::size_t c : columns) {
      if (c == outcome) {
        const double v = synthetic[static_cast<Eigen::Index>(i)];
        row.push_back(data::formatNumber(integer ? std::round(v) : v));
      } else {
        row.emplace_back(cells(input, c).view());
      }
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string refusalMessage(const MechanismResult& result) {
  std::string out = mechanismName(result.config.mechanism) + ": release refused: ";
  for (std::size_t i = 0; i < result.refusals.size(); ++i)
    out += (i ? "; " : "") + result.refusals[i];
  return out;
}

json sidecarJson(const data::Dataset& dataset, const MechanismResult& result, int datasets,
                 random::Seed seed, const std::vector<std::string>& files,
                 const std::vector<std::string>& fileDigests) {
  if (fileDigests.size() != files.size())
    throw std::invalid_argument("sidecar: one digest per file is required");
  const auto& c = result.config;
  const bool ph = result.ph.has_value();
  json j;
  j["kind"] = kSidecarKind;
  j["version"] = kSidecarVersion;
  j["mechanism"] = mechanismName(c.mechanism);
  j["family"] = models::familyName(dataset.family);
  j["outcome"] = dataset.outcomeName;
  j["columns"] = releasedColumns(dataset);
  j["columns_note"] =
      "the outcome is synthetic; the listed covariates were declared public and are copied "
      "from the input as they are; rows are in a random order";
  j["covariates_note"] = covariatesNote(dataset, result);
  // CSV files keep the input's delimiter (a semicolon file stays one for its spreadsheet):
  // readers of the sidecar need not guess it.
  if (!files.empty() && std::all_of(files.begin(), files.end(), [](const std::string& f) {
        return f.size() >= 4 && f.compare(f.size() - 4, 4, ".csv") == 0;
      })) {
    j["delimiter"] = std::string(1, dataset.source.delimiter);
  }
  // The published size (SPEC §0): never the confidential n under add-remove or after dropping
  // records with missing values.
  j["n"] = result.size.rowsFor(dataset.size());
  j["n_source"] = privacy::sizeSourceName(result.size.source);
  j["n_note"] = result.size.meaning();
  const Guarantee stated = statedGuarantee(result);
  j["guarantee"] = guaranteeName(stated);
  // A seeded run claims nothing (SPEC §0); what it would claim with secret randomness is given
  // apart, so that studies can still read it.
  if (result.notForRelease) j["guarantee_if_released"] = guaranteeName(guaranteeIfReleased(result));
  const auto published = publishedEpsilon(result);
  const json epsilon = published && stated != Guarantee::none ? json(*published) : json(nullptr);
  j["epsilon"] = epsilon;
  if (result.notForRelease) j["epsilon_if_released"] = published ? json(*published) : json(nullptr);
  if (published && sizeEpsilon(result) > 0)
    j["epsilon_split"] = {{"synthesis", *mechanismEpsilon(result)},
                          {"size", sizeEpsilon(result)},
                          {"note",
                           "epsilon = synthesis epsilon + epsilon_n of the noisy number "
                           "of records (sequential composition)"}};
  j["epsilon_local"] = guaranteeIfReleased(result) == Guarantee::aDP;
  j["epsilon_meaning"] = epsilonMeaning(result);
  j["sampling"] =
      result.sampling == Sampling::none ? json(nullptr) : json(samplingName(result.sampling));
  j["neighbours"] = privacy::neighboursName(result.neighbours);
  j["neighbours_meaning"] = privacy::neighboursMeaning(result.neighbours);
  if (result.clamp)
    j["censoring_interval"] = {{"lower", result.clamp->lower}, {"upper", result.clamp->upper}};
  if (usesReferenceWeights(c.mechanism))
    j["weights_from"] = result.referenceWeights ? "reference data" : "the released data";
  if (epsilon.is_number()) {
    const double perDataset = *mechanismEpsilon(result);
    const double size = sizeEpsilon(result);
    json composition = {
        {"datasets", datasets},
        {"epsilon_per_dataset", ph ? json(nullptr) : json(perDataset)},
        {"epsilon_total", *totalEpsilon(result, datasets)},
        {"note", ph ? "All " + std::to_string(datasets) +
                          " synthetic dataset(s) are post-processing of one noisy histogram "
                          "and together spend epsilon once."
                    : "Releasing " + std::to_string(datasets) + " synthetic dataset(s) spends " +
                          std::to_string(datasets) + " x epsilon under basic composition."}};
    if (size > 0) {
      composition["epsilon_size"] = size;
      composition["note"] =
          ph ? "All " + std::to_string(datasets) +
                   " synthetic dataset(s) are post-processing of one noisy histogram and one "
                   "noisy number of records: together they spend epsilon (histogram plus "
                   "epsilon_size) once."
             : "Releasing " + std::to_string(datasets) + " synthetic dataset(s) spends " +
                   std::to_string(datasets) +
                   " x epsilon_per_dataset under basic composition, plus epsilon_size once for "
                   "the noisy number of records they share.";
    }
    j["composition"] = composition;
  }
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
  if (ph) {
    j["tuning"]["bins"] = result.ph->noisy.size();
    j["tuning"]["lower"] = result.ph->edges.front();
    j["tuning"]["upper"] = result.ph->edges.back();
    j["tuning"]["l1_sensitivity"] = result.ph->sensitivity;
  }
  // Files without a stated DP or aDP label (a seeded run, the unweighted fit) are not for
  // release, whatever folder they were written to (SPEC §0).
  j["not_for_release"] = result.notForRelease || !releasable(result);
  if (result.notForRelease) {
    j["release_note"] =
        "NOT FOR RELEASE: a reproducible run (a seed was given), for studies and tests. Anyone "
        "with the seed and all records but one can replay it, so no privacy guarantee holds";
    j["seed"] = seed.isUserSeed() ? json(seed.lo) : json(nullptr);
  } else {
    // The guarantee assumes the randomness is secret: the release's seed came from the OS and
    // is written nowhere.
    j["seed"] = nullptr;
    if (releasable(result)) {
      j["seed_note"] = "a release: its randomness came from the operating system and was not kept";
    } else {
      j["release_note"] =
          "NOT FOR RELEASE: this mechanism states no privacy guarantee (the unweighted "
          "synthesizer); for comparison inside the agency only";
      j["seed_note"] = "its randomness came from the operating system and was not kept";
    }
  }
  j["files"] = files;
  j["files_sha256"] = fileDigests;
  j["tool"] = "dpsynth";
  j["tool_version"] = version();
  return j;
}

SyntheticBundle syntheticBundlePaths(const std::string& csvPath, int m) {
  SyntheticBundle bundle;
  const fs::path base(csvPath);
  if (m == 1) {
    bundle.csvFiles.push_back(csvPath);
  } else {
    for (int j = 0; j < m; ++j) {
      fs::path p = base.parent_path() /
                   (base.stem().string() + "_" + std::to_string(j + 1) + base.extension().string());
      bundle.csvFiles.push_back(p.string());
    }
  }
  bundle.sidecar = csvPath + ".json";
  return bundle;
}

void checkSyntheticVolume(std::uint64_t m, std::uint64_t n, std::uint64_t mechanisms,
                          const std::string& setting) {
  // One dataset per mechanism is always allowed (the data themselves are that large); the bound
  // is on m. Compared by division: m × n × mechanisms may not fit in 64 bits.
  const std::uint64_t perDataset =
      std::max<std::uint64_t>(n, 1) * std::max<std::uint64_t>(mechanisms, 1);
  if (m <= 1 || m <= kMaxSyntheticRecords / perDataset) return;
  const std::uint64_t most = std::max<std::uint64_t>(1, kMaxSyntheticRecords / perDataset);
  throw std::invalid_argument(
      setting + " " + std::to_string(m) + " asks for " + std::to_string(m) +
      " synthetic datasets of " + std::to_string(n) + " records" +
      (mechanisms > 1 ? " for each of " + std::to_string(mechanisms) + " mechanisms" : "") +
      "; one run writes at most " + std::to_string(kMaxSyntheticRecords) +
      " synthetic records (about a gigabyte of CSV): use " + setting + " " + std::to_string(most) +
      " or less");
}

std::optional<std::uint64_t> rowsKnownBeforeRun(const RunSettings& settings,
                                                const data::Dataset& dataset) {
  if (settings.size.declaredRows) return *settings.size.declaredRows;
  if (privacy::sizeIsConfidential(settings.neighbours, dataset.completeCasesOnly))
    return std::nullopt;
  return dataset.size();
}

SyntheticBundle writeSyntheticBundle(const std::string& csvPath, const data::Dataset& dataset,
                                     const MechanismResult& result,
                                     const std::vector<Eigen::VectorXd>& synthetic,
                                     random::Seed seed) {
  if (synthetic.empty()) throw std::invalid_argument("no synthetic datasets to write");
  SyntheticBundleWriter writer(csvPath, dataset, result, static_cast<int>(synthetic.size()), seed);
  for (const auto& y : synthetic) writer.add(y);
  return writer.finish();
}

}  // namespace dpsynth::core::pipeline
