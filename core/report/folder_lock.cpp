#include "core/report/folder_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/data/csv_writer.h"

namespace dpsynth::core::report::detail {

FolderLock::FolderLock(const std::filesystem::path& folder)
    : fd_(::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)) {
  if (fd_ < 0) throw data::WriteError(folder.string(), std::strerror(errno));
  int rc = 0;
  do rc = ::flock(fd_, LOCK_EX);
  while (rc != 0 && errno == EINTR);
  if (rc != 0) {
    const int error = errno;
    ::close(fd_);
    throw data::WriteError(folder.string(), std::strerror(error));
  }
}

FolderLock::~FolderLock() { ::close(fd_); }

}  // namespace dpsynth::core::report::detail
