#include "core/report/hidden_folder.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <random>
#include <stdexcept>
#include <system_error>

#include "core/data/csv_writer.h"

namespace dpsynth::core::report::detail {

namespace fs = std::filesystem;

namespace {

constexpr const char* kReplaced = ".replaced";

/// An exclusive, non-blocking flock on the folder at `path`: the descriptor, or -1 when the
/// folder is gone or another process holds it.
int tryLock(const fs::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return -1;
  int rc;
  do rc = ::flock(fd, LOCK_EX | LOCK_NB);
  while (rc != 0 && errno == EINTR);
  if (rc != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

/// True when the descriptor and the name still denote the same folder (nobody removed it).
bool sameFolder(int fd, const fs::path& path) {
  struct stat held {
  }, named{};
  return ::fstat(fd, &held) == 0 && ::lstat(path.c_str(), &named) == 0 &&
         held.st_dev == named.st_dev && held.st_ino == named.st_ino;
}

bool isStagingName(const std::string& name) {
  for (const auto& prefix : stagingPrefixes())
    if (name.size() == prefix.size() + 8 && name.rfind(prefix, 0) == 0) return true;
  return false;
}

/// Puts back what a killed run had set aside, where nothing took its place; the rest goes with
/// the folder.
void restoreReplaced(const fs::path& staging, const fs::path& parent) {
  std::error_code ec;
  const fs::path replaced = staging / kReplaced;
  if (!fs::is_directory(fs::symlink_status(replaced, ec))) return;
  for (const auto& entry : fs::directory_iterator(replaced, ec)) {
    const fs::path target = parent / entry.path().filename();
    if (fs::exists(fs::symlink_status(target, ec))) continue;
    fs::rename(entry.path(), target, ec);
  }
}

}  // namespace

const std::vector<std::string>& stagingPrefixes() {
  static const std::vector<std::string> prefixes{".dpsynth-export-", ".dpsynth-stage-",
                                                 ".dpsynth-confidential-"};
  return prefixes;
}

int removeStaleStaging(const fs::path& parent) {
  int removed = 0;
  std::error_code ec;
  std::vector<fs::path> candidates;
  for (const auto& entry : fs::directory_iterator(parent, ec)) {
    if (!isStagingName(entry.path().filename().string())) continue;
    if (!fs::is_directory(fs::symlink_status(entry.path(), ec))) continue;
    candidates.push_back(entry.path());
  }
  for (const auto& folder : candidates) {
    const int fd = tryLock(folder);
    if (fd < 0) continue;  // a live run holds it (or it is gone)
    if (sameFolder(fd, folder)) {
      restoreReplaced(folder, parent);
      fs::remove_all(folder, ec);
      if (!ec) ++removed;
    }
    ::close(fd);
  }
  return removed;
}

HiddenFolder::HiddenFolder(const fs::path& parent, const std::string& prefix) {
  static constexpr char kHex[] = "0123456789abcdef";
  removeStaleStaging(parent);
  std::random_device device;
  std::error_code ec;
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::string suffix;
    for (int i = 0; i < 8; ++i) suffix += kHex[device() % 16];
    const fs::path candidate = parent / (prefix + suffix);
    if (::mkdir(candidate.c_str(), 0700) != 0) {
      if (errno == EEXIST) continue;
      ec = std::error_code(errno, std::generic_category());
      break;
    }
    // Between mkdir and the lock another process's cleaning may take the folder for stale and
    // remove it: then the lock is on a folder nobody can reach, and a new name is tried.
    const int fd = tryLock(candidate);
    if (fd >= 0 && sameFolder(fd, candidate)) {
      path_ = candidate;
      fd_ = fd;
      return;
    }
    if (fd >= 0) ::close(fd);
  }
  // The user's folder is named, with what the system said (read-only, full, no permission).
  throw data::WriteError(parent.string(), "cannot create a hidden staging folder in it" +
                                              (ec ? " (" + ec.message() + ")" : std::string()));
}

HiddenFolder::~HiddenFolder() {
  std::error_code ec;
  fs::remove_all(path_, ec);
  if (fd_ >= 0) ::close(fd_);  // after the removal: nobody may clean a folder still in use
}

}  // namespace dpsynth::core::report::detail
