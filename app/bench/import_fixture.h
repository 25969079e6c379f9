#pragma once
/// The CSV-import benchmark's input, shared by the Google Benchmark case (app/bench) and
/// `dpsynth bench` (app/cli): an agency-like extract with an identifier, a count outcome, two
/// numeric covariates and a four-level text covariate. Header-only so that both targets use it
/// without a library of their own.
#include <array>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/data/dataset.h"
#include "core/random/rng.h"

namespace dpsynth::bench {

/// `rows` records of "id,visits,age,income,region" (about 40 bytes a line), the same text for
/// the same rows and seed. visits ~ Poisson(exp(0.5 + 0.01·age + region effect)), so a
/// Poisson fit of the import would be meaningful too.
inline std::string importBenchmarkCsv(std::size_t rows, std::uint64_t seed = 1) {
  namespace rnd = core::random;
  constexpr std::array<const char*, 4> kRegions{"north", "south", "east", "west"};
  constexpr std::array<double, 4> kRegionEffect{0.0, 0.2, -0.1, 0.3};
  rnd::Rng rng = rnd::makeRng(seed);
  std::string text = "id,visits,age,income,region\n";
  text.reserve(text.size() + rows * 44);
  char buffer[64];
  const auto append = [&](auto value, auto... format) {
    const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value, format...);
    text.append(buffer, end);
  };
  for (std::size_t i = 0; i < rows; ++i) {
    const std::int64_t age = 18 + static_cast<std::int64_t>(rnd::uniformIndex(rng, 70));
    const std::size_t region = rnd::uniformIndex(rng, kRegions.size());
    const double income = 15000.0 + 60000.0 * rnd::uniform01(rng);
    const double mean =
        std::exp(0.5 + 0.01 * static_cast<double>(age) + kRegionEffect[region]);
    text += 'P';
    append(static_cast<std::uint64_t>(1000000 + i));
    text += ',';
    append(rnd::poisson(rng, mean));
    text += ',';
    append(age);
    text += ',';
    append(income, std::chars_format::fixed, 2);
    text += ',';
    text += kRegions[region];
    text += '\n';
  }
  return text;
}

/// The columns the benchmark types: visits as a Poisson outcome with age, income and region
/// (three dummies) as covariates; id is read but not used.
inline core::data::DatasetSpec importBenchmarkSpec() {
  core::data::DatasetSpec spec;
  spec.outcome = "visits";
  spec.covariates = {"age", "income", "region"};
  spec.family = core::models::Family::poisson;
  return spec;
}

}  // namespace dpsynth::bench
