#pragma once
/// A set of files that appears in a folder all together or not at all. Files are written into a
/// hidden staging folder inside the target (same file system, so moving them is a rename) and
/// moved into place by commit(); if a move fails, the files already moved are taken back and
/// the files they replaced are restored.
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace dpsynth::core::report {

namespace detail {
class HiddenFolder;
}

class StagedFolder {
 public:
  /// Creates `target` if it is missing and a fresh ".dpsynth-export-XXXXXXXX" folder inside it,
  /// locked while this object lives; stale staging folders of killed runs are removed
  /// (hidden_folder.h). Throws std::invalid_argument when target exists and is not a folder,
  /// data::WriteError when a folder cannot be created.
  explicit StagedFolder(const std::string& target);
  /// Removes the staging folder with whatever it still holds, and the target folder when this
  /// object created it and nothing was committed into it.
  ~StagedFolder();
  StagedFolder(const StagedFolder&) = delete;
  StagedFolder& operator=(const StagedFolder&) = delete;

  /// Where to write the file `name` before commit().
  std::string stagedPath(const std::string& name) const;
  /// The absolute target folder.
  std::string target() const { return target_.string(); }
  /// The path the user knows for a path inside the staging folder (target/name); other paths
  /// unchanged. Messages name it, never the hidden staging folder.
  std::string userPath(const std::string& path) const;

  /// Flushes the staging folder (data::syncFolder), then moves every named staged file to
  /// target/name, replacing existing files. All or nothing: on failure the target folder is
  /// left as it was and data::WriteError names it. Refuses
  /// (std::invalid_argument, before moving anything) to replace a folder. Returns the final paths.
  std::vector<std::string> commit(const std::vector<std::string>& names);

  /// Replaces whole subfolders: target/sub becomes the staged sub for every sub in `subfolders`
  /// (the previous one, with everything in it, is removed on success), after one flush of the
  /// staging folder. All or nothing: on any failure the previous subfolders are put back and
  /// data::WriteError names the target. A staged
  /// subfolder that does not exist is created empty. Each of `removed` (subfolders of the
  /// target that the new set of folders has no place for) is taken away in the same commit and
  /// put back on failure, so that no folder of an earlier set is left beside the new one.
  /// Returns the final paths of the files in them, in the order they were listed by `names`
  /// (paths relative to the staging folder).
  std::vector<std::string> commitFolders(const std::vector<std::string>& subfolders,
                                         const std::vector<std::string>& names,
                                         const std::vector<std::string>& removed = {});

 private:
  std::filesystem::path target_;
  std::unique_ptr<detail::HiddenFolder> hidden_;
  std::filesystem::path staging_;
  bool createdTarget_ = false;
  bool committed_ = false;
};

}  // namespace dpsynth::core::report
