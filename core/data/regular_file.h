#pragma once
/// Reading a whole input file safely. A path given by a user or a session file can name a FIFO,
/// a device such as /dev/zero or a huge file: read naively, those block or fill memory forever.
#include <cstdint>
#include <optional>
#include <string>

#include "core/data/read_control.h"

namespace dpsynth::core::data {

/// The most a data or session file may hold by default (2 GiB): dpsynth keeps it in memory.
inline constexpr std::uint64_t kMaxInputBytes = std::uint64_t{2} << 30;

/// The bytes of the ordinary file at `path`, which is checked before it is opened for reading:
/// a folder, FIFO, socket or device is refused at once (nothing is read from it, so nothing can
/// block), and so is a file larger than `maxBytes` (before reading, and again if it grows while
/// being read). Throws DataError(path, 0, "", problem, hint) for a missing, unreadable,
/// non-regular or too large file; the messages name the path and, for size, the cap.
std::string readRegularFile(const std::string& path, std::uint64_t maxBytes = kMaxInputBytes);
/// The same, reading in chunks that honour `control`: nullopt when a stop was requested (the
/// checks fall every MiB), progress as ReadProgress::bytesRead of bytesTotal (the file's size).
std::optional<std::string> readRegularFile(const std::string& path, const ReadControl& control,
                                           std::uint64_t maxBytes = kMaxInputBytes);

/// "2 GiB", "512 MiB", "10 KiB" or "123 bytes": how messages show a size limit.
std::string formatByteSize(std::uint64_t bytes);

}  // namespace dpsynth::core::data
