#include "core/data/regular_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "core/data/data_error.h"

namespace dpsynth::core::data {
namespace {

/// Closes the descriptor on every exit path.
class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  ~Descriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

/// What a non-regular file is, for the message; empty for a regular file.
std::string kindOf(mode_t mode) {
  if (S_ISREG(mode)) return {};
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISFIFO(mode)) return "a named pipe (FIFO)";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not an ordinary file";
}

[[noreturn]] void refuseKind(const std::string& path, const std::string& kind) {
  if (kind == "a folder") {
    throw DataError(path, 0, "", "this is a folder, not a file", "Choose a CSV file.");
  }
  throw DataError(path, 0, "", "this is " + kind + ", not an ordinary file",
                  "dpsynth reads input only from ordinary files; save the data to a file first.");
}

[[noreturn]] void refuseSize(const std::string& path, std::uint64_t maxBytes) {
  throw DataError(path, 0, "", "the file is larger than " + formatByteSize(maxBytes),
                  "dpsynth holds its input in memory and reads at most " +
                      formatByteSize(maxBytes) + "; use a smaller extract of the data.");
}

}  // namespace

std::string formatByteSize(std::uint64_t bytes) {
  constexpr std::uint64_t kKiB = 1024, kMiB = kKiB * 1024, kGiB = kMiB * 1024;
  if (bytes >= kGiB && bytes % kGiB == 0) return std::to_string(bytes / kGiB) + " GiB";
  if (bytes >= kMiB && bytes % kMiB == 0) return std::to_string(bytes / kMiB) + " MiB";
  if (bytes >= kKiB && bytes % kKiB == 0) return std::to_string(bytes / kKiB) + " KiB";
  return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
}

std::string readRegularFile(const std::string& path, std::uint64_t maxBytes) {
  return *readRegularFile(path, ReadControl{}, maxBytes);  // without a stop token: never empty
}

std::optional<std::string> readRegularFile(const std::string& path, const ReadControl& control,
                                           std::uint64_t maxBytes) {
  // stat() first: opening a FIFO for reading blocks until a writer appears, so the kind of
  // file is checked before any open().
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) {
    const int error = errno;
    if (error == ENOENT || error == ENOTDIR) {
      throw DataError(path, 0, "", "the file does not exist",
                      "Check the path and the spelling of the file name.");
    }
    throw DataError(path, 0, "", std::string("the file cannot be read: ") + std::strerror(error),
                    "Check that you have permission to read it.");
  }
  if (const std::string kind = kindOf(info.st_mode); !kind.empty()) refuseKind(path, kind);
  if (static_cast<std::uint64_t>(info.st_size) > maxBytes) refuseSize(path, maxBytes);

  // O_NONBLOCK: should the path have been replaced by a FIFO since stat(), open() still
  // returns at once, and fstat() below refuses it.
  const Descriptor fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
  if (fd.get() < 0) {
    throw DataError(path, 0, "", std::string("the file cannot be read: ") + std::strerror(errno),
                    "Check that you have permission to read it.");
  }
  if (::fstat(fd.get(), &info) != 0) {
    throw DataError(path, 0, "", std::string("the file cannot be read: ") + std::strerror(errno),
                    "Check that you have permission to read it.");
  }
  if (const std::string kind = kindOf(info.st_mode); !kind.empty()) refuseKind(path, kind);
  if (static_cast<std::uint64_t>(info.st_size) > maxBytes) refuseSize(path, maxBytes);

  // Read straight into the result, 1 MiB at a time, between which a stop request is honoured
  // and progress reported.
  constexpr std::size_t kChunk = std::size_t{1} << 20;
  const auto size = static_cast<std::uint64_t>(info.st_size);
  std::string contents;
  contents.reserve(static_cast<std::size_t>(size));
  ReadProgress progress;
  progress.bytesTotal = size;
  for (;;) {
    if (control.stop.stop_requested()) return std::nullopt;
    const std::size_t have = contents.size();
    const std::size_t room = contents.capacity() - have;
    ssize_t got = 0;
    if (room > 0) {
      // Up to the reserved size, in place.
      const std::size_t want = std::min(room, kChunk);
      contents.resize(have + want);
      got = ::read(fd.get(), contents.data() + have, want);
      const int error = errno;
      contents.resize(have + static_cast<std::size_t>(std::max<ssize_t>(got, 0)));
      errno = error;
    } else {
      // At the reserved size: usually the end of the file, which a small read confirms without
      // growing the string (files in /proc report size 0; a file can grow while it is read).
      char more[1 << 16];
      got = ::read(fd.get(), more, sizeof more);
      if (got > 0) contents.append(more, static_cast<std::size_t>(got));
    }
    if (got == 0) break;
    if (got < 0) {
      if (errno == EINTR) continue;
      throw DataError(
          path, 0, "",
          std::string("reading the file failed part way through: ") + std::strerror(errno),
          "Check that it is not on a disconnected drive and try again.");
    }
    // Files in /proc report size 0 and a file can grow while it is read: cap what is read.
    if (contents.size() > maxBytes) refuseSize(path, maxBytes);
    if (control.progress) {
      progress.bytesRead = std::min<std::uint64_t>(contents.size(), size);
      control.progress(progress);
    }
  }
  return contents;
}

}  // namespace dpsynth::core::data
