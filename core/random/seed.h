#pragma once
/// The seed of a run. A reproducible (study/test) run has a small user-given seed: `lo` holds it
/// and `hi` is 0, which gives exactly the streams earlier versions gave for that number. A
/// release run draws both words from the operating system's CSPRNG (128 bits), so nobody can
/// replay it, and writes the seed into no file (SPEC §0).
#include <cstddef>
#include <cstdint>

namespace dpsynth::core::random {

struct Seed {
  std::uint64_t lo = 1;
  std::uint64_t hi = 0;

  constexpr Seed() = default;
  /// A user-given seed (studies, tests, `--seed S`).
  constexpr Seed(std::uint64_t value) : lo(value) {}  // NOLINT: a number is a seed
  constexpr Seed(std::uint64_t low, std::uint64_t high) : lo(low), hi(high) {}

  /// True for a seed a user could have typed (hi == 0): such a seed may be printed.
  constexpr bool isUserSeed() const { return hi == 0; }
  friend constexpr bool operator==(const Seed&, const Seed&) = default;
};

/// 128 bits from the operating system's CSPRNG (getrandom(2)); never a user seed (hi != 0).
Seed osSeed();

/// Fills `words` 64-bit words from the operating system's CSPRNG. Throws std::runtime_error when
/// the system call fails.
void osRandomWords(std::uint64_t* words, std::size_t count);

/// A sub-seed for one purpose (a stage kind, the PH noise, ...). For user seeds it is
/// {splitMix64(lo ^ tag), 0}, the derivation of earlier versions; for 128-bit seeds both words
/// are mixed, so the sub-seed keeps 128 bits.
Seed deriveSeed(Seed seed, std::uint64_t tag);

}  // namespace dpsynth::core::random
