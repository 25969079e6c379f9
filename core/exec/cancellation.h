#pragma once
/// Ctrl-C inside long computations that are not a sampler's iterations: typing and grouping 10^7
/// records, an IRLS fit on them, drawing and writing a synthetic dataset. Such code checks its
/// std::stop_token every few milliseconds of work (SPEC §3: a cancelled run ends within 100 ms)
/// and unwinds with Cancelled. The functions a front end calls (pipeline::runMechanisms,
/// report::exportRun, pipeline::synthesize...) catch it and return a cancelled status, so it
/// never reaches a user as an error; the command line maps a stray one to exit 130.
#include <exception>
#include <stop_token>

namespace dpsynth::core::exec {

class Cancelled : public std::exception {
 public:
  const char* what() const noexcept override { return "cancelled"; }
};

/// Throws Cancelled when a stop was requested.
inline void throwIfStopped(const std::stop_token& stop) {
  if (stop.stop_requested()) throw Cancelled();
}

/// Counts work between checks so that a check costs nothing in a hot loop: tick() once per unit
/// (a record, a row), and every `every` units the token is looked at.
class StopCheck {
 public:
  explicit StopCheck(std::stop_token stop, unsigned every = 1u << 14)
      : stop_(std::move(stop)), every_(every) {}
  void tick() {
    if (++count_ >= every_) {
      count_ = 0;
      throwIfStopped(stop_);
    }
  }
  const std::stop_token& token() const { return stop_; }

 private:
  std::stop_token stop_;
  unsigned every_;
  unsigned count_ = 0;
};

}  // namespace dpsynth::core::exec
