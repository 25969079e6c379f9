#pragma once
/// Which files of an earlier synthetic-data release a new release at the same path may replace.
/// A release at FILE.csv supersedes the datasets its sidecar FILE.csv.json lists, so that no mix
/// of an old and a new release is left behind; but it replaces or removes only what dpsynth can
/// show it wrote: a sidecar of this kind and version (export.h) whose files follow the bundle's
/// naming scheme and still have the SHA-256 the sidecar recorded. Anything else at a path the
/// bundle derives from FILE.csv (the sidecar, "FILE_j.csv") belongs to the user and is refused,
/// never replaced or deleted: a JSON file that merely lists "files" must not delete them.
#include <string>
#include <vector>

namespace dpsynth::core::pipeline {

struct EarlierBundle {
  /// Existing files of the earlier release (as csvPath spells their folder) that the new one
  /// replaces or removes.
  std::vector<std::string> superseded;
  /// Non-empty when a path of the new bundle holds something dpsynth cannot show it wrote: one
  /// sentence naming the file and what is wrong (the caller adds what to do).
  std::string problem;
};

/// Looks at what lies at the paths of a bundle of m datasets at csvPath (reads, never writes).
/// csvPath itself, when m = 1, is the file the user named and may be replaced whatever it holds;
/// every other existing path of the new bundle must belong to a verified earlier release. Files
/// that are one of `inputs` (same device and inode) are never superseded.
EarlierBundle earlierBundle(const std::string& csvPath, int m,
                            const std::vector<std::string>& inputs);

}  // namespace dpsynth::core::pipeline
