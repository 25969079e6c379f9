#include "app/cli/cli_common.h"

#include <pthread.h>

#include <atomic>
#include <charconv>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "core/data/csv_writer.h"
#include "core/data/data_error.h"
#include "core/data/quote_value.h"
#include "core/data/value_parsing.h"
#include "core/error.h"
#include "core/exec/cancellation.h"

namespace dpsynth::cli {

int guarded(const std::function<int()>& body) {
  try {
    const int status = body();
    // Ctrl-C after the last check: the command finished; say so rather than leave the user
    // wondering whether the files are whole.
    if (status == kExitOk && interruptRequested())
      std::cerr << "dpsynth: the interrupt came after the last point where the command could "
                   "stop; it finished and every file it lists is complete\n";
    return status;
  } catch (const core::exec::Cancelled&) {
    // A stop that unwound past the command's own handling: still nothing half-written (every
    // output is staged and the staging went with the unwinding).
    std::cerr << "dpsynth: cancelled; no files were written\n";
    return kExitCancelled;
  } catch (const std::bad_alloc&) {
    std::cerr << "dpsynth: out of memory: the input or the settings ask for more memory than "
                 "this machine has; use a smaller file, fewer chains, draws or datasets\n";
    return kExitBadInput;
  } catch (const std::exception& e) {
    // core::classify is the one place that tells the user's errors from the tool's.
    if (core::classify(e) == core::Error::Kind::badInput) {
      std::cerr << "dpsynth: " << e.what() << "\n";
      return kExitBadInput;
    }
    std::cerr << "dpsynth: internal error: " << e.what() << "\n";
    return kExitInternal;
  }
}

namespace {

/// The user's text, shortened and escaped for a one-line message.
std::string shown(const std::string& text) { return core::data::quoteForMessage(text, 40); }

}  // namespace

CLI::Validator unsignedDecimal(std::uint64_t lo, std::uint64_t hi) {
  const std::string range = "an integer from " + std::to_string(lo) + " to " + std::to_string(hi);
  return CLI::Validator(
      [lo, hi, range](std::string& text) -> std::string {
        const bool digitsOnly =
            !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
        if (!digitsOnly) {
          return shown(text) + " is not a whole number written in decimal digits; use " + range;
        }
        std::uint64_t value = 0;
        const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (ec != std::errc{} || ptr != text.data() + text.size() || value < lo || value > hi) {
          return shown(text) + " is out of range; use " + range;
        }
        return {};
      },
      range, "UNSIGNED_DECIMAL");
}

CLI::Validator pathGiven() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        return text.empty() ? "the path is empty; give a file or folder name" : std::string();
      },
      "", "PATH");
}

CLI::Validator finiteNumber(double lo, double hi) {
  const std::string range =
      "a number from " + detail::describeNumber(lo) + " to " + detail::describeNumber(hi);
  return CLI::Validator(
      [lo, hi, range](std::string& text) -> std::string {
        const auto value = core::data::parseNumber(text);
        if (!value) return shown(text) + " is not a finite decimal number; use " + range;
        if (!(*value >= lo && *value <= hi)) return shown(text) + " is out of range; use " + range;
        return {};
      },
      range, "FINITE_NUMBER");
}

namespace detail {
std::string describeNumber(double value) { return core::data::formatNumber(value); }
std::string describeNumber(std::uint64_t value) { return std::to_string(value); }
std::string describeNumber(std::int64_t value) { return std::to_string(value); }
}  // namespace detail

namespace {

std::stop_source& interruptSource() {
  static std::stop_source source;
  return source;
}

std::atomic<bool> interruptWatched{false};

}  // namespace

std::stop_token interruptToken() {
  static std::once_flag once;
  std::call_once(once, [] {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);  // the terminal closed: stop as cleanly as at Ctrl-C
    // Blocked here, inherited by every thread started later; only the watcher receives them.
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
    interruptWatched = true;
    std::thread([set] {
      int sig = 0;
      sigwait(&set, &sig);
      // What was kept is said by the command when it stops (a study keeps its complete
      // replicates; a command past its last check finishes and says so): never promised here.
      std::cerr << "\ndpsynth: interrupted, stopping\n";
      interruptSource().request_stop();
    }).detach();
  });
  return interruptSource().get_token();
}

void exitCancelled(std::string_view message) {
  std::cerr << message << std::flush;
  std::cout.flush();
  std::fflush(nullptr);
  std::_Exit(kExitCancelled);
}

bool interruptRequested() { return interruptWatched && interruptSource().stop_requested(); }

std::vector<std::string> splitFlag(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::stringstream stream(text);
  std::string part;
  while (std::getline(stream, part, separator)) parts.push_back(part);
  if (!text.empty() && text.back() == separator) parts.emplace_back();
  return parts;
}

}  // namespace dpsynth::cli
