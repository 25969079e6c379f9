#pragma once
/// A line on stderr every few seconds while a stage samples, so that a long fit (10^6 records)
/// is never silent for long: "  lw  stage unweighted  sampling 45%  (12 s)". Thread-safe:
/// progress arrives from the chain threads.
#include <chrono>
#include <mutex>
#include <string>
#include <vector>

#include "core/mcmc/sampler.h"

namespace dpsynth::cli {

class StageHeartbeat {
 public:
  /// Seconds between lines (the first comes this long after the stage starts).
  explicit StageHeartbeat(double intervalSeconds = 5.0) : interval_(intervalSeconds) {}

  /// A stage starts: its clock and chains are reset.
  void started(const std::string& mechanism, const std::string& stage);
  /// A chain's progress; prints a line when `interval` has passed since the last one.
  void progress(const std::string& stage, const core::mcmc::Progress& p);
  /// The stage's line as it would be printed now ("" before any progress): for tests.
  std::string line() const;

 private:
  std::string lineLocked(double elapsed) const;

  double interval_;
  mutable std::mutex mutex_;
  std::string mechanism_, stage_;
  std::vector<core::mcmc::Progress> chains_;
  std::chrono::steady_clock::time_point start_{}, lastLine_{};
};

}  // namespace dpsynth::cli
