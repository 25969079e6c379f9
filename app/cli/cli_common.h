#pragma once
/// What every subcommand shares: exit codes, the one place exceptions become messages, and
/// Ctrl-C as a cancellation request.
#include <functional>
#include <stop_token>
#include <string>

namespace dpsynth::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitInternal = 1;
inline constexpr int kExitBadInput = 2;
inline constexpr int kExitCancelled = 130;

/// Runs body; maps DataError / std::invalid_argument to one line on stderr and exit 2, anything
/// else to exit 1. The only place in the command line that catches.
int guarded(const std::function<int()>& body);

/// A stop token that is triggered by SIGINT/SIGTERM (a watcher thread waits on the signals, so
/// no work is done in a signal handler). Call once, before any other thread starts.
std::stop_token interruptToken();

}  // namespace dpsynth::cli
