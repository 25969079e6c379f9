#include "core/study/study_store.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

#include "core/data/csv_table.h"
#include "core/data/csv_writer.h"
#include "core/data/regular_file.h"

namespace dpsynth::core::study {
namespace fs = std::filesystem;
namespace {

std::string hashPath(const std::string& folder) {
  return (fs::path(folder) / "study.sha256").string();
}

std::string readText(const std::string& path) {
  try {
    return data::readRegularFile(path, std::uint64_t{16} << 20);
  } catch (const std::exception& e) {
    throw ConfigError("study folder: " + std::string(e.what()));
  }
}

std::string storedHash(const std::string& folder) {
  const std::string path = hashPath(folder);
  if (!fs::exists(path)) return {};
  std::string hash = readText(path);
  while (!hash.empty() && (hash.back() == '\n' || hash.back() == '\r')) hash.pop_back();
  return hash;
}

int replicateOf(const std::vector<std::string>& row, const std::string& file) {
  try {
    std::size_t used = 0;
    const int r = std::stoi(row.at(0), &used);
    if (used == row[0].size() && r >= 0) return r;
  } catch (const std::exception&) {
  }
  throw ConfigError("study rows '" + file + "': replicate '" + (row.empty() ? "" : row[0]) +
                    "' is not a whole number >= 0");
}

/// The rows of a folder's replicates.csv (none when absent), checked against the header and the
/// study's replicates: a row of replicate 999 in a study of 6 is not one of its rows.
std::vector<std::vector<std::string>> readRows(const std::string& folder,
                                               const StoreIdentity& identity) {
  const std::string path = StudyStore::replicatesPath(folder);
  if (!fs::exists(path)) return {};
  const data::CsvTable table = data::readCsv(path);
  if (table.header != identity.header)
    throw ConfigError("study rows '" + path +
                      "': the columns differ from this version's (written by another version?); "
                      "use a new output folder");
  std::vector<std::vector<std::string>> rows;
  for (std::size_t i = 0; i < table.rows.size(); ++i) {
    rows.push_back(table.rows[i].toStrings());
    const int r = replicateOf(rows.back(), path);
    if (identity.replicates > 0 && r >= identity.replicates)
      throw ConfigError("study rows '" + path + "', line " + std::to_string(table.lineOfRow[i]) +
                        ": replicate " + std::to_string(r) + " is not one of this study's " +
                        std::to_string(identity.replicates) + " replicates (0 to " +
                        std::to_string(identity.replicates - 1) + ")");
  }
  return rows;
}

/// Which of the identity's files a write created (they did not exist before it): only those
/// are removed again when the study fails.
struct CreatedFiles {
  bool config = false;
  bool hash = false;
};

/// study.json and study.sha256 of `identity` (the hash last: a folder with a hash has its
/// config). Records in `created` each file as it appears, so that a write that fails halfway
/// (a full disk) still says which files are the study's to remove. A study.json already there is
/// replaced only when it is this study's own text (foreignConfigProblem refuses any other).
void writeIdentity(const std::string& folder, const StoreIdentity& identity,
                   CreatedFiles& created) {
  if (const std::string problem = foreignConfigProblem(folder, identity); !problem.empty())
    throw ConfigError("study folder '" + folder + "': " + problem);
  std::error_code ec;
  const bool hadConfig = fs::exists(StudyStore::configPath(folder), ec);
  const bool hadHash = fs::exists(hashPath(folder), ec);
  try {
    data::writeTextAtomic(StudyStore::configPath(folder), identity.configJson);
    created.config = created.config || !hadConfig;
    data::writeTextAtomic(hashPath(folder), identity.hash + "\n");
    created.hash = created.hash || !hadHash;
  } catch (...) {
    // writeTextAtomic renames last, but a flush after the rename can still fail: a file that
    // is there now and was not before is this write's.
    created.config =
        created.config || (!hadConfig && fs::exists(StudyStore::configPath(folder), ec));
    created.hash = created.hash || (!hadHash && fs::exists(hashPath(folder), ec));
    throw;
  }
}

/// Removes the identity files this store created, and nothing else: a study.json that was there
/// before is the user's or an earlier run's, never the failed study's to delete.
void removeCreated(const std::string& folder, CreatedFiles& created) {
  std::error_code ec;
  if (created.config) fs::remove(StudyStore::configPath(folder), ec);
  if (created.hash) fs::remove(hashPath(folder), ec);
  created = {};
}

std::set<int> replicatesOf(const std::vector<std::vector<std::string>>& rows,
                           const std::string& file) {
  std::set<int> out;
  for (const auto& row : rows) out.insert(replicateOf(row, file));
  return out;
}

void sortByReplicate(std::vector<std::vector<std::string>>& rows, const std::string& file) {
  std::stable_sort(rows.begin(), rows.end(), [&](const auto& a, const auto& b) {
    return replicateOf(a, file) < replicateOf(b, file);
  });
}

}  // namespace

std::string StudyStore::replicatesPath(const std::string& folder) {
  return (fs::path(folder) / "replicates.csv").string();
}
std::string StudyStore::configPath(const std::string& folder) {
  return (fs::path(folder) / "study.json").string();
}

StoreIdentity storeIdentity(const StudyConfig& config) {
  return {studyConfigToJson(config), studyConfigHash(config), studyHeader(), config.replicates};
}

std::string loadStoredConfigText(const std::string& folder) {
  const std::string path = StudyStore::configPath(folder);
  if (!fs::exists(path))
    throw ConfigError("study folder '" + folder + "': no study.json (not a study output folder)");
  return readText(path);
}

StudyConfig loadStoredConfig(const std::string& folder) {
  return studyConfigFromJson(loadStoredConfigText(folder), StudyStore::configPath(folder));
}

std::string foreignConfigProblem(const std::string& folder, const StoreIdentity& identity) {
  std::error_code ec;
  const fs::path config = StudyStore::configPath(folder);
  if (!fs::exists(fs::symlink_status(config, ec)) || !storedHash(folder).empty()) return {};
  // Byte for byte the text this study writes: left by a run stopped between its two files.
  std::string text;
  try {
    text = data::readRegularFile(config.string(), identity.configJson.size() + 1);
  } catch (const std::exception&) {
    text.clear();  // too large, unreadable or not a regular file: not the study's own
  }
  if (text == identity.configJson) return {};
  return "holds a study.json that dpsynth did not write (no study.sha256 beside it); a study "
         "stores its own config under that name and would replace it: use another output "
         "folder, or move study.json away";
}

StudyStore::StudyStore(std::string folder, const StudyConfig& config)
    : StudyStore(std::move(folder), storeIdentity(config)) {}

StudyStore::StudyStore(std::string folder, StoreIdentity identity)
    : folder_(std::move(folder)),
      identity_(std::move(identity)),
      exceptionsAtStart_(std::uncaught_exceptions()) {
  if (fs::exists(folder_) && !fs::is_directory(folder_))
    throw ConfigError("study folder '" + folder_ + "' exists and is not a folder");
  createdFolder_ = fs::create_directories(folder_);
  // A folder this process cannot write (a finished study on read-only media, opened to look at)
  // is read without the lock: nobody can take a turn writing it through this store anyway.
  std::optional<FolderLock> lock;
  if (::access(folder_.c_str(), W_OK) == 0) lock.emplace(folder_);
  const std::string& hash = identity_.hash;
  const std::string existing = storedHash(folder_);
  if (existing.empty()) {
    if (fs::exists(replicatesPath(folder_)))
      throw ConfigError("study folder '" + folder_ +
                        "': holds replicates.csv but no study.sha256; use a new output folder");
    CreatedFiles created;
    try {
      writeIdentity(folder_, identity_, created);
    } catch (...) {
      // A study that cannot even store its identity (a full disk) leaves no study.json, lock
      // file or folder of its own behind: nothing to make the next try "another study".
      std::error_code ec;
      removeCreated(folder_, created);
      if (createdFolder_ && lock) lock->removeFile();
      lock.reset();
      if (createdFolder_) fs::remove(folder_, ec);  // removes only an empty folder
      throw;
    }
    createdIdentity_ = true;
    createdConfig_ = created.config;
    createdHash_ = created.hash;
    generation_ = lock ? lock->generation() : 0;
    return;
  }
  if (existing != hash)
    throw ConfigError("study folder '" + folder_ + "': holds another study (config sha256 " +
                      existing.substr(0, 12) + "…, this config " + hash.substr(0, 12) +
                      "…); resume only with the same config, or use a new output folder");
  rows_ = readRows(folder_, identity_);
  completed_ = replicatesOf(rows_, replicatesPath(folder_));
  generation_ = lock ? lock->generation() : 0;
}

StudyStore::~StudyStore() {
  if (std::uncaught_exceptions() > exceptionsAtStart_) discardIfUnused();
}

void StudyStore::syncWithDisk(const FolderLock& lock) {
  const std::string existing = storedHash(folder_);
  if (existing.empty() && !fs::exists(replicatesPath(folder_))) {
    // Another process discarded it after a failure: written again, and this store's now.
    CreatedFiles created{createdConfig_, createdHash_};
    writeIdentity(folder_, identity_, created);
    createdConfig_ = created.config;
    createdHash_ = created.hash;
  } else if (existing != identity_.hash) {
    throw ConfigError("study folder '" + folder_ +
                      "': another process replaced the study it holds; use a new output folder");
  }
  if (lock.generation() == generation_) return;
  rows_ = readRows(folder_, identity_);
  completed_ = replicatesOf(rows_, replicatesPath(folder_));
  generation_ = lock.generation();
}

void StudyStore::writeRows(FolderLock& lock, std::vector<std::vector<std::string>> rows) {
  sortByReplicate(rows, replicatesPath(folder_));
  lock.advanceGeneration();
  data::writeCsvAtomic(replicatesPath(folder_), identity_.header, rows);
  generation_ = lock.generation();
  completed_ = replicatesOf(rows, replicatesPath(folder_));
  rows_ = std::move(rows);
}

void StudyStore::append(const ReplicateRows& replicate) {
  const int r = replicate.replicate;
  if (appended_.count(r))
    throw std::logic_error("study store: replicate " + std::to_string(r) + " is already stored");
  if (r < 0 || (identity_.replicates > 0 && r >= identity_.replicates))
    throw std::logic_error("study store: replicate " + std::to_string(r) +
                           " is not one of the study's");
  FolderLock lock(folder_);
  syncWithDisk(lock);
  appended_.insert(r);
  if (completed_.count(r)) return;  // another process stored it meanwhile: the same rows
  auto rows = rows_;
  rows.insert(rows.end(), replicate.rows.begin(), replicate.rows.end());
  writeRows(lock, std::move(rows));
}

void StudyStore::appendRows(std::vector<std::vector<std::string>> rows) {
  FolderLock lock(folder_);
  syncWithDisk(lock);
  for (const auto& row : rows)
    if (const int r = replicateOf(row, "merge"); completed_.count(r))
      throw ConfigError("study merge: replicate " + std::to_string(r) +
                        " is already in the output folder '" + folder_ + "'");
  auto all = rows_;
  all.insert(all.end(), std::make_move_iterator(rows.begin()), std::make_move_iterator(rows.end()));
  writeRows(lock, std::move(all));
}

void StudyStore::withAllRows(
    const std::function<void(const std::vector<std::vector<std::string>>&)>& write) {
  const FolderLock lock(folder_);
  syncWithDisk(lock);
  write(rows_);
}

void StudyStore::discardIfUnused() noexcept {
  if (!createdIdentity_) return;
  std::error_code ec;
  try {
    FolderLock lock(folder_);
    // Rows stored by anyone (this or another process) make the identity theirs too.
    if (fs::exists(replicatesPath(folder_), ec) || ec || storedHash(folder_) != identity_.hash)
      return;
    CreatedFiles created{createdConfig_, createdHash_};
    removeCreated(folder_, created);
    createdConfig_ = createdHash_ = false;
    createdIdentity_ = false;
    if (createdFolder_) lock.removeFile();
  } catch (...) {
    return;  // a destructor's cleanup: what cannot be removed stays, as it would without it
  }
  if (createdFolder_) fs::remove(folder_, ec);  // removes only an empty folder
}

void mergeStudies(const std::string& out, const std::vector<std::string>& inputs) {
  if (inputs.empty()) throw ConfigError("study merge: name at least one shard folder");
  mergeStudies(out, inputs, storeIdentity(loadStoredConfig(inputs.front())));
}

void mergeStudies(const std::string& out, const std::vector<std::string>& inputs,
                  const StoreIdentity& identity) {
  if (inputs.empty()) throw ConfigError("study merge: name at least one shard folder");
  std::error_code ec;
  for (const auto& in : inputs)
    if (fs::exists(out) && fs::equivalent(out, in, ec))
      throw ConfigError("study merge: the output folder '" + out + "' is also an input");
  const std::string& hash = identity.hash;
  std::map<int, std::string> owner;
  std::vector<std::vector<std::string>> rows;
  for (const auto& in : inputs) {
    if (storedHash(in) != hash)
      throw ConfigError("study merge: '" + in + "' holds another study than '" + inputs.front() +
                        "' (config sha256 differs)");
    std::set<int> mine;  // a replicate's rows come from one folder (named once)
    for (auto& row : readRows(in, identity)) {
      const int r = replicateOf(row, StudyStore::replicatesPath(in));
      if (const auto it = owner.find(r); it != owner.end())
        throw ConfigError("study merge: replicate " + std::to_string(r) + " is in both '" +
                          it->second + "' and '" + in + "'");
      mine.insert(r);
      rows.push_back(std::move(row));
    }
    for (int r : mine) owner.emplace(r, in);
  }
  StudyStore store(out, identity);
  for (const auto& [r, in] : owner)
    if (store.completed().count(r))
      throw ConfigError("study merge: replicate " + std::to_string(r) + " is in both '" + in +
                        "' and the output folder '" + out + "'");
  // One atomic write with every row (append would rewrite the file once per replicate).
  store.appendRows(std::move(rows));
}

}  // namespace dpsynth::core::study
