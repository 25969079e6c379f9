#pragma once
/// A set of output files, possibly in several folders, that replaces its targets together or not
/// at all. Each file is written into a hidden staging folder beside its target (same file
/// system, so moving it is a rename) and moved into place by commit(). On any failure, or when
/// the object is destroyed without commit(), nothing of the new set remains and every file it
/// replaced or removed is back as it was.
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace dpsynth::core::report {

namespace detail {
class HiddenFolder;
}

/// What a staged file holds. Confidential files (a report with the data's statistics) are
/// staged, and the files they replace set aside, in a folder of their own: a run killed while
/// staging never leaves an earlier report inside a folder beside the released files.
enum class Sensitivity { publishable, confidential };

class StagedFiles {
 public:
  StagedFiles();
  ~StagedFiles();
  StagedFiles(const StagedFiles&) = delete;
  StagedFiles& operator=(const StagedFiles&) = delete;

  /// Registers `target` as part of the set and returns where to write it before commit(): a
  /// path with the same file name in a hidden folder beside the target (".dpsynth-stage-…", or
  /// ".dpsynth-confidential-…" for confidential files), locked while this object lives; stale
  /// staging folders of killed runs are removed (hidden_folder.h). Throws std::runtime_error
  /// when that folder cannot be created.
  std::string stage(const std::string& target, Sensitivity sensitivity = Sensitivity::publishable);
  /// Where `target` would be staged, without adding it to the set (for writers that derive
  /// several file names from one path).
  std::string stagingPath(const std::string& target,
                          Sensitivity sensitivity = Sensitivity::publishable);
  /// Files of an earlier set that the new set supersedes (e.g. dataset 4 of an earlier release
  /// of 4 when this one has 3): removed by commit(), restored if it fails.
  void supersede(const std::string& target, Sensitivity sensitivity = Sensitivity::publishable);

  /// Flushes the staging folders (data::syncFolder), then moves every staged file into place
  /// and removes the superseded ones. All or nothing: on failure the folders are left as they
  /// were and data::WriteError names the target. Returns the final paths in the order they
  /// were staged.
  ///
  /// The moves happen under an exclusive flock(2) on every target folder, held by one dpsynth
  /// at a time: two runs writing the same names into one folder commit one after the other,
  /// never interleaved. `underLock` runs first under those locks, so that what it decides (the
  /// files of an earlier set to supersede(), found by reading the folder) holds when the moves
  /// are made; whatever it throws leaves everything as it was.
  std::vector<std::string> commit(const std::function<void()>& underLock = {});

  /// The path the user asked for, for a path inside one of the staging folders (the target of
  /// that name); other paths unchanged. Messages name it, never a hidden staging folder.
  std::string userPath(const std::string& path) const;

 private:
  using Key = std::pair<std::filesystem::path, Sensitivity>;  ///< target folder, sensitivity
  std::filesystem::path stagingFor(const Key& key);

  std::map<Key, std::unique_ptr<detail::HiddenFolder>> staging_;
  std::vector<Key> targets_;  ///< (full target path, sensitivity)
  std::vector<Key> superseded_;
  bool committed_ = false;
};

}  // namespace dpsynth::core::report
