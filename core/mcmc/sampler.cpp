#include "core/mcmc/sampler.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>

#include "core/mcmc/chain_runner.h"

namespace dpsynth::core::mcmc {

long long SampleResult::gradientEvaluations() const {
  long long total = 0;
  for (const ChainResult& chain : chains) total += chain.gradientEvaluations;
  return total;
}

int SampleResult::divergences() const {
  int total = 0;
  for (const ChainResult& chain : chains) total += chain.divergences;
  return total;
}

int SampleResult::treeDepthSaturated() const {
  int total = 0;
  for (const ChainResult& chain : chains) total += chain.treeDepthSaturated;
  return total;
}

MetricKind SampleResult::metric() const {
  return chains.empty() ? MetricKind::diag : chains.front().metric;
}

MetricKind resolveMetric(MetricChoice choice, const models::Model& model) {
  switch (choice) {
    case MetricChoice::diag:
      return MetricKind::diag;
    case MetricChoice::dense:
      return MetricKind::dense;
    case MetricChoice::automatic:
      return model.correlatedCoordinates() && model.dim() <= kAutoDenseMaxDim ? MetricKind::dense
                                                                              : MetricKind::diag;
  }
  return MetricKind::diag;
}

Eigen::MatrixXd SampleResult::pooled() const {
  if (chains.empty()) return {};
  Eigen::Index rows = 0;
  for (const ChainResult& chain : chains) rows += chain.draws.rows();
  Eigen::MatrixXd all(rows, chains.front().draws.cols());
  Eigen::Index row = 0;
  for (const ChainResult& chain : chains) {
    all.middleRows(row, chain.draws.rows()) = chain.draws;
    row += chain.draws.rows();
  }
  return all;
}

namespace {

void checkArguments(const models::Model& model, const NutsConfig& config) {
  const std::vector<std::string> problems = config.validate();
  if (!problems.empty()) {
    std::string message = "invalid sampler configuration: ";
    for (std::size_t i = 0; i < problems.size(); ++i) {
      if (i > 0) message += "; ";
      message += problems[i];
    }
    throw std::invalid_argument(message);
  }
  if (model.dim() < 1) throw std::invalid_argument("the model has no parameters to sample");
  for (std::size_t c = 0; c < config.inits.size(); ++c) {
    if (config.inits[c].size() != model.dim()) {
      throw std::invalid_argument("inits[" + std::to_string(c) + "] has size " +
                                  std::to_string(config.inits[c].size()) +
                                  " but the model has dimension " + std::to_string(model.dim()));
    }
  }
}

int workerCount(const NutsConfig& config) {
  int threads = config.threads;
  if (threads == 0) {
    threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  }
  return std::min(threads, config.chains);
}

}  // namespace

SampleResult sample(const models::Model& model, const NutsConfig& config, std::stop_token stop,
                    SamplerObserver* observer) {
  checkArguments(model, config);
  const auto start = std::chrono::steady_clock::now();

  // Chains watch an internal source: the caller's stop forwards into it, and a failing chain
  // trips it so that the others do not run to the end for nothing.
  std::stop_source internal;
  std::stop_callback forward(stop, [&internal] { internal.request_stop(); });

  const auto chains = static_cast<std::size_t>(config.chains);
  std::vector<std::optional<ChainResult>> results(chains);
  std::vector<std::exception_ptr> errors(chains);
  std::atomic<int> nextChain{0};
  {
    std::vector<std::jthread> pool;
    const int workers = workerCount(config);
    pool.reserve(static_cast<std::size_t>(workers));
    for (int w = 0; w < workers; ++w) {
      pool.emplace_back([&] {
        for (;;) {
          const int chain = nextChain.fetch_add(1);
          if (chain >= config.chains) return;
          try {
            ChainRunner runner(model, config, chain, observer);
            results[static_cast<std::size_t>(chain)] = runner.run(internal.get_token());
          } catch (...) {
            errors[static_cast<std::size_t>(chain)] = std::current_exception();
            internal.request_stop();
          }
        }
      });
    }
  }  // the jthreads join here

  for (const std::exception_ptr& error : errors) {
    if (error) std::rethrow_exception(error);  // the lowest-numbered failing chain
  }

  SampleResult result;
  const bool complete =
      std::all_of(results.begin(), results.end(), [](const auto& r) { return r.has_value(); });
  if (complete) {
    result.chains.reserve(chains);
    for (auto& chainResult : results) result.chains.push_back(std::move(*chainResult));
  } else {
    result.status = RunStatus::cancelled;
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace dpsynth::core::mcmc
