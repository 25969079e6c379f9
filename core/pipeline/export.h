#pragma once
/// The synthetic-data bundle: CSV file(s) with the input's header (covariates copied, outcome
/// synthesized) and a JSON sidecar FILE.csv.json with what may be published about the release.
/// Weights and per-record Lipschitz bounds are confidential and never enter the bundle.
#include <Eigen/Dense>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/data/dataset.h"
#include "core/pipeline/stage.h"

namespace dpsynth::core::pipeline {

struct SyntheticBundle {
  std::vector<std::string> csvFiles;  ///< one per dataset
  std::string sidecar;                ///< csvPath + ".json"
};

/// Sidecar contents: mechanism, family, epsilon, guarantee, composition (m datasets spend
/// m·epsilon under basic composition), public tuning settings (data-chosen values as "auto"),
/// tool version, and "not_for_release" for seeded perturbed-histogram noise. The seed is
/// withheld (null) unless the output is not for release anyway.
nlohmann::json sidecarJson(const data::Dataset& dataset, const MechanismResult& result,
                           int datasets, std::uint64_t seed,
                           const std::vector<std::string>& files);

/// Writes synthetic datasets (from synthesize()) next to each other: for one dataset exactly
/// csvPath, for m > 1 "stem_1.csv" … "stem_m.csv"; then the sidecar csvPath + ".json". Every file
/// is written atomically; if any write fails, the files this call already created are removed
/// and the error is rethrown. Refuses (std::invalid_argument) to write over the input data file.
SyntheticBundle writeSyntheticBundle(const std::string& csvPath, const data::Dataset& dataset,
                                     const MechanismResult& result,
                                     const std::vector<Eigen::VectorXd>& synthetic,
                                     std::uint64_t seed);

/// The rows of one synthetic dataset as text: the input rows with the outcome column replaced.
std::vector<std::vector<std::string>> syntheticRows(const data::Dataset& dataset,
                                                    const Eigen::VectorXd& synthetic);

}  // namespace dpsynth::core::pipeline
