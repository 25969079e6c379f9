#pragma once
/// The stop source of a worker's current run, shared by the studio's workers. next() stops the
/// previous run and hands out the new run's token, which then travels with the queued call, so
/// a later start() or cancel() cannot mix up which run it refers to; cancel() stops the current
/// run from any thread (no queued slot: the worker's thread is busy running).
#include <mutex>
#include <stop_token>

namespace dpsynth::ui {

class RunStopper {
 public:
  std::stop_token next() {
    const std::lock_guard lock(mutex_);
    stop_.request_stop();  // the previous run, if any
    stop_ = std::stop_source();
    return stop_.get_token();
  }
  void cancel() {
    const std::lock_guard lock(mutex_);
    stop_.request_stop();
  }

 private:
  std::mutex mutex_;
  std::stop_source stop_;
};

}  // namespace dpsynth::ui
