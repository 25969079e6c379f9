#pragma once
/// A study's folder: study.json (the canonical config), study.sha256 (its hash) and
/// replicates.csv (rows of complete replicates, sorted by replicate). Each finished replicate
/// rewrites replicates.csv through a temporary file and a rename, so a replicate's rows are in
/// the file whole or not at all, whatever interrupts the run. Re-running the same config into
/// the same folder skips the replicates already there; a different config is refused.
#include <set>
#include <string>
#include <vector>

#include "core/study/study_config.h"
#include "core/study/study_runner.h"

namespace dpsynth::core::study {

/// What identifies a study in its folder: the canonical config text (written as study.json),
/// its SHA-256 and the columns of its rows. Each study kind makes its own.
struct StoreIdentity {
  std::string configJson;
  std::string hash;
  std::vector<std::string> header;
};
StoreIdentity storeIdentity(const StudyConfig& config);

class StudyStore {
 public:
  /// Opens (or creates) the folder for `config`. Throws ConfigError when the folder holds
  /// another study (different config hash) or rows in another column layout, DataError for an
  /// unreadable replicates.csv.
  StudyStore(std::string folder, const StudyConfig& config);
  /// The same for any study kind.
  StudyStore(std::string folder, StoreIdentity identity);

  const std::string& folder() const { return folder_; }
  /// Replicates whose rows are in the folder.
  const std::set<int>& completed() const { return completed_; }
  /// The rows, sorted by replicate (stable: a replicate's rows keep their order).
  const std::vector<std::vector<std::string>>& rows() const { return rows_; }
  /// Adds a finished replicate and rewrites replicates.csv atomically. Throws
  /// std::logic_error for a replicate already stored.
  void append(const ReplicateRows& replicate);

  static std::string replicatesPath(const std::string& folder);
  static std::string configPath(const std::string& folder);

 private:
  void write() const;

  std::string folder_;
  StoreIdentity identity_;
  std::set<int> completed_;
  std::vector<std::vector<std::string>> rows_;
};

/// Combines shard folders into `out` (a new or empty folder, or one holding the same study):
/// every input must hold the same study (same config hash, ConfigError naming the folder
/// otherwise) and no replicate may appear in two inputs (ConfigError naming it and both
/// folders). `out` may not be one of the inputs. `identity` is that of the study stored in the
/// first input (storedIdentity).
void mergeStudies(const std::string& out, const std::vector<std::string>& inputs,
                  const StoreIdentity& identity);
void mergeStudies(const std::string& out, const std::vector<std::string>& inputs);

/// The text of a study folder's study.json (ConfigError when missing or unreadable).
std::string loadStoredConfigText(const std::string& folder);

/// The config stored in a study folder (ConfigError when missing or unreadable).
StudyConfig loadStoredConfig(const std::string& folder);

}  // namespace dpsynth::core::study
