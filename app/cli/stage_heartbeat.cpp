#include "app/cli/stage_heartbeat.h"

#include <cmath>
#include <iostream>
#include <sstream>

namespace dpsynth::cli {

void StageHeartbeat::started(const std::string& mechanism, const std::string& stage) {
  std::lock_guard lock(mutex_);
  mechanism_ = mechanism;
  stage_ = stage;
  chains_.clear();
  start_ = lastLine_ = std::chrono::steady_clock::now();
}

void StageHeartbeat::progress(const std::string& stage, const core::mcmc::Progress& p) {
  std::lock_guard lock(mutex_);
  if (stage != stage_ || p.chain < 0) return;
  if (chains_.size() <= static_cast<std::size_t>(p.chain))
    chains_.resize(static_cast<std::size_t>(p.chain) + 1);
  chains_[static_cast<std::size_t>(p.chain)] = p;
  const auto now = std::chrono::steady_clock::now();
  if (std::chrono::duration<double>(now - lastLine_).count() < interval_) return;
  lastLine_ = now;
  std::cerr << lineLocked(std::chrono::duration<double>(now - start_).count()) << std::flush;
}

std::string StageHeartbeat::line() const {
  std::lock_guard lock(mutex_);
  return lineLocked(
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count());
}

std::string StageHeartbeat::lineLocked(double elapsed) const {
  long done = 0, total = 0;
  int warming = 0, known = 0;
  for (const auto& c : chains_) {
    if (c.total <= 0) continue;
    ++known;
    done += c.iteration;
    total += c.total;
    warming += c.inWarmup ? 1 : 0;
  }
  if (total == 0) return {};
  std::ostringstream out;
  out << "  " << mechanism_ << " stage " << stage_ << ": "
      << std::lround(100.0 * static_cast<double>(done) / static_cast<double>(total)) << "% ("
      << (warming == 0       ? "sampling"
          : warming == known ? "warm-up"
                             : "warm-up and sampling")
      << "), " << std::lround(elapsed) << " s\n";
  return out.str();
}

}  // namespace dpsynth::cli
