#pragma once
/// A fresh hidden folder beside the outputs, for files that must appear all together or not at
/// all (StagedFolder, StagedFiles), and the cleaning of the ones a killed run left behind.
///
/// A staging folder is held under an exclusive flock(2) on the folder itself for as long as its
/// owner lives; the kernel drops the lock when the process ends, however it ends. A folder of
/// one of the staging prefixes whose lock can be taken is therefore stale (a run killed by
/// SIGKILL, a power cut) and is removed by the next dpsynth that stages in the same folder;
/// a live run's folder is never touched. Before a stale folder goes, the files its run had set
/// aside to replace them (the ".replaced" subfolder) are put back where nothing took their
/// place: a run killed in the middle of moving its files loses none of the earlier ones.
#include <filesystem>
#include <string>
#include <vector>

namespace dpsynth::core::report::detail {

/// The names staging folders start with: ".dpsynth-export-" (StagedFolder),
/// ".dpsynth-stage-" (StagedFiles, publishable files) and ".dpsynth-confidential-" (StagedFiles,
/// confidential files such as a report: never staged beside the files being released).
const std::vector<std::string>& stagingPrefixes();

class HiddenFolder {
 public:
  /// Creates parent/prefix + 8 random hex digits (mode 0700), locks it, and removes the stale
  /// staging folders in parent. Throws data::WriteError naming parent when no folder can be
  /// created there.
  HiddenFolder(const std::filesystem::path& parent, const std::string& prefix);
  /// Removes the folder with whatever it still holds, then lets go of the lock.
  ~HiddenFolder();
  HiddenFolder(const HiddenFolder&) = delete;
  HiddenFolder& operator=(const HiddenFolder&) = delete;

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  int fd_ = -1;
};

/// Removes every stale staging folder in `parent` (see above); returns how many. Folders whose
/// lock is held, and anything not named like a staging folder, are left alone. Never throws.
int removeStaleStaging(const std::filesystem::path& parent);

}  // namespace dpsynth::core::report::detail
