#pragma once
/// What fit and run share about a run's inputs and outputs: release vs reproducible seeds, the
/// neighbour relation, reference data for weight functions, and the checks of every output path
/// that happen before any sampling.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/data/dataset.h"
#include "core/pipeline/pipeline.h"

namespace dpsynth::cli {

/// A seed as typed by a user: an unsigned decimal number below 2^64 ("-1", "1e3", "0x10" are
/// refused with std::invalid_argument naming the option).
std::uint64_t parseSeed(const std::string& text, const std::string& option);

/// Release (no seed: a 128-bit seed from the OS, SPEC §0) or reproducible (seed given).
void applySeed(core::pipeline::RunSettings& settings, std::optional<std::uint64_t> seed);

/// The reference dataset of --weights-from / a session's weights_from: read and built with the
/// data's own column choices.
std::shared_ptr<const core::data::Dataset> loadReference(const std::string& file,
                                                         const core::data::DatasetSpec& spec);

/// Refuses (std::invalid_argument, exit 2) before any work: an output that is a folder, ends in
/// '/', lies in a folder that does not exist or is not writable, names the same file as another
/// output, or is one of the inputs (compared by device and inode, not by spelling).
void checkOutputPaths(const std::vector<std::pair<std::string, std::string>>& outputs,
                      const std::vector<std::string>& inputs);

/// The files an earlier release at this sidecar path listed (its "files", in the sidecar's
/// folder) that are regular files and not one of `inputs`: a new release of the same name
/// supersedes them, so that no mix of old and new datasets is left behind.
std::vector<std::string> earlierReleaseFiles(const std::string& sidecar,
                                             const std::vector<std::string>& inputs);

/// One line naming the input columns that will not leave (empty when none).
std::string droppedColumnsLine(const core::data::Dataset& dataset);

}  // namespace dpsynth::cli
