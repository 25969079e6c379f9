#include "core/study/study_plan.h"

#include <stdexcept>

#include "core/pipeline/verdict.h"
#include "core/random/rng.h"

namespace dpsynth::core::study {
namespace {

using pipeline::Mechanism;

bool usesWeights(Mechanism m) {
  return m == Mechanism::lw || m == Mechanism::cw || m == Mechanism::lwFinal ||
         m == Mechanism::cwFinal || m == Mechanism::weightedE || m == Mechanism::censorW;
}
bool usesDownscale(Mechanism m) { return m == Mechanism::weightedE || m == Mechanism::censorW; }

int parseCount(const std::string& text, const std::string& whole) {
  std::size_t used = 0;
  long long v = -1;
  try {
    v = std::stoll(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (text.empty() || used != text.size() || v < 0 || v > 1'000'000)
    throw std::invalid_argument("shard '" + whole + "' must be i/N with whole numbers 0 <= i < N");
  return static_cast<int>(v);
}

}  // namespace

pipeline::MechanismConfig StudyCell::mechanismConfig(const StudyConfig& config) const {
  pipeline::MechanismConfig m;
  m.mechanism = mechanism;
  m.epsilon = epsilon;
  if (c) m.c = *c;
  if (g) m.g = *g;
  m.downscale = hasDownscale ? downscale : std::optional<double>(1.0);
  if (mechanism == Mechanism::lwFinal || mechanism == Mechanism::cwFinal) m.k = std::nullopt;
  if (mechanism == Mechanism::ph) {
    m.lower = config.histogram.lower;
    m.upper = config.histogram.upper;
    m.bins = config.histogram.bins;
  }
  return pipeline::withFamilyDefaults(m, config.family());
}

std::vector<StudyCell> studyCells(const StudyConfig& config) {
  std::vector<StudyCell> cells;
  for (Mechanism m : config.mechanisms) {
    std::vector<std::optional<double>> eps{std::nullopt};
    if (pipeline::usesEpsilonTarget(m) && !config.epsilon.empty())
      eps.assign(config.epsilon.begin(), config.epsilon.end());
    std::vector<std::optional<double>> cs{std::nullopt}, gs{std::nullopt};
    if (usesWeights(m)) {
      cs.assign(config.tuning.c.begin(), config.tuning.c.end());
      gs.assign(config.tuning.g.begin(), config.tuning.g.end());
    }
    std::vector<std::optional<double>> ds{std::nullopt};
    if (usesDownscale(m)) ds = config.tuning.downscale;
    for (const auto& e : eps)
      for (const auto& c : cs)
        for (const auto& g : gs)
          for (const auto& d : ds) {
            StudyCell cell;
            cell.mechanism = m;
            cell.epsilon = e;
            cell.c = c;
            cell.g = g;
            cell.hasDownscale = usesDownscale(m);
            cell.downscale = d;
            cells.push_back(cell);
          }
  }
  return cells;
}

std::uint64_t replicateSeed(std::uint64_t seed, int replicate) {
  const std::uint64_t r = static_cast<std::uint64_t>(replicate) + 1;
  return random::splitMix64(random::splitMix64(seed) ^ (r * 0x9E3779B97F4A7C15ULL));
}

Shard Shard::parse(const std::string& text) {
  const auto slash = text.find('/');
  if (slash == std::string::npos)
    throw std::invalid_argument("shard '" + text + "' must be i/N, e.g. 0/3");
  Shard shard;
  shard.index = parseCount(text.substr(0, slash), text);
  shard.count = parseCount(text.substr(slash + 1), text);
  if (shard.count < 1 || shard.index >= shard.count)
    throw std::invalid_argument("shard '" + text + "' must be i/N with 0 <= i < N");
  return shard;
}

std::vector<int> shardReplicates(const StudyConfig& config, const Shard& shard) {
  std::vector<int> out;
  for (int r = 0; r < config.replicates; ++r)
    if (shard.owns(r)) out.push_back(r);
  return out;
}

}  // namespace dpsynth::core::study
