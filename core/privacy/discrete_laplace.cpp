/// The noise half of perturbed_histogram.h: random bit sources and the exact discrete Laplace
/// sampler of Canonne, Kamath & Steinke (2020). Everything after the bit source is integer
/// arithmetic, so the output distribution is exactly the one the privacy proof assumes (no
/// floating-point Laplace, whose rounding leaks information).
#include <sys/random.h>

#include <array>
#include <cerrno>
#include <charconv>
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

std::uint64_t decimalMicrosDown(double epsilon, std::uint64_t divisor) {
  if (!std::isfinite(epsilon) || !(epsilon > 0.0))
    throw std::invalid_argument("decimalMicrosDown: epsilon must be finite and > 0");
  if (divisor < 1) throw std::invalid_argument("decimalMicrosDown: the divisor must be >= 1");
  // Shortest round-trip form, "d.ddde±x": the digits D and the exponent of the last digit.
  char buf[64];
  const auto [end, ec] =
      std::to_chars(buf, buf + sizeof buf, epsilon, std::chars_format::scientific);
  if (ec != std::errc()) throw std::invalid_argument("decimalMicrosDown: cannot format epsilon");
  const std::string text(buf, end);
  const std::size_t e = text.find('e');
  unsigned __int128 digits = 0;
  int fraction = 0;
  bool afterPoint = false;
  for (std::size_t i = 0; i < e; ++i) {
    if (text[i] == '.') {
      afterPoint = true;
      continue;
    }
    digits = digits * 10 + static_cast<unsigned>(text[i] - '0');
    if (afterPoint) ++fraction;
  }
  // value = digits · 10^power; times 10^6.
  const int power = std::stoi(text.substr(e + 1)) - fraction + 6;
  constexpr unsigned __int128 kLimit = static_cast<unsigned __int128>(1) << 62;
  unsigned __int128 micros = digits;
  if (power >= 0) {
    for (int k = 0; k < power; ++k) {
      micros *= 10;
      if (micros >= kLimit * divisor)
        throw std::invalid_argument("decimalMicrosDown: epsilon is too large");
    }
  } else {
    for (int k = 0; k < -power && micros > 0; ++k) micros /= 10;
  }
  micros /= divisor;
  if (micros >= kLimit) throw std::invalid_argument("decimalMicrosDown: epsilon is too large");
  return static_cast<std::uint64_t>(micros);
}

void discreteLaplaceRate(double epsilon, int sensitivity, const std::string& what,
                         std::uint64_t& num, std::uint64_t& den) {
  constexpr std::uint64_t kDen = 1'000'000;
  if (!std::isfinite(epsilon) || !(epsilon > 0.0)) {
    throw std::invalid_argument(what + " needs a finite epsilon > 0");
  }
  if (sensitivity != 1 && sensitivity != 2)
    throw std::invalid_argument("discreteLaplaceRate: the L1 sensitivity must be 1 or 2");
  // t = ε/Δ1 = ⌊ε·10^6/Δ1⌋ / 10^6, rounded down from the decimal ε exactly.
  std::uint64_t whole = 0;
  try {
    whole = decimalMicrosDown(epsilon, static_cast<std::uint64_t>(sensitivity));
  } catch (const std::invalid_argument&) {
    throw std::invalid_argument(what + ": epsilon is too large");
  }
  if (whole < 1) {
    throw std::invalid_argument(
        what +
        ": epsilon is too small (the noise rate epsilon/sensitivity is rounded down to a "
        "multiple of 1e-6, so epsilon must be at least " +
        std::string(sensitivity == 2 ? "2e-6" : "1e-6") + ")");
  }
  num = whole;
  den = kDen;
}

void phNoiseRate(double epsilon, int sensitivity, std::uint64_t& num, std::uint64_t& den) {
  discreteLaplaceRate(epsilon, sensitivity, "the perturbed histogram", num, den);
}

}  // namespace dpsynth::core::privacy
