#include "core/report/staged_files.h"


#include <algorithm>
#include <stdexcept>
#include <system_error>

#include "core/report/hidden_folder.h"

namespace dpsynth::core::report {

namespace fs = std::filesystem;

StagedFiles::~StagedFiles() {
  std::error_code ec;
  for (const auto& [folder, staging] : staging_) fs::remove_all(staging, ec);
}

fs::path StagedFiles::stagingFor(const fs::path& folder) {
  if (auto it = staging_.find(folder); it != staging_.end()) return it->second;
  const fs::path staging = detail::createHiddenFolder(folder, ".dpsynth-stage-");
  std::error_code ec;
  fs::create_directory(staging / ".replaced", ec);
  staging_.emplace(folder, staging);
  return staging;
}

std::string StagedFiles::stage(const std::string& target) {
  const fs::path full = fs::absolute(target).lexically_normal();
  targets_.push_back(full);
  return (stagingFor(full.parent_path()) / full.filename()).string();
}

std::string StagedFiles::stagingPath(const std::string& target) {
  const fs::path full = fs::absolute(target).lexically_normal();
  return (stagingFor(full.parent_path()) / full.filename()).string();
}

void StagedFiles::supersede(const std::string& target) {
  const fs::path full = fs::absolute(target).lexically_normal();
  if (std::find(targets_.begin(), targets_.end(), full) == targets_.end())
    superseded_.push_back(full);
}

std::vector<std::string> StagedFiles::commit() {
  std::error_code ec;
  struct Move {
    fs::path target;
    fs::path backup;  ///< where the replaced file waits; empty when nothing was replaced
    bool placed = false;
  };
  std::vector<Move> done;
  auto backupOf = [&](const fs::path& target) {
    return staging_.at(target.parent_path()) / ".replaced" / target.filename();
  };
  try {
    for (const auto& target : targets_) {
      Move move{target, {}, false};
      if (fs::exists(fs::symlink_status(target))) {
        if (fs::is_directory(fs::symlink_status(target)))
          throw std::runtime_error("'" + target.string() + "' is a folder");
        move.backup = backupOf(target);
        fs::rename(target, move.backup);
      }
      done.push_back(move);
      fs::rename(staging_.at(target.parent_path()) / target.filename(), target);
      done.back().placed = true;
    }
    for (const auto& old : superseded_) {
      if (!fs::is_regular_file(fs::symlink_status(old))) continue;
      stagingFor(old.parent_path());
      Move move{old, backupOf(old), false};
      fs::rename(old, move.backup);
      done.push_back(move);
    }
  } catch (const std::exception& e) {
    for (auto it = done.rbegin(); it != done.rend(); ++it) {
      if (it->placed) fs::remove(it->target, ec);
      if (!it->backup.empty()) fs::rename(it->backup, it->target, ec);
    }
    throw std::runtime_error(std::string("cannot move the output files into place: ") + e.what());
  }
  committed_ = true;
  std::vector<std::string> out;
  for (const auto& t : targets_) out.push_back(t.string());
  return out;
}

}  // namespace dpsynth::core::report
