#include "core/study/folder_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace dpsynth::core::study {

FolderLock::FolderLock(const std::string& folder)
    : path_((std::filesystem::path(folder) / kFileName).string()) {
  for (;;) {
    fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (fd_ < 0)
      throw std::runtime_error("study folder '" + folder +
                               "': cannot create its lock file: " + std::strerror(errno));
    int rc;
    do rc = ::flock(fd_, LOCK_EX);
    while (rc != 0 && errno == EINTR);
    if (rc != 0) {
      const int error = errno;
      ::close(fd_);
      throw std::runtime_error("study folder '" + folder +
                               "': cannot lock it: " + std::strerror(error));
    }
    // The holder before us may have removed the file (removeFile): then the lock we hold is on
    // a file nobody else will open, and the folder's lock is a new file. Lock that one instead.
    struct stat held {
    }, named{};
    if (::fstat(fd_, &held) == 0 && ::stat(path_.c_str(), &named) == 0 &&
        held.st_dev == named.st_dev && held.st_ino == named.st_ino)
      return;
    ::close(fd_);
  }
}

FolderLock::~FolderLock() {
  if (fd_ >= 0) ::close(fd_);  // closing the only descriptor releases the flock
}

std::uint64_t FolderLock::generation() const {
  char text[24] = {};
  const ssize_t n = ::pread(fd_, text, sizeof text - 1, 0);
  std::uint64_t value = 0;
  for (ssize_t i = 0; i < n && text[i] >= '0' && text[i] <= '9'; ++i)
    value = value * 10 + static_cast<std::uint64_t>(text[i] - '0');
  return value;
}

void FolderLock::advanceGeneration() {
  const std::string text = std::to_string(generation() + 1) + "\n";
  if (::pwrite(fd_, text.data(), text.size(), 0) != static_cast<ssize_t>(text.size()) ||
      ::ftruncate(fd_, static_cast<off_t>(text.size())) != 0)
    throw std::runtime_error("cannot update the lock file " + path_ + ": " + std::strerror(errno));
}

void FolderLock::removeFile() { ::unlink(path_.c_str()); }

}  // namespace dpsynth::core::study
