#include "core/data/generators.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <stdexcept>

#include "core/data/csv_writer.h"
#include "core/data/quote_value.h"
#include "core/exec/cancellation.h"
#include "core/random/rng.h"

namespace dpsynth::core::data {
namespace {

namespace rnd = core::random;

constexpr std::uint64_t kFirstSampleSeed = 20261122;

std::size_t kindIndex(const std::string& kind) {
  const auto kinds = sampleKinds();
  const auto it = std::find(kinds.begin(), kinds.end(), kind);
  if (it == kinds.end()) {
    std::string known;
    for (const auto& k : kinds) known += (known.empty() ? "" : ", ") + k;
    throw std::invalid_argument("unknown sample kind " + quoteForMessage(kind) + ": use one of " +
                                known);
  }
  return static_cast<std::size_t>(it - kinds.begin());
}

std::string formatCount(std::int64_t value) { return std::to_string(value); }

/// Money with exactly two decimals; std::to_chars rounds the binary value correctly, so the
/// text does not depend on the C library's printf.
std::string formatMoney(double value) {
  char buffer[64];
  const auto [end, ec] =
      std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed, 2);
  return std::string(buffer, end);
}

std::int64_t nbmixValue(rnd::Rng& rng) {
  // The draw of the component comes first so that every record uses the stream the same way.
  const bool overdispersed = rnd::uniform01(rng) < 0.2;
  return rnd::negativeBinomial(rng, 100.0, overdispersed ? 5.0 : 20.0);
}

double betaValue(rnd::Rng& rng) {
  // Beta(0.5, 3) puts much mass near 0, where a gamma ratio can round to exactly 0 (or, in
  // principle, 1); the beta family needs the open interval, so such draws are redrawn.
  double value = 0.0;
  do {
    value = rnd::beta(rng, 0.5, 3.0);
  } while (!(value > 0.0 && value < 1.0));
  return value;
}

std::int64_t poissonValue(rnd::Rng& rng) { return rnd::poisson(rng, 100.0); }

std::vector<std::string> nbmixRecord(rnd::Rng& rng) { return {formatCount(nbmixValue(rng))}; }

std::vector<std::string> betaRecord(rnd::Rng& rng) { return {formatNumber(betaValue(rng))}; }

std::vector<std::string> poissonRecord(rnd::Rng& rng) { return {formatCount(poissonValue(rng))}; }

std::vector<std::string> salaryRecord(rnd::Rng& rng) {
  static constexpr std::array<const char*, 4> kAgeGroups{"16-24", "25-34", "35-49", "50-64"};
  static constexpr std::array<double, 4> kAgeCumulative{0.15, 0.40, 0.75, 1.0};
  static constexpr std::array<double, 4> kAgeEffect{-0.45, -0.05, 0.15, 0.10};
  // One statement per draw: the order of draws must not depend on argument evaluation order.
  const bool male = rnd::uniformIndex(rng, 2) == 1;
  const double u = rnd::uniform01(rng);
  std::size_t age = 0;
  while (age + 1 < kAgeGroups.size() && u >= kAgeCumulative[age]) ++age;
  // 52 − ⌊52·Beta(1, 5)⌋: every value 1..52 possible, mode 52, mean about 43.
  const double shortfall = std::floor(52.0 * rnd::beta(rng, 1.0, 5.0));
  const int weeks = 52 - static_cast<int>(std::min(shortfall, 51.0));
  const double logMean =
      std::log(32000.0) + (male ? 0.12 : 0.0) + kAgeEffect[age] + 0.9 * std::log(weeks / 52.0);
  const double salary = std::max(0.01, std::exp(rnd::normal(rng, logMean, 0.45)));
  return {male ? "M" : "F", kAgeGroups[age], std::to_string(weeks), formatMoney(salary)};
}

}  // namespace

std::vector<std::string> sampleKinds() { return {"nbmix", "beta", "poisson", "salary"}; }

CsvTable generateSample(const std::string& kind, std::size_t n, std::uint64_t seed,
                        const std::stop_token& stop) {
  const std::size_t index = kindIndex(kind);
  if (n == 0) throw std::invalid_argument("generateSample: n must be positive");
  using Generator = std::vector<std::string> (*)(rnd::Rng&);
  static constexpr std::array<Generator, 4> kGenerators{nbmixRecord, betaRecord, poissonRecord,
                                                        salaryRecord};
  static const std::array<std::vector<std::string>, 4> kHeaders{
      std::vector<std::string>{"count"}, std::vector<std::string>{"value"},
      std::vector<std::string>{"count"},
      std::vector<std::string>{"gender", "age_group", "weeks_worked", "salary"}};

  CsvTable table;
  table.file = samplePath(kind);
  table.delimiter = ',';
  table.header = kHeaders[index];
  table.rows = CsvRows(table.header.size());
  table.rows.reserve(n);
  table.lineOfRow.reserve(n);
  rnd::Rng rng = rnd::makeRng(seed, 0);
  for (std::size_t i = 0; i < n; ++i) {
    if ((i & 16383) == 0) exec::throwIfStopped(stop);
    table.rows.push_back(kGenerators[index](rng));
    table.lineOfRow.push_back(i + 2);  // line 1 is the header
  }
  return table;
}

Eigen::VectorXd generateValues(const std::string& kind, std::size_t n, std::uint64_t seed) {
  const std::size_t index = kindIndex(kind);
  if (n == 0) throw std::invalid_argument("generateValues: n must be positive");
  using Generator = double (*)(rnd::Rng&);
  static constexpr std::array<Generator, 3> kGenerators{
      [](rnd::Rng& rng) { return static_cast<double>(nbmixValue(rng)); }, betaValue,
      [](rnd::Rng& rng) { return static_cast<double>(poissonValue(rng)); }};
  if (index >= kGenerators.size()) {
    throw std::invalid_argument("generateValues: " + quoteForMessage(kind) +
                                " has several columns; use generateSample");
  }
  Eigen::VectorXd y(static_cast<Eigen::Index>(n));
  rnd::Rng rng = rnd::makeRng(seed, 0);
  for (Eigen::Index i = 0; i < y.size(); ++i) y[i] = kGenerators[index](rng);
  return y;
}

std::size_t defaultSampleSize(const std::string& kind) {
  kindIndex(kind);  // rejects unknown kinds
  return kind == "beta" ? 2000 : 1000;
}

std::uint64_t defaultSampleSeed(const std::string& kind) {
  return kFirstSampleSeed + kindIndex(kind);
}

std::string samplePath(const std::string& kind) {
  kindIndex(kind);  // rejects unknown kinds
  return "resources/samples/" + kind + ".csv";
}

}  // namespace dpsynth::core::data
