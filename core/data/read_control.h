#pragma once
/// How a caller steers a long read of an input file (10^6 records take a noticeable moment):
/// a stop request and a progress callback, both Qt-free so that the command line (Ctrl-C) and
/// the studio (a Cancel button, a progress bar) use the same core functions.
#include <cstdint>
#include <functional>
#include <stop_token>

namespace dpsynth::core::data {

/// Where a read is: bytes of the file read from disk, bytes of it parsed, and its size.
struct ReadProgress {
  std::uint64_t bytesRead = 0;
  std::uint64_t bytesParsed = 0;
  std::uint64_t bytesTotal = 0;

  /// Reading and parsing each count for half of the work; 0 for an empty file.
  double fraction() const {
    if (bytesTotal == 0) return 0.0;
    return (static_cast<double>(bytesRead) + static_cast<double>(bytesParsed)) /
           (2.0 * static_cast<double>(bytesTotal));
  }
};

/// Checked and called every MiB read and every 1024 lines parsed (well under a millisecond of
/// work apart), on the reading thread.
struct ReadControl {
  /// A requested stop ends the read at the next check: the function returns "nothing" (no
  /// partial table, no exception).
  std::stop_token stop;
  /// Optional; receives monotonically growing progress.
  std::function<void(const ReadProgress&)> progress;
};

}  // namespace dpsynth::core::data
