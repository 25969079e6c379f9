#pragma once
/// What every subcommand shares: exit codes, the one place exceptions become messages, Ctrl-C
/// as a cancellation request, and the bounds every numeric flag is checked against.
#include <CLI/CLI.hpp>
#include <concepts>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

namespace dpsynth::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitInternal = 1;
inline constexpr int kExitBadInput = 2;
inline constexpr int kExitCancelled = 130;

/// Runs body; maps DataError / std::invalid_argument to one line on stderr and exit 2, anything
/// else to exit 1. The only place in the command line that catches.
int guarded(const std::function<int()>& body);

/// Splits a flag's text at every `separator`; empty parts are kept ("a,,b" gives three, "a," two),
/// so a stray separator is reported by the caller rather than silently dropped.
std::vector<std::string> splitFlag(const std::string& text, char separator);

/// A stop token that is triggered by SIGINT/SIGTERM (a watcher thread waits on the signals, so
/// no work is done in a signal handler). Call once, before any other thread starts.
std::stop_token interruptToken();
/// True once SIGINT/SIGTERM arrived (false when interruptToken() was never called).
bool interruptRequested();

/// Ends a cancelled command: `message` on stderr, the streams flushed, exit 130 at once. Called
/// where every staged output is already gone (the staging objects live in inner scopes that
/// unwound first) and only memory is left: the kernel reclaims 10^7 records' allocations at once,
/// while freeing them one by one took 100-250 ms after Ctrl-C (SPEC §3: 100 ms).
[[noreturn]] void exitCancelled(std::string_view message);

// ---- Bounds on numbers from the command line -------------------------------------------------
// CLI11 converts "-1" into an unsigned option by wrapping to 2^64-1, and "1e13" into an integer
// option by way of a double; huge sizes then surface as std::bad_alloc (exit 1). A check runs on
// the option's text before any conversion, so attach one to every numeric option:
//
//   cmd->add_option("--draws", o.draws)->check(cli::unsignedDecimal(1, 1'000'000));
//   cmd->add_option("--seed", o.seed)->check(cli::unsignedDecimal(0, UINT64_MAX));
//   cmd->add_option("--epsilon", o.epsilon)->check(cli::finiteNumber(1e-6, 1e6));
//
// A failed check is a CLI::ValidationError, which main() prints as one line and exit 2:
//   dpsynth: --n: 1e13 is not a whole number written in decimal digits; use an integer from 1 to
//   1000000 (see dpsynth --help)
// Values that do not come from CLI11 (a session file, a computed size) go through requireRange,
// which throws std::invalid_argument (exit 2 through guarded()).

/// Accepts only plain decimal digits ("12"; not "-1", "+5", "1e3", "0x10", "1.0", " 7") whose
/// value lies in [lo, hi]; the message says what to write instead.
CLI::Validator unsignedDecimal(std::uint64_t lo, std::uint64_t hi);

/// Accepts a finite decimal number ("0.5", "-2", "1e-3"; not "inf", "nan", "1e400", "0x1p3")
/// in [lo, hi].
CLI::Validator finiteNumber(double lo, double hi);

/// Accepts any path but the empty one: `--report ""` (a script's unset variable) would
/// otherwise write nothing and still exit 0.
CLI::Validator pathGiven();

namespace detail {
std::string describeNumber(double value);
std::string describeNumber(std::uint64_t value);
std::string describeNumber(std::int64_t value);
}  // namespace detail

/// Throws std::invalid_argument("NAME must be between LO and HI (got VALUE)[; WHAT]") unless
/// lo <= value <= hi (NaN is always out of range). For values checked after parsing, e.g.
/// requireRange("--draws", o.draws, 1, 1'000'000, "fewer draws per chain").
template <typename T>
requires std::integral<T> || std::floating_point<T>
void requireRange(std::string_view name, T value, T lo, T hi, std::string_view what = {}) {
  if (value >= lo && value <= hi) return;
  using Shown =
      std::conditional_t<std::floating_point<T>, double,
                         std::conditional_t<std::signed_integral<T>, std::int64_t, std::uint64_t>>;
  std::string message = std::string(name) + " must be between " +
                        detail::describeNumber(static_cast<Shown>(lo)) + " and " +
                        detail::describeNumber(static_cast<Shown>(hi)) + " (got " +
                        detail::describeNumber(static_cast<Shown>(value)) + ")";
  if (!what.empty()) message += "; " + std::string(what);
  throw std::invalid_argument(message);
}

}  // namespace dpsynth::cli
