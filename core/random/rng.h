#pragma once
/// Explicit, portable randomness. Every random number in dpsynth comes from an `Rng` handed down
/// from `makeRng(seed, stream)`; nothing is global. The engine is std::mt19937_64, whose output
/// sequence the C++ standard fixes; the distributions below are our own so that the same seed
/// gives the same numbers with any standard library.
#include <cstdint>
#include <random>

#include "core/random/seed.h"

namespace dpsynth::core::random {

using Rng = std::mt19937_64;

/// An independent stream for (seed, stream), e.g. stream = chain index. Both are mixed through
/// SplitMix64 so that neighbouring seeds and streams give unrelated sequences. A 128-bit seed
/// (Seed::hi != 0) seeds the engine with all 128 bits.
Rng makeRng(Seed seed, std::uint64_t stream = 0);

/// SplitMix64 finaliser; exposed for deriving sub-seeds.
std::uint64_t splitMix64(std::uint64_t x);

/// Uniform on [0, 1) with 53 random bits.
double uniform01(Rng& rng);
/// Uniform on the open interval (0, 1): never returns 0 (safe for logarithms).
double uniformOpen01(Rng& rng);
/// Uniform integer in [0, n) without modulo bias. n must be > 0.
std::uint64_t uniformIndex(Rng& rng, std::uint64_t n);
double standardNormal(Rng& rng);
double normal(Rng& rng, double mean, double sd);
double exponential(Rng& rng, double rate);
/// Gamma(shape, rate=1) by Marsaglia–Tsang (shape < 1 handled by boosting).
double gamma(Rng& rng, double shape);
double beta(Rng& rng, double a, double b);
/// Poisson(mean); exact for every mean (inversion for small means, PTRS for large).
std::int64_t poisson(Rng& rng, double mean);
/// NB2 with mean mu and size phi: Poisson(Gamma(phi, rate = phi / mu)).
std::int64_t negativeBinomial(Rng& rng, double mu, double phi);
/// A Poisson count as a double, for every mean ≥ 0 including the ones a 64-bit count cannot
/// hold: up to 2⁶¹ exactly poisson() (the same draws), above it the normal approximation
/// round(mean + √mean·z) (relative sd below 1e-9 there), and for an infinite mean the largest
/// finite double. A synthetic outcome drawn at parameters far in the prior's tail is then a
/// (huge) number rather than a failure that withholds the release. NaN or a negative mean
/// throws std::invalid_argument.
double poissonCount(Rng& rng, double mean);
/// negativeBinomial as poissonCount: the gamma-mixed mean may be any size, even infinite.
double negativeBinomialCount(Rng& rng, double mu, double phi);
/// Student-t with nu degrees of freedom.
double studentT(Rng& rng, double nu);
double cauchy(Rng& rng, double location, double scale);

}  // namespace dpsynth::core::random
