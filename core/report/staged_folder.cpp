#include "core/report/staged_folder.h"

#include <stdexcept>
#include <system_error>

#include "core/data/csv_writer.h"
#include "core/data/output_path.h"
#include "core/report/folder_lock.h"
#include "core/report/hidden_folder.h"

namespace dpsynth::core::report {

namespace fs = std::filesystem;

StagedFolder::StagedFolder(const std::string& target) {
  if (target.empty()) throw std::invalid_argument("no output folder given");
  try {
    target_ = data::resolvedOutputPath(target);  // "out/" → "out", as the checks saw it
  } catch (const std::invalid_argument& e) {
    throw data::WriteError(target, e.what());
  }
  std::error_code ec;
  if (fs::exists(target_, ec) && !fs::is_directory(target_, ec))
    throw std::invalid_argument("the output folder '" + target_.string() +
                                "' exists and is not a folder");
  if (!fs::exists(target_, ec)) {
    fs::create_directories(target_, ec);
    if (ec) throw data::WriteError(target_.string(), "cannot create the folder: " + ec.message());
    createdTarget_ = true;
  }
  try {
    hidden_ = std::make_unique<detail::HiddenFolder>(target_, ".dpsynth-export-");
    staging_ = hidden_->path();
  } catch (...) {
    if (createdTarget_) fs::remove(target_, ec);
    throw;
  }
}

StagedFolder::~StagedFolder() {
  hidden_.reset();  // removes the staging folder, then unlocks it
  std::error_code ec;
  if (createdTarget_ && !committed_) fs::remove(target_, ec);  // only removes an empty folder
}

std::string StagedFolder::stagedPath(const std::string& name) const {
  const fs::path path = staging_ / name;
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  if (ec) throw data::WriteError(userPath(path.parent_path().string()), ec.message());
  return path.string();
}

std::string StagedFolder::userPath(const std::string& path) const {
  const fs::path rel = fs::path(path).lexically_relative(staging_);
  if (rel.empty() || *rel.begin() == "..") return path;
  return rel == "." ? target_.string() : (target_ / rel).string();
}

namespace {

/// The one line for a failed move: the user's target folder and what the system said (the
/// filesystem error's own text would name the hidden staging folder).
[[noreturn]] void failMove(const fs::path& target, const std::exception& e) {
  if (const auto* fe = dynamic_cast<const fs::filesystem_error*>(&e))
    throw data::WriteError(target.string(),
                           "cannot move the results into place: " + fe->code().message());
  if (const auto* we = dynamic_cast<const data::WriteError*>(&e))
    throw data::WriteError(target.string(), we->reason());
  throw data::WriteError(target.string(),
                         std::string("cannot move the results into place: ") + e.what());
}

}  // namespace

std::vector<std::string> StagedFolder::commitFolders(const std::vector<std::string>& subfolders,
                                                     const std::vector<std::string>& names,
                                                     const std::vector<std::string>& removed) {
  std::error_code ec;
  // One flush for every staged file before any of them is moved into place.
  try {
    data::syncFolder(staging_.string());
  } catch (const data::WriteError& e) {
    throw data::WriteError(target_.string(), e.reason());
  }
  for (const auto& sub : subfolders) {
    const fs::path target = target_ / sub;
    const auto status = fs::symlink_status(target, ec);
    if (fs::exists(status) && !fs::is_directory(status))
      throw std::invalid_argument("cannot write the folder '" + target.string() +
                                  "': a file of that name exists");
    fs::create_directories(staging_ / sub, ec);
  }
  const fs::path backups = staging_ / ".replaced";
  fs::create_directory(backups, ec);
  if (ec) throw data::WriteError(target_.string(), ec.message());
  // Two exports into one folder replace its files one after the other, never a mix.
  const detail::FolderLock lock(target_);

  struct Move {
    std::string sub;
    bool replaced = false;
  };
  std::vector<Move> done;
  try {
    // Moved aside like a replaced folder, with nothing in its place; the staging folder takes
    // it away on success.
    for (const auto& sub : removed) {
      const fs::path target = target_ / sub;
      if (!fs::exists(fs::symlink_status(target))) continue;
      fs::rename(target, backups / sub);
      done.push_back({sub, true});  // undone below by moving it back
    }
    for (const auto& sub : subfolders) {
      Move move{sub};
      const fs::path target = target_ / sub;
      if (fs::exists(fs::symlink_status(target))) {
        fs::rename(target, backups / sub);
        move.replaced = true;
      }
      try {
        fs::rename(staging_ / sub, target);
      } catch (...) {
        if (move.replaced) fs::rename(backups / sub, target, ec);
        throw;
      }
      done.push_back(move);
    }
  } catch (const std::exception& e) {
    for (auto it = done.rbegin(); it != done.rend(); ++it) {
      const fs::path target = target_ / it->sub;
      fs::rename(target, staging_ / it->sub, ec);
      if (it->replaced) fs::rename(backups / it->sub, target, ec);
    }
    failMove(target_, e);
  }
  committed_ = true;
  std::vector<std::string> paths;
  for (const auto& name : names) paths.push_back((target_ / name).string());
  return paths;
}

std::vector<std::string> StagedFolder::commit(const std::vector<std::string>& names) {
  std::error_code ec;
  try {
    data::syncFolder(staging_.string());
  } catch (const data::WriteError& e) {
    throw data::WriteError(target_.string(), e.reason());
  }
  for (const auto& name : names) {
    const fs::path target = target_ / name;
    if (fs::is_directory(fs::symlink_status(target, ec)))
      throw std::invalid_argument("cannot write '" + target.string() + "': it is a folder");
  }
  const fs::path backups = staging_ / ".replaced";
  fs::create_directory(backups, ec);
  if (ec) throw data::WriteError(target_.string(), ec.message());
  // Two exports into one folder replace its files one after the other, never a mix.
  const detail::FolderLock lock(target_);

  struct Move {
    fs::path target;
    bool replaced = false;
  };
  std::vector<Move> done;
  try {
    for (const auto& name : names) {
      Move move{target_ / name};
      if (fs::exists(fs::symlink_status(move.target))) {
        fs::rename(move.target, backups / name);
        move.replaced = true;
      }
      try {
        fs::rename(staging_ / name, move.target);
      } catch (...) {
        if (move.replaced) fs::rename(backups / name, move.target, ec);
        throw;
      }
      done.push_back(move);
    }
  } catch (const std::exception& e) {
    // Undo in reverse order: the folder ends up exactly as it was before commit().
    for (auto it = done.rbegin(); it != done.rend(); ++it) {
      fs::remove(it->target, ec);
      if (it->replaced) fs::rename(backups / it->target.filename(), it->target, ec);
    }
    failMove(target_, e);
  }
  committed_ = true;
  std::vector<std::string> paths;
  for (const auto& m : done) paths.push_back(m.target.string());
  return paths;
}

}  // namespace dpsynth::core::report
