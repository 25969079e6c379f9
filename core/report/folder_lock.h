#pragma once
/// An exclusive flock(2) on an output folder while a set of outputs moves into place, so that
/// two dpsynth processes writing into one folder commit one after the other (StagedFiles,
/// StagedFolder). Blocking: the holder only renames files. The kernel drops the lock however
/// the holder ends, so a killed run never leaves the folder locked.
#include <filesystem>

namespace dpsynth::core::report::detail {

class FolderLock {
 public:
  /// Waits for the lock. Throws data::WriteError naming the folder when it cannot be opened.
  explicit FolderLock(const std::filesystem::path& folder);
  ~FolderLock();
  FolderLock(const FolderLock&) = delete;
  FolderLock& operator=(const FolderLock&) = delete;

 private:
  int fd_;
};

}  // namespace dpsynth::core::report::detail
