#pragma once
/// A set of output files, possibly in several folders, that replaces its targets together or not
/// at all. Each file is written into a hidden staging folder beside its target (same file
/// system, so moving it is a rename) and moved into place by commit(). On any failure, or when
/// the object is destroyed without commit(), nothing of the new set remains and every file it
/// replaced or removed is back as it was.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace dpsynth::core::report {

class StagedFiles {
 public:
  StagedFiles() = default;
  ~StagedFiles();
  StagedFiles(const StagedFiles&) = delete;
  StagedFiles& operator=(const StagedFiles&) = delete;

  /// Registers `target` as part of the set and returns where to write it before commit(): a
  /// path with the same file name in a hidden folder beside the target. Throws
  /// std::runtime_error when that folder cannot be created.
  std::string stage(const std::string& target);
  /// Where `target` would be staged, without adding it to the set (for writers that derive
  /// several file names from one path).
  std::string stagingPath(const std::string& target);
  /// Files of an earlier set that the new set supersedes (e.g. dataset 4 of an earlier release
  /// of 4 when this one has 3): removed by commit(), restored if it fails.
  void supersede(const std::string& target);

  /// Moves every staged file into place and removes the superseded ones. All or nothing: on
  /// failure the folders are left as they were and std::runtime_error is thrown. Returns the
  /// final paths in the order they were staged.
  std::vector<std::string> commit();

 private:
  std::filesystem::path stagingFor(const std::filesystem::path& folder);

  std::map<std::filesystem::path, std::filesystem::path> staging_;  ///< folder -> staging folder
  std::vector<std::filesystem::path> targets_;
  std::vector<std::filesystem::path> superseded_;
  bool committed_ = false;
};

}  // namespace dpsynth::core::report
