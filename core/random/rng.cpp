#include "core/random/rng.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>

namespace dpsynth::core::random {

std::uint64_t splitMix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

Rng makeRng(Seed full, std::uint64_t stream) {
  const std::uint64_t seed = full.lo;
  if (!full.isUserSeed()) {
    const std::uint64_t a = splitMix64(full.lo), b = splitMix64(full.hi ^ a);
    const std::uint64_t c = splitMix64(b ^ stream);
    std::seed_seq seq{static_cast<std::uint32_t>(a), static_cast<std::uint32_t>(a >> 32),
                      static_cast<std::uint32_t>(b), static_cast<std::uint32_t>(b >> 32),
                      static_cast<std::uint32_t>(c), static_cast<std::uint32_t>(c >> 32)};
    return Rng(seq);
  }
  // Two rounds of mixing so that (seed, stream) and (seed + 1, stream - 1) stay unrelated.
  std::seed_seq seq{static_cast<std::uint32_t>(splitMix64(seed)),
                    static_cast<std::uint32_t>(splitMix64(seed) >> 32),
                    static_cast<std::uint32_t>(splitMix64(splitMix64(seed) ^ stream)),
                    static_cast<std::uint32_t>(splitMix64(splitMix64(seed) ^ stream) >> 32)};
  return Rng(seq);
}

double uniform01(Rng& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

double uniformOpen01(Rng& rng) {
  // (k + 0.5) / 2^53 for k in [0, 2^53): symmetric, never 0 or 1.
  return (static_cast<double>(rng() >> 11) + 0.5) * 0x1.0p-53;
}

std::uint64_t uniformIndex(Rng& rng, std::uint64_t n) {
  if (n == 0) throw std::invalid_argument("uniformIndex: n must be positive");
  // Rejection of the incomplete top block (Lemire's threshold) keeps it unbiased.
  const std::uint64_t threshold = (0 - n) % n;
  for (;;) {
    const std::uint64_t r = rng();
    if (r >= threshold) return r % n;
  }
}

double standardNormal(Rng& rng) {
  // Marsaglia's polar method; the second value is discarded so that the state is a pure
  // function of the number of calls (no hidden cache).
  for (;;) {
    const double u = 2.0 * uniform01(rng) - 1.0;
    const double v = 2.0 * uniform01(rng) - 1.0;
    const double s = u * u + v * v;
    if (s > 0.0 && s < 1.0) return u * std::sqrt(-2.0 * std::log(s) / s);
  }
}

double normal(Rng& rng, double mean, double sd) { return mean + sd * standardNormal(rng); }

double exponential(Rng& rng, double rate) { return -std::log(uniformOpen01(rng)) / rate; }

double gamma(Rng& rng, double shape) {
  if (!(shape > 0.0)) throw std::invalid_argument("gamma: shape must be positive");
  if (shape < 1.0) {
    // Gamma(a) = Gamma(a + 1) · U^(1/a).
    const double g = gamma(rng, shape + 1.0);
    return g * std::pow(uniformOpen01(rng), 1.0 / shape);
  }
  const double d = shape - 1.0 / 3.0;
  const double c = 1.0 / std::sqrt(9.0 * d);
  for (;;) {
    double x, v;
    do {
      x = standardNormal(rng);
      v = 1.0 + c * x;
    } while (v <= 0.0);
    v = v * v * v;
    const double u = uniformOpen01(rng);
    if (u < 1.0 - 0.0331 * x * x * x * x) return d * v;
    if (std::log(u) < 0.5 * x * x + d * (1.0 - v + std::log(v))) return d * v;
  }
}

double beta(Rng& rng, double a, double b) {
  const double x = gamma(rng, a);
  const double y = gamma(rng, b);
  return x / (x + y);
}

namespace {

std::int64_t poissonInversion(Rng& rng, double mean) {
  const double limit = std::exp(-mean);
  std::int64_t k = 0;
  double p = uniform01(rng);
  while (p > limit) {
    ++k;
    p *= uniform01(rng);
  }
  return k;
}

/// PTRS: transformed rejection with squeeze (Hörmann 1993), exact for mean >= 10.
std::int64_t poissonPtrs(Rng& rng, double mean) {
  const double slam = std::sqrt(mean);
  const double loglam = std::log(mean);
  const double b = 0.931 + 2.53 * slam;
  const double a = -0.059 + 0.02483 * b;
  const double invalpha = 1.1239 + 1.1328 / (b - 3.4);
  const double vr = 0.9277 - 3.6224 / (b - 2.0);
  for (;;) {
    const double u = uniform01(rng) - 0.5;
    const double v = uniformOpen01(rng);
    const double us = 0.5 - std::fabs(u);
    const double k = std::floor((2.0 * a / us + b) * u + mean + 0.43);
    if (us >= 0.07 && v <= vr) return static_cast<std::int64_t>(k);
    if (k < 0.0 || (us < 0.013 && v > us)) continue;
    if (std::log(v) + std::log(invalpha) - std::log(a / (us * us) + b) <=
        -mean + k * loglam - std::lgamma(k + 1.0)) {
      return static_cast<std::int64_t>(k);
    }
  }
}

}  // namespace

std::int64_t poisson(Rng& rng, double mean) {
  if (!(mean >= 0.0) || !std::isfinite(mean))
    throw std::invalid_argument("poisson: mean must be finite and non-negative");
  // Above it a draw could pass 2⁶³, where the conversion to a count is undefined (it gave the
  // smallest 64-bit integer): a clear failure instead of a wrong file.
  if (mean > 0x1p61)
    throw std::overflow_error(
        "poisson: a mean above 2^61 gives counts a 64-bit integer cannot hold");
  if (mean == 0.0) return 0;
  return mean < 10.0 ? poissonInversion(rng, mean) : poissonPtrs(rng, mean);
}

std::int64_t negativeBinomial(Rng& rng, double mu, double phi) {
  if (mu == 0.0) return 0;
  return poisson(rng, gamma(rng, phi) * mu / phi);
}

double poissonCount(Rng& rng, double mean) {
  if (!(mean >= 0.0)) throw std::invalid_argument("poisson: mean must be non-negative");
  if (mean <= 0x1p61) return static_cast<double>(poisson(rng, mean));
  if (!std::isfinite(mean)) return std::numeric_limits<double>::max();
  const double draw = std::round(mean + std::sqrt(mean) * standardNormal(rng));
  return std::min(draw, std::numeric_limits<double>::max());
}

double negativeBinomialCount(Rng& rng, double mu, double phi) {
  if (mu == 0.0) return 0.0;
  if (!(mu > 0.0) || !(phi > 0.0))
    throw std::invalid_argument("negative binomial: mean and size must be positive");
  if (!std::isfinite(mu)) return std::numeric_limits<double>::max();
  return poissonCount(rng, gamma(rng, phi) * mu / phi);
}

double studentT(Rng& rng, double nu) {
  const double z = standardNormal(rng);
  const double chi2 = 2.0 * gamma(rng, nu / 2.0);
  return z / std::sqrt(chi2 / nu);
}

double cauchy(Rng& rng, double location, double scale) {
  return location + scale * std::tan(std::numbers::pi * (uniformOpen01(rng) - 0.5));
}

}  // namespace dpsynth::core::random
