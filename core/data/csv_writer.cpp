#include "core/data/csv_writer.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "core/data/output_path.h"
#include "core/exec/cancellation.h"

namespace dpsynth::core::data {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void fail(const std::string& path, const std::string& reason) {
  throw WriteError(path, reason);
}

/// The process umask without changing it (umask(2) can only be read by setting it, which is
/// not thread-safe); Linux reports it in /proc/self/status. Falls back to the common 022.
mode_t currentUmask() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("Umask:", 0) == 0) {
      try {
        return static_cast<mode_t>(std::stoul(line.substr(6), nullptr, 8));
      } catch (const std::exception&) {
        break;
      }
    }
  }
  return 022;
}

/// When this process started (well, when its writers were loaded: before main). A temporary
/// file older than that is no write of this process.
const std::time_t kProcessStart = std::time(nullptr);

/// The characters mkstemp puts in place of its six X.
bool isMkstempSuffix(std::string_view suffix) {
  return suffix.size() == 6 && std::all_of(suffix.begin(), suffix.end(), [](char c) {
           return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
         });
}

/// Removes the ".NAME.tmp-XXXXXX" files in `folder` that a killed dpsynth left behind (SIGKILL,
/// a power cut: its destructor never ran), before a new write of NAME there. Each such file is
/// held under flock(2) by its writer until its rename is done (TemporaryFile), and the kernel
/// drops the lock however the writer ends: one whose lock can be taken, and which is older than
/// this process (a live writer of a version before the lock keeps writing it, so its time is
/// recent), is stale. Anything else of that shape (a link, a folder) is left alone. Best effort:
/// what cannot be removed stays, as it would have without this.
void removeStaleTemporaries(const fs::path& folder, const std::string& name) {
  const std::string prefix = "." + name + ".tmp-";
  std::error_code ec;
  fs::directory_iterator entries(folder, ec);
  if (ec) return;
  std::vector<fs::path> stale;
  for (const auto& entry : entries) {
    const std::string file = entry.path().filename().string();
    if (file.size() != prefix.size() + 6 || file.compare(0, prefix.size(), prefix) != 0 ||
        !isMkstempSuffix(std::string_view(file).substr(prefix.size())))
      continue;
    stale.push_back(entry.path());
  }
  for (const auto& path : stale) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) continue;
    struct stat opened {
    }, named{};
    // Still the file of that name (not renamed into place meanwhile), a regular file, unlocked
    // and older than this process: then no process is writing it.
    if (::fstat(fd, &opened) == 0 && S_ISREG(opened.st_mode) && opened.st_mtime < kProcessStart &&
        ::flock(fd, LOCK_EX | LOCK_NB) == 0 && ::lstat(path.c_str(), &named) == 0 &&
        named.st_dev == opened.st_dev && named.st_ino == opened.st_ino)
      ::unlink(path.c_str());
    ::close(fd);
  }
}

/// Removes the temporary file unless the rename succeeded, on every exit path. Holds it under
/// flock(2) from its creation until after the rename (through a second descriptor of the same
/// open file, since the first is closed before the rename to see a delayed write error), so
/// that removeStaleTemporaries never takes a live one.
class TemporaryFile {
 public:
  TemporaryFile(std::string name, int fd) : name_(std::move(name)), fd_(fd) {
    // A file without its lock is only ever kept by the cleaner (its time is recent), so a
    // failure here costs nothing but the protection.
    lock_ = ::fcntl(fd_, F_DUPFD_CLOEXEC, 0);
    if (lock_ >= 0 && ::flock(lock_, LOCK_EX | LOCK_NB) != 0) {
      ::close(lock_);
      lock_ = -1;
    }
  }
  ~TemporaryFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!committed_) ::unlink(name_.c_str());
    if (lock_ >= 0) ::close(lock_);  // after the rename or the removal: the lock goes last
  }
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;

  const std::string& name() const { return name_; }
  int fd() const { return fd_; }
  /// Closes the descriptor; returns 0 or the errno of a failed close (which can report a
  /// delayed write error, e.g. on network file systems).
  int close() {
    const int result = ::close(fd_);
    fd_ = -1;
    return result == 0 ? 0 : errno;
  }
  void commit() { committed_ = true; }

 private:
  std::string name_;
  int fd_;
  int lock_ = -1;  ///< a duplicate of fd_ holding the flock until the destructor
  bool committed_ = false;
};

void writeAll(int fd, std::string_view text, const std::string& path) {
  const char* data = text.data();
  std::size_t left = text.size();
  while (left > 0) {
    const ssize_t written = ::write(fd, data, left);
    if (written < 0) {
      if (errno == EINTR) continue;
      fail(path, std::strerror(errno));
    }
    data += written;
    left -= static_cast<std::size_t>(written);
  }
}

}  // namespace

std::string formatNumber(double value) {
  if (std::isnan(value)) return {};
  if (std::isinf(value)) return value > 0 ? "Inf" : "-Inf";
  if (value == 0.0) return "0";
  char buffer[32];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, end);
}

std::string quoteCsvField(std::string_view field, char delimiter) {
  // Every delimiter readCsv might detect is quoted, not only the one in use: the reader
  // re-detects the delimiter from the header, and an unquoted ';' or tab in a column name
  // would make it pick the wrong one.
  const bool needsQuotes = field.find_first_of(std::string{delimiter, ',', ';', '\t', '"', '\r',
                                                           '\n'}) != std::string_view::npos ||
                           (!field.empty() && (field.front() == ' ' || field.front() == '\t' ||
                                               field.back() == ' ' || field.back() == '\t'));
  if (!needsQuotes) return std::string(field);
  std::string quoted;
  quoted.reserve(field.size() + 2);
  quoted += '"';
  for (const char c : field) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  quoted += '"';
  return quoted;
}

namespace {

template <typename Rows>
std::string formatRows(const std::vector<std::string>& header, const Rows& rows, char delimiter,
                       const std::stop_token& stop = {}) {
  if (delimiter == '"' || delimiter == '\r' || delimiter == '\n') {
    throw std::invalid_argument("formatCsv: the delimiter cannot be a quote or a line break");
  }
  std::string text;
  const auto appendLine = [&](const auto& fields) {
    if (fields.size() == 1 && std::string_view(fields[0]).empty()) {
      text += "\"\"";  // a blank line would be skipped by readers
    } else {
      for (std::size_t j = 0; j < fields.size(); ++j) {
        if (j > 0) text += delimiter;
        text += quoteCsvField(fields[j], delimiter);
      }
    }
    text += '\n';
  };
  appendLine(header);
  for (std::size_t r = 0; r < rows.size(); ++r) {
    if ((r & 16383) == 0) exec::throwIfStopped(stop);
    const auto& row = rows[r];
    if (row.size() != header.size()) {
      throw std::invalid_argument("formatCsv: row " + std::to_string(r + 1) + " has " +
                                  std::to_string(row.size()) + " fields but the header has " +
                                  std::to_string(header.size()));
    }
    appendLine(row);
  }
  return text;
}

}  // namespace

std::string formatCsv(const std::vector<std::string>& header,
                      const std::vector<std::vector<std::string>>& rows, char delimiter) {
  return formatRows(header, rows, delimiter);
}

std::string formatCsv(const std::vector<std::string>& header, const CsvRows& rows, char delimiter,
                      const std::stop_token& stop) {
  return formatRows(header, rows, delimiter, stop);
}

void writeCsvAtomic(const std::string& path, const std::vector<std::string>& header,
                    const std::vector<std::vector<std::string>>& rows, char delimiter) {
  writeTextAtomic(path, formatCsv(header, rows, delimiter));
}

void writeCsvAtomic(const std::string& path, const std::vector<std::string>& header,
                    const CsvRows& rows, char delimiter) {
  writeTextAtomic(path, formatCsv(header, rows, delimiter));
}

void writeTextAtomic(const std::string& path, std::string_view text) {
  writeTextAtomicInPieces(path, [text](const TextSink& put) { put(text); });
}

void writeStagedText(const std::string& path, std::string_view text) {
  writeStagedTextInPieces(path, [text](const TextSink& put) { put(text); });
}

void writeTextAtomicInPieces(const std::string& path, const TextProducer& produce) {
  if (!fs::path(path).has_filename()) fail(path, "the path names a folder, not a file");
  // The file the system resolves the path to: through a link, the file it points at; never
  // a device or FIFO (/dev/null), which a rename would replace by a regular file.
  fs::path target;
  try {
    target = resolvedOutputPath(path);
  } catch (const std::invalid_argument& e) {
    fail(path, e.what());
  }
  if (const std::string problem = unreplaceableProblem(target); !problem.empty())
    fail(path, "the path " + problem);
  const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");

  removeStaleTemporaries(folder, target.filename().string());
  std::string hiddenName = ".";
  hiddenName += target.filename().string();
  hiddenName += ".tmp-XXXXXX";
  std::string pattern = (folder / hiddenName).string();
  const int fd = ::mkstemp(pattern.data());
  if (fd < 0) {
    fail(path,
         "cannot create a temporary file in '" + folder.string() + "': " + std::strerror(errno));
  }
  TemporaryFile temporary(pattern, fd);

  // mkstemp creates the file 0600; give it the mode the target has or a new file would get.
  struct stat existing {};
  const mode_t mode = ::stat(target.c_str(), &existing) == 0 && S_ISREG(existing.st_mode)
                          ? (existing.st_mode & 07777)
                          : (0666 & ~currentUmask());
  if (::fchmod(temporary.fd(), mode) != 0) fail(path, std::strerror(errno));

  produce([&](std::string_view piece) { writeAll(temporary.fd(), piece, path); });
  if (::fsync(temporary.fd()) != 0) fail(path, std::strerror(errno));
  if (const int error = temporary.close(); error != 0) fail(path, std::strerror(error));

  std::error_code ec;
  fs::rename(temporary.name(), target, ec);
  if (ec) fail(path, ec.message());
  temporary.commit();

  // Make the rename itself durable; failure here cannot undo a completed write, so ignore it.
  if (const int dir = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY); dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
}

void writeStagedTextInPieces(const std::string& path, const TextProducer& produce) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) fail(path, std::strerror(errno));
  try {
    produce([&](std::string_view piece) { writeAll(fd, piece, path); });
  } catch (...) {
    ::close(fd);
    ::unlink(path.c_str());
    throw;
  }
  if (::close(fd) != 0) {
    const int error = errno;
    ::unlink(path.c_str());
    fail(path, std::strerror(error));
  }
}

void syncFolder(const std::string& folder) {
  const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) fail(folder, std::strerror(errno));
  const int rc = ::syncfs(fd);
  const int error = errno;
  ::close(fd);
  if (rc != 0) fail(folder, std::strerror(error));
}

}  // namespace dpsynth::core::data
