#include "app/cli/cli_common.h"

#include <csignal>
#include <iostream>
#include <mutex>
#include <pthread.h>
#include <stdexcept>
#include <thread>

#include "core/data/data_error.h"

namespace dpsynth::cli {

int guarded(const std::function<int()>& body) {
  try {
    return body();
  } catch (const core::data::DataError& e) {
    std::cerr << "dpsynth: " << e.what() << "\n";
    return kExitBadInput;
  } catch (const std::invalid_argument& e) {
    std::cerr << "dpsynth: " << e.what() << "\n";
    return kExitBadInput;
  } catch (const std::exception& e) {
    std::cerr << "dpsynth: internal error: " << e.what() << "\n";
    return kExitInternal;
  }
}

std::stop_token interruptToken() {
  static std::stop_source source;
  static std::once_flag once;
  std::call_once(once, [] {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    // Blocked here, inherited by every thread started later; only the watcher receives them.
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
    std::thread([set] {
      int sig = 0;
      sigwait(&set, &sig);
      std::cerr << "\ndpsynth: interrupted, stopping (nothing will be written)\n";
      source.request_stop();
    }).detach();
  });
  return source.get_token();
}

}  // namespace dpsynth::cli
