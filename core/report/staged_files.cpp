#include "core/report/staged_files.h"

#include <algorithm>
#include <set>
#include <stdexcept>
#include <system_error>

#include "core/data/csv_writer.h"
#include "core/data/output_path.h"
#include "core/report/folder_lock.h"
#include "core/report/hidden_folder.h"

namespace dpsynth::core::report {

namespace fs = std::filesystem;

StagedFiles::StagedFiles() = default;
StagedFiles::~StagedFiles() = default;  // each HiddenFolder removes itself, then unlocks

namespace {

/// The file `target` names for the system (data::resolvedOutputPath): the one the checks
/// looked at, and the one replaced.
fs::path resolved(const std::string& target) {
  try {
    return data::resolvedOutputPath(target);
  } catch (const std::invalid_argument& e) {
    throw data::WriteError(target, e.what());
  }
}

}  // namespace

fs::path StagedFiles::stagingFor(const Key& key) {
  if (auto it = staging_.find(key); it != staging_.end()) return it->second->path();
  auto hidden = std::make_unique<detail::HiddenFolder>(
      key.first,
      key.second == Sensitivity::confidential ? ".dpsynth-confidential-" : ".dpsynth-stage-");
  std::error_code ec;
  fs::create_directory(hidden->path() / ".replaced", ec);
  const fs::path path = hidden->path();
  staging_.emplace(key, std::move(hidden));
  return path;
}

std::string StagedFiles::stage(const std::string& target, Sensitivity sensitivity) {
  const fs::path full = resolved(target);
  targets_.push_back({full, sensitivity});
  return (stagingFor({full.parent_path(), sensitivity}) / full.filename()).string();
}

std::string StagedFiles::stagingPath(const std::string& target, Sensitivity sensitivity) {
  const fs::path full = resolved(target);
  return (stagingFor({full.parent_path(), sensitivity}) / full.filename()).string();
}

void StagedFiles::supersede(const std::string& target, Sensitivity sensitivity) {
  const fs::path full = resolved(target);
  if (std::none_of(targets_.begin(), targets_.end(), [&](const Key& t) { return t.first == full; }))
    superseded_.push_back({full, sensitivity});
}

std::string StagedFiles::userPath(const std::string& path) const {
  for (const auto& [key, hidden] : staging_) {
    const fs::path rel = fs::path(path).lexically_relative(hidden->path());
    if (rel.empty() || *rel.begin() == "..") continue;
    return rel == "." ? key.first.string() : (key.first / rel).string();
  }
  return path;
}

std::vector<std::string> StagedFiles::commit(const std::function<void()>& underLock) {
  // Every target folder, each once and in one order (two runs never wait on each other).
  std::set<fs::path> folders;
  for (const auto& key : targets_) folders.insert(key.first.parent_path());
  for (const auto& key : superseded_) folders.insert(key.first.parent_path());
  std::vector<std::unique_ptr<detail::FolderLock>> locks;
  for (const auto& folder : folders) locks.push_back(std::make_unique<detail::FolderLock>(folder));
  if (underLock) underLock();
  for (const auto& key : superseded_) {
    if (!folders.contains(key.first.parent_path()))
      throw std::logic_error("StagedFiles::commit: a superseded file outside the set's folders");
  }
  std::error_code ec;
  // One flush for every staged file before any of them is moved into place.
  for (const auto& [key, hidden] : staging_) {
    try {
      data::syncFolder(hidden->path().string());
    } catch (const data::WriteError& e) {
      throw data::WriteError(key.first.string(), e.reason());
    }
  }
  struct Move {
    fs::path target;
    fs::path backup;  ///< where the replaced file waits; empty when nothing was replaced
    bool placed = false;
  };
  std::vector<Move> done;
  fs::path current;  // the file being moved, for the message
  // A replaced file waits in the staging folder of its own sensitivity.
  auto backupOf = [&](const Key& key) {
    return stagingFor({key.first.parent_path(), key.second}) / ".replaced" / key.first.filename();
  };
  try {
    for (const auto& key : targets_) {
      const fs::path& target = key.first;
      current = target;
      Move move{target, {}, false};
      if (fs::exists(fs::symlink_status(target))) {
        if (const std::string problem = data::unreplaceableProblem(target); !problem.empty())
          throw std::runtime_error("'" + target.string() + "' " + problem);
        move.backup = backupOf(key);
        fs::rename(target, move.backup);
      }
      done.push_back(move);
      fs::rename(stagingFor({target.parent_path(), key.second}) / target.filename(), target);
      done.back().placed = true;
    }
    for (const auto& key : superseded_) {
      if (!fs::is_regular_file(fs::symlink_status(key.first))) continue;
      current = key.first;
      Move move{key.first, backupOf(key), false};
      fs::rename(key.first, move.backup);
      done.push_back(move);
    }
  } catch (const std::exception& e) {
    for (auto it = done.rbegin(); it != done.rend(); ++it) {
      if (it->placed) fs::remove(it->target, ec);
      if (!it->backup.empty()) fs::rename(it->backup, it->target, ec);
    }
    // The user's file is named with what the system said; a filesystem error's own text would
    // name the hidden staging folder.
    const auto* fe = dynamic_cast<const fs::filesystem_error*>(&e);
    throw data::WriteError(current.string(),
                           "cannot move the output file into place: " +
                               (fe ? fe->code().message() : std::string(e.what())));
  }
  committed_ = true;
  std::vector<std::string> out;
  for (const auto& t : targets_) out.push_back(t.first.string());
  return out;
}

}  // namespace dpsynth::core::report
