#pragma once
/// Where an output path really leads, resolved once and used by every check and every writer
/// alike. Checking one spelling and writing another lost users' files: "nope/../data.csv"
/// failed the input check (the system cannot resolve a path through a folder that does not
/// exist) and was then written as "data.csv" after a normalisation on paper; "link/../x.csv"
/// names a file in the link target's parent for the system, but "./x.csv" on paper.
#include <filesystem>
#include <string>

namespace dpsynth::core::data {

/// `path` made absolute as the system resolves it: "." dropped, every symbolic link that exists
/// followed (the last component too, so that an output through a link replaces the file the
/// link points at, not the link), ".." taken from the real folder it follows. The part of the
/// path that does not exist yet is kept as spelled. Throws std::invalid_argument, naming the
/// path, for ".." after a part that does not exist (the system cannot resolve it, and
/// resolving it on paper would name another file).
std::filesystem::path resolvedOutputPath(const std::string& path);

/// Why `resolved` (from resolvedOutputPath) cannot be replaced by a file written beside it and
/// renamed into place, or empty when it can: it exists and is no regular file (a device such as
/// /dev/null, a FIFO, a socket or a folder). Such a target is refused, never replaced.
std::string unreplaceableProblem(const std::filesystem::path& resolved);

}  // namespace dpsynth::core::data
