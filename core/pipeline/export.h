#pragma once
/// The synthetic-data bundle: CSV file(s) holding the synthesized outcome and the covariates the
/// user declared public, nothing else, rows in a random order (SPEC §0), and a JSON sidecar
/// FILE.csv.json with what may be published about the release. Weights, per-record Lipschitz
/// bounds, data-chosen settings and the seed of a release never enter the bundle.
#include <Eigen/Dense>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/data/dataset.h"
#include "core/pipeline/pipeline.h"
#include "core/pipeline/stage.h"
#include "core/random/seed.h"

namespace dpsynth::core::pipeline {

struct SyntheticBundle {
  std::vector<std::string> csvFiles;  ///< one per dataset
  std::string sidecar;                ///< csvPath + ".json"
};

/// The columns a synthetic file holds, in the input's order: the outcome and the declared
/// covariates.
std::vector<std::string> releasedColumns(const data::Dataset& dataset);
/// The input columns that never leave (everything else), in the input's order.
std::vector<std::string> droppedColumns(const data::Dataset& dataset);

/// The row order of synthetic dataset j (0-based): a uniformly random permutation of 0..n-1 from
/// makeRng(seed, 2000 + j), so that the input's order (a file sorted by salary, say) says
/// nothing. With a release's OS seed nobody can undo it.
std::vector<std::size_t> syntheticRowOrder(std::size_t n, random::Seed seed, int j);

/// aDP's ε_x rounded UP to two decimals: the published figure is a coarse, conservative view of
/// a statistic of the data (SPEC §0).
double roundUpEpsilon(double epsilonX);

/// What a sidecar says it is: "kind" and "version" keys, so that a JSON file that merely has a
/// "files" array is never taken for one (bundle_ownership.h).
inline constexpr const char* kSidecarKind = "synthetic-data-sidecar";
inline constexpr int kSidecarVersion = 1;

/// Sidecar contents: mechanism, family, columns (the covariates public by declaration and
/// outside the guarantee), the published size "n" and where it comes from ("n_source": noisy,
/// declared or public under replace-one; never the confidential n, SPEC §0), guarantee and its
/// ε (aDP: ε_x rounded up, said to be local and data-dependent; plus ε_n of a noisy size, with
/// the split), the neighbour relation and the clamp interval it implies, composition (m
/// posterior datasets spend m·ε; m datasets from one perturbed histogram spend ε once; ε_n
/// once), public tuning settings (data-chosen values as "auto"), where the weights came from,
/// tool version; the bundle's file names ("files") and the SHA-256 of each, in the same order
/// ("files_sha256"): a later release at the same path replaces those files only while they are
/// still the bytes written here. A seeded run states guarantee "none" and "not_for_release"
/// (with "guarantee_if_released" and "epsilon_if_released"). The seed of a release is never
/// written.
nlohmann::json sidecarJson(const data::Dataset& dataset, const MechanismResult& result,
                           int datasets, random::Seed seed, const std::vector<std::string>& files,
                           const std::vector<std::string>& fileDigests);

/// The most synthetic records one run writes, over all its datasets and mechanisms (m × n per
/// mechanism released): about a gigabyte of CSV. A session asking for 100,000 datasets left
/// 8,767 files and hours of work behind; past this bound the request is a mistake, not a
/// release.
inline constexpr std::uint64_t kMaxSyntheticRecords = 100'000'000;

/// Throws std::invalid_argument naming `setting` (the front end's name for m) when m datasets of
/// n records for `mechanisms` mechanisms exceed kMaxSyntheticRecords; checked before any work.
void checkSyntheticVolume(std::uint64_t m, std::uint64_t n, std::uint64_t mechanisms,
                          const std::string& setting);
/// The records per synthetic dataset when they are known before the run: the declared size,
/// or n where it is public. nullopt where n is confidential and none is declared: the noisy
/// size is drawn in the run, and a check against n would refuse or release depending on one
/// record, and print n (SPEC §0). checkSyntheticVolume then takes the published size after the
/// run.
std::optional<std::uint64_t> rowsKnownBeforeRun(const RunSettings& settings,
                                                const data::Dataset& dataset);

/// The paths writeSyntheticBundle writes for m datasets (no I/O): the CSV files, then the
/// sidecar.
SyntheticBundle syntheticBundlePaths(const std::string& csvPath, int m);

/// Writes synthetic datasets (from synthesize()) next to each other: for one dataset exactly
/// csvPath, for m > 1 "stem_1.csv" … "stem_m.csv"; then the sidecar csvPath + ".json" with the
/// SHA-256 of the bytes written to each. Every file is written atomically; if any write fails, the
/// files this call already created are removed and the error is rethrown. Refuses
/// (std::invalid_argument) to write over the input data file, and to write a mechanism whose
/// release was refused (result.refusals).
SyntheticBundle writeSyntheticBundle(const std::string& csvPath, const data::Dataset& dataset,
                                     const MechanismResult& result,
                                     const std::vector<Eigen::VectorXd>& synthetic,
                                     random::Seed seed);

/// The rows of synthetic dataset j as text, in the order of releasedColumns(): the synthesized
/// outcome and the record's declared covariates, rows permuted by syntheticRowOrder(rows, seed,
/// j). Record r takes the covariates of input row (*sourceRows)[r], or of row r without source
/// rows (then synthetic must have one value per input row).
/// Throws std::invalid_argument unless `records` synthetic records can take their covariates
/// from the input: one source row each, all inside the input, or (without source rows) one
/// record per input row.
void checkSourceRows(const data::Dataset& dataset, std::size_t records,
                     const std::vector<std::size_t>* sourceRows);

std::vector<std::vector<std::string>> syntheticRows(
    const data::Dataset& dataset, const Eigen::VectorXd& synthetic, random::Seed seed, int j,
    const std::vector<std::size_t>* sourceRows = nullptr);

/// One line naming the refusal reasons, for messages ("censor-uw: stage ...; ...").
std::string refusalMessage(const MechanismResult& result);

}  // namespace dpsynth::core::pipeline
