#pragma once
/// One mechanism's synthetic datasets and their sidecar written at a path the user chose, as a
/// set (the studio's "Export synthetic data"): the paths are checked before anything is drawn,
/// the files are staged and moved into place together, and an earlier release at the same path
/// is superseded only where dpsynth can show it wrote it (pipeline/bundle_ownership.h).
#include <stop_token>
#include <string>
#include <vector>

#include "core/data/dataset.h"
#include "core/models/model.h"
#include "core/pipeline/export.h"
#include "core/pipeline/stage.h"
#include "core/random/seed.h"

namespace dpsynth::core::report {

/// Writes m datasets drawn by pipeline::Synthesizer(dataset, result, spec, seed) at csvPath
/// (names as pipeline::syntheticBundlePaths) with their sidecar, and removes the datasets of an
/// earlier verified release at that path that the new one does not replace. `inputs`: files
/// the run read, never replaced or removed. Throws std::invalid_argument (nothing written or
/// removed) when a path of the bundle holds a file dpsynth cannot show it wrote, for a refused
/// release or for the input data file; data::WriteError naming csvPath's folder for a failed
/// write; exec::Cancelled when `stop` is requested before the files are moved into place.
pipeline::SyntheticBundle exportSyntheticBundle(
    const std::string& csvPath, const data::Dataset& dataset,
    const pipeline::MechanismResult& result, const models::ModelSpec& spec, int m,
    random::Seed seed, const std::vector<std::string>& inputs, const std::stop_token& stop = {});

}  // namespace dpsynth::core::report
