#pragma once
/// A study's folder: study.json (the canonical config), study.sha256 (its hash) and
/// replicates.csv (rows of complete replicates, sorted by replicate). Each finished replicate
/// rewrites replicates.csv through a temporary file and a rename, so a replicate's rows are in
/// the file whole or not at all, whatever interrupts the run. Re-running the same config into
/// the same folder skips the replicates already there; a different config is refused.
///
/// Several processes may write one folder at once (two shards given the same --out): every
/// change happens under the folder's lock (folder_lock.h) and starts from the rows on disk, so
/// no process replaces rows another one stored. A replicate stored by another process meanwhile
/// is kept as it is (replicates are reproducible: its rows are the same).
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "core/study/folder_lock.h"
#include "core/study/study_config.h"
#include "core/study/study_runner.h"

namespace dpsynth::core::study {

/// What identifies a study in its folder: the canonical config text (written as study.json),
/// its SHA-256 and the columns of its rows. Each study kind makes its own.
struct StoreIdentity {
  std::string configJson;
  std::string hash;
  std::vector<std::string> header;
  /// The study's replicates are 0 .. replicates - 1: rows of any other replicate are refused.
  int replicates = 0;
};
StoreIdentity storeIdentity(const StudyConfig& config);

class StudyStore {
 public:
  /// Opens (or creates) the folder for `config`. Throws ConfigError when the folder holds
  /// another study (different config hash), a study.json dpsynth did not write
  /// (foreignConfigProblem), rows in another column layout or of a replicate the study does not
  /// have, DataError for an unreadable replicates.csv.
  StudyStore(std::string folder, const StudyConfig& config);
  /// The same for any study kind.
  StudyStore(std::string folder, StoreIdentity identity);
  /// When the store is destroyed by an exception (a missing bootstrap file, data the model
  /// refuses) and it created the study's files, with no replicate stored since: removes what it
  /// created (discardIfUnused), so that the corrected config is not refused as another study.
  ~StudyStore();
  StudyStore(const StudyStore&) = delete;
  StudyStore& operator=(const StudyStore&) = delete;

  const std::string& folder() const { return folder_; }
  /// Replicates whose rows are in the folder.
  const std::set<int>& completed() const { return completed_; }
  /// The rows, sorted by replicate (stable: a replicate's rows keep their order).
  const std::vector<std::vector<std::string>>& rows() const { return rows_; }
  /// Adds a finished replicate and rewrites replicates.csv atomically, under the folder's lock
  /// and from the rows on disk. A replicate another process stored meanwhile is kept as stored.
  /// Throws std::logic_error for a replicate this store already holds or the study does not
  /// have.
  void append(const ReplicateRows& replicate);
  /// Adds the rows of several replicates in one rewrite (a merge). Throws ConfigError naming a
  /// replicate that is already stored, here or by another process.
  void appendRows(std::vector<std::vector<std::string>> rows);
  /// Runs `write` with every row on disk while holding the folder's lock: summaries written this
  /// way by the last of several processes see every replicate.
  void withAllRows(const std::function<void(const std::vector<std::vector<std::string>>&)>& write);
  /// Removes study.json and study.sha256 where this store created them (a file that was there
  /// before is never removed), and the folder when this store created it and it is then empty,
  /// if the folder holds no rows. Never throws.
  void discardIfUnused() noexcept;

  static std::string replicatesPath(const std::string& folder);
  static std::string configPath(const std::string& folder);

 private:
  /// Under the lock: makes rows_ and completed_ those on disk (re-read only when another
  /// process rewrote replicates.csv since this store last wrote or read it), and writes the
  /// study's identity again if another process discarded it meanwhile.
  void syncWithDisk(const FolderLock& lock);
  /// Under the lock: writes `rows` as replicates.csv.
  void writeRows(FolderLock& lock, std::vector<std::vector<std::string>> rows);

  std::string folder_;
  StoreIdentity identity_;
  std::set<int> completed_;
  std::set<int> appended_;  ///< replicates this store was given (completed_ adds other processes')
  std::vector<std::vector<std::string>> rows_;
  bool createdFolder_ = false;    ///< this store created the folder
  bool createdIdentity_ = false;  ///< this store wrote study.json and study.sha256
  bool createdConfig_ = false;    ///< study.json was not there before this store wrote it
  bool createdHash_ = false;      ///< nor was study.sha256
  int exceptionsAtStart_ = 0;     ///< std::uncaught_exceptions() when constructed
  /// The folder's write count (FolderLock::generation) when this store last read or wrote
  /// replicates.csv.
  std::uint64_t generation_ = 0;
};

/// Combines shard folders into `out` (a new or empty folder, or one holding the same study):
/// every input must hold the same study (same config hash, ConfigError naming the folder
/// otherwise) and no replicate may appear in two inputs (ConfigError naming it and both
/// folders). `out` may not be one of the inputs. `identity` is that of the study stored in the
/// first input (storedIdentity).
void mergeStudies(const std::string& out, const std::vector<std::string>& inputs,
                  const StoreIdentity& identity);
void mergeStudies(const std::string& out, const std::vector<std::string>& inputs);

/// Why a study of `identity` must not be stored in `folder` ("holds a study.json …" and what to
/// do; the caller names the folder), empty when it may: the folder holds a study.json but no
/// study.sha256, and that study.json is not the text this study writes. It is then the user's (a
/// config, notes), which a study would replace and, failing, delete. StudyStore refuses such a
/// folder (ConfigError).
std::string foreignConfigProblem(const std::string& folder, const StoreIdentity& identity);

/// The text of a study folder's study.json (ConfigError when missing or unreadable).
std::string loadStoredConfigText(const std::string& folder);

/// The config stored in a study folder (ConfigError when missing or unreadable).
StudyConfig loadStoredConfig(const std::string& folder);

}  // namespace dpsynth::core::study
