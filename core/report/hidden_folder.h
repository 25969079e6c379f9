#pragma once
/// A fresh hidden folder beside the outputs, for files that must appear all together or not at
/// all (StagedFolder, StagedFiles).
#include <filesystem>
#include <string>

namespace dpsynth::core::report::detail {

/// Creates parent/prefix + 8 random hex digits (a new name each time) and returns it. Throws
/// std::runtime_error when no folder can be created there.
std::filesystem::path createHiddenFolder(const std::filesystem::path& parent,
                                         const std::string& prefix);

}  // namespace dpsynth::core::report::detail
