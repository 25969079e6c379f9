#include "core/mcmc/nuts_config.h"

#include <cmath>
#include <stdexcept>

namespace dpsynth::core::mcmc {

namespace {

/// Beyond this depth one iteration costs over a million gradients: almost surely a typo.
constexpr int kMaxAllowedTreeDepth = 20;

}  // namespace

std::string metricChoiceName(MetricChoice choice) {
  switch (choice) {
    case MetricChoice::automatic:
      return "auto";
    case MetricChoice::diag:
      return "diag";
    case MetricChoice::dense:
      return "dense";
  }
  return "auto";
}

MetricChoice parseMetricChoice(const std::string& name) {
  if (name == "auto") return MetricChoice::automatic;
  if (name == "diag") return MetricChoice::diag;
  if (name == "dense") return MetricChoice::dense;
  throw std::invalid_argument("unknown metric '" + name + "': use auto, diag or dense");
}

std::vector<std::string> NutsConfig::validate() const {
  std::vector<std::string> problems;
  if (chains < 1)
    problems.push_back("chains must be at least 1 (got " + std::to_string(chains) + ")");
  if (warmup < 0) problems.push_back("warmup must be >= 0 (got " + std::to_string(warmup) + ")");
  if (draws < 1) problems.push_back("draws must be at least 1 (got " + std::to_string(draws) + ")");
  if (threads < 0) problems.push_back("threads must be >= 0 (got " + std::to_string(threads) + ")");
  const long long stored = static_cast<long long>(chains) * draws;
  if (stored > kMaxStoredDraws) {
    problems.push_back("chains × draws must be at most " + std::to_string(kMaxStoredDraws) +
                       " (got " + std::to_string(stored) +
                       "): every draw is kept in memory; use fewer chains or draws");
  }
  const long long iterations =
      static_cast<long long>(chains) * (static_cast<long long>(warmup) + draws);
  if (iterations > kMaxIterations) {
    problems.push_back("chains × (warmup + draws) must be at most " +
                       std::to_string(kMaxIterations) + " (got " + std::to_string(iterations) +
                       "): use fewer chains, warm-up or draws");
  }
  if (maxTreeDepth < 1 || maxTreeDepth > kMaxAllowedTreeDepth) {
    problems.push_back("maxTreeDepth must be between 1 and " +
                       std::to_string(kMaxAllowedTreeDepth) + " (got " +
                       std::to_string(maxTreeDepth) + ")");
  }
  if (!(targetAccept > 0.0 && targetAccept < 1.0)) {
    problems.push_back("targetAccept must lie strictly between 0 and 1 (got " +
                       std::to_string(targetAccept) + ")");
  }
  if (!(initRadius >= 0.0 && std::isfinite(initRadius))) {
    problems.push_back("initRadius must be finite and >= 0 (got " + std::to_string(initRadius) +
                       ")");
  }
  if (metric != MetricChoice::automatic && metric != MetricChoice::diag &&
      metric != MetricChoice::dense) {
    problems.push_back("metric must be auto, diag or dense (got " +
                       std::to_string(static_cast<int>(metric)) + ")");
  }
  if (progressEvery < 1) {
    problems.push_back("progressEvery must be at least 1 (got " + std::to_string(progressEvery) +
                       ")");
  }
  if (!inits.empty()) {
    if (static_cast<int>(inits.size()) != chains) {
      problems.push_back("inits must hold one vector per chain (" + std::to_string(chains) +
                         "), got " + std::to_string(inits.size()));
    }
    for (std::size_t c = 0; c < inits.size(); ++c) {
      if (inits[c].size() != inits.front().size()) {
        problems.push_back("inits[" + std::to_string(c) + "] has size " +
                           std::to_string(inits[c].size()) + ", inits[0] has size " +
                           std::to_string(inits.front().size()));
      }
      if (!inits[c].allFinite()) {
        problems.push_back("inits[" + std::to_string(c) + "] contains a non-finite value");
      }
    }
  }
  return problems;
}

}  // namespace dpsynth::core::mcmc
