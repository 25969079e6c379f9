#include "core/exec/parallel_for.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace dpsynth::core::exec {

int threadsFor(int threads, std::size_t jobs) {
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  return std::max(1, std::min<int>(threads, static_cast<int>(std::max<std::size_t>(1, jobs))));
}

std::size_t parallelFor(std::size_t count, int threads,
                        const std::function<bool(std::size_t, std::stop_token)>& job,
                        const std::function<void(std::size_t)>& finished, std::stop_token stop) {
  std::atomic<std::size_t> next{0};
  std::mutex mutex;  // guards done, failure and finished()
  std::size_t done = 0;
  std::exception_ptr failure;
  std::stop_source abort;  // set on failure, or forwarded from `stop`
  std::stop_callback forward(stop, [&abort] { abort.request_stop(); });

  auto worker = [&] {
    while (!abort.stop_requested()) {
      const std::size_t i = next.fetch_add(1);
      if (i >= count) return;
      try {
        if (!job(i, abort.get_token())) return;
        std::lock_guard lock(mutex);
        if (failure) return;
        if (finished) finished(i);
        ++done;
      } catch (...) {
        std::lock_guard lock(mutex);
        if (!failure) failure = std::current_exception();
        abort.request_stop();
        return;
      }
    }
  };
  {
    std::vector<std::jthread> pool;
    for (int t = 1; t < threadsFor(threads, count); ++t) pool.emplace_back(worker);
    worker();
  }
  if (failure) std::rethrow_exception(failure);
  return done;
}

}  // namespace dpsynth::core::exec
