/// The noise half of perturbed_histogram.h: random bit sources and the exact discrete Laplace
/// sampler of Canonne, Kamath & Steinke (2020). Everything after the bit source is integer
/// arithmetic, so the output distribution is exactly the one the privacy proof assumes (no
/// floating-point Laplace, whose rounding leaks information).
#include <sys/random.h>

#include <array>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>

#include "core/privacy/perturbed_histogram.h"

namespace dpsynth::core::privacy {

namespace {

class OsRandomSource final : public BitSource {
 public:
  std::uint64_t next64() override {
    if (used_ == buffer_.size()) refill();
    return buffer_[used_++];
  }

 private:
  /// One system call per 64 words.
  void refill() {
    random::osRandomWords(buffer_.data(), buffer_.size());
    used_ = 0;
  }

  std::array<std::uint64_t, 64> buffer_{};
  std::size_t used_ = buffer_.size();
};

class SeededSource final : public BitSource {
 public:
  explicit SeededSource(random::Seed seed) : rng_(random::makeRng(seed, 0)) {}
  std::uint64_t next64() override { return rng_(); }

 private:
  random::Rng rng_;
};

/// Uniform integer in [0, n), n > 0, by rejecting the incomplete top block (no modulo bias).
std::uint64_t uniformBelow(BitSource& bits, std::uint64_t n) {
  const std::uint64_t threshold = (0 - n) % n;
  for (;;) {
    const std::uint64_t r = bits.next64();
    if (r >= threshold) return r % n;
  }
}

std::uint64_t checkedMul(std::uint64_t a, std::uint64_t b) {
  std::uint64_t out;
  if (__builtin_mul_overflow(a, b, &out)) {
    throw std::overflow_error("discreteLaplace: integer overflow");
  }
  return out;
}

/// Bernoulli(num/den), 0 <= num <= den.
bool bernoulli(BitSource& bits, std::uint64_t num, std::uint64_t den) {
  return uniformBelow(bits, den) < num;
}

/// Bernoulli(exp(-num/den)) for 0 <= num/den <= 1: with K the first k >= 1 for which a
/// Bernoulli(gamma/k) fails, P(K odd) = exp(-gamma).
bool bernoulliExpUnit(BitSource& bits, std::uint64_t num, std::uint64_t den) {
  std::uint64_t k = 1;
  while (bernoulli(bits, num, checkedMul(den, k))) ++k;
  return (k % 2) == 1;
}

/// Number of successes before the first failure of Bernoulli(exp(-1)) trials:
/// P(V = v) = (1 - e^-1) e^-v.
std::uint64_t geometricExpOne(BitSource& bits) {
  std::uint64_t v = 0;
  while (bernoulliExpUnit(bits, 1, 1)) ++v;
  return v;
}

/// P(G = g) proportional to exp(-g num/den), g >= 0. U uniform on [0, den) kept with probability
/// exp(-U/den) and V ~ geometricExpOne give V den + U with P ∝ exp(-x/den); dividing by num
/// (rounding down) yields the rate num/den.
std::uint64_t geometricExp(BitSource& bits, std::uint64_t num, std::uint64_t den) {
  std::uint64_t u;
  do {
    u = uniformBelow(bits, den);
  } while (!bernoulliExpUnit(bits, u, den));
  const std::uint64_t v = geometricExpOne(bits);
  std::uint64_t x;
  if (__builtin_add_overflow(checkedMul(v, den), u, &x)) {
    throw std::overflow_error("discreteLaplace: integer overflow");
  }
  return x / num;
}

}  // namespace

std::unique_ptr<BitSource> makeOsRandomSource() { return std::make_unique<OsRandomSource>(); }

std::unique_ptr<BitSource> makeSeededSource(random::Seed seed) {
  return std::make_unique<SeededSource>(seed);
}

std::int64_t discreteLaplace(BitSource& bits, std::uint64_t num, std::uint64_t den) {
  if (num == 0 || den == 0) {
    throw std::invalid_argument("discreteLaplace: the rate num/den must be positive");
  }
  const std::uint64_t common = std::gcd(num, den);
  num /= common;
  den /= common;
  // Keeps den * k in bernoulliExpUnit far from overflow (k is almost surely tiny).
  if (den > (std::uint64_t{1} << 40)) {
    throw std::invalid_argument("discreteLaplace: the denominator must be at most 2^40");
  }
  for (;;) {
    const bool negative = (bits.next64() & 1u) != 0;
    const std::uint64_t magnitude = geometricExp(bits, num, den);
    // Without this rejection 0 would be drawn twice as often as it should (as +0 and -0).
    if (negative && magnitude == 0) continue;
    if (magnitude > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
      throw std::overflow_error("discreteLaplace: sample out of range");
    }
    const auto m = static_cast<std::int64_t>(magnitude);
    return negative ? -m : m;
  }
}

void discreteLaplaceRate(double epsilon, int sensitivity, const std::string& what,
                         std::uint64_t& num, std::uint64_t& den) {
  constexpr double kDen = 1e6;
  if (!std::isfinite(epsilon) || !(epsilon > 0.0)) {
    throw std::invalid_argument(what + " needs a finite epsilon > 0");
  }
  if (sensitivity != 1 && sensitivity != 2)
    throw std::invalid_argument("discreteLaplaceRate: the L1 sensitivity must be 1 or 2");
  // t = epsilon/Δ1 = epsilon * (10^6/Δ1) / 10^6 (10^6/Δ1 is exact for Δ1 = 1, 2). Round the EXACT
  // product down: when the floating-point product rounds up onto an integer, step back one (fma
  // gives the exact error).
  const double scale = kDen / sensitivity;
  const double product = epsilon * scale;
  if (product >= 0x1.0p62) throw std::invalid_argument(what + ": epsilon is too large");
  double whole = std::floor(product);
  if (whole == product && std::fma(epsilon, scale, -product) < 0.0) whole -= 1.0;
  if (whole < 1.0) {
    throw std::invalid_argument(
        what + ": epsilon is too small (the noise rate epsilon/sensitivity is rounded down to a "
               "multiple of 1e-6, so epsilon must be at least " +
        std::string(sensitivity == 2 ? "2e-6" : "1e-6") + ")");
  }
  num = static_cast<std::uint64_t>(whole);
  den = static_cast<std::uint64_t>(kDen);
}

void phNoiseRate(double epsilon, int sensitivity, std::uint64_t& num, std::uint64_t& den) {
  discreteLaplaceRate(epsilon, sensitivity, "the perturbed histogram", num, den);
}

}  // namespace dpsynth::core::privacy
