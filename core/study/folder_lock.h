#pragma once
/// An exclusive lock on a study folder, so that processes writing one folder at the same time
/// (two shards given the same --out, the studio and the command line) take turns: each rewrite
/// of replicates.csv starts from the rows on disk, not from a copy another process has already
/// replaced. POSIX flock(2) on a lock file inside the folder; the kernel releases it when the
/// process ends, however it ends, so a killed run never leaves the folder locked. The lock file
/// also counts the rewrites of the folder's rows (generation()), so that a process re-reads them
/// only when another one changed them.
#include <cstdint>
#include <string>

namespace dpsynth::core::study {

class FolderLock {
 public:
  /// The lock file's name inside a study folder.
  static constexpr const char* kFileName = ".dpsynth-study.lock";

  /// Blocks until this process holds the folder's lock (the folder must exist). Throws
  /// std::runtime_error naming the folder when the lock file cannot be created or locked.
  explicit FolderLock(const std::string& folder);
  /// Releases the lock.
  ~FolderLock();
  FolderLock(const FolderLock&) = delete;
  FolderLock& operator=(const FolderLock&) = delete;

  /// How many times the folder's rows were rewritten (a count kept in the lock file): a process
  /// whose last read or write saw this count knows that nobody rewrote them since.
  std::uint64_t generation() const;
  /// Adds one to the count. Call before rewriting the rows: a process that dies in between then
  /// only makes the others read rows that did not change.
  void advanceGeneration();

  /// Removes the lock file while the lock is held (for a folder about to be removed). A process
  /// waiting for it notices that the file it locked is gone and locks a new one.
  void removeFile();

 private:
  std::string path_;
  int fd_ = -1;
};

}  // namespace dpsynth::core::study
