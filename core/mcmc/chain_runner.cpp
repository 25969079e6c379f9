#include "core/mcmc/chain_runner.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "core/mcmc/nuts_kernel.h"
#include "core/mcmc/sampled_coordinates.h"

namespace dpsynth::core::mcmc {

PhasePoint findInitialPoint(Hamiltonian& hamiltonian, const NutsConfig& config, int chain,
                            random::Rng& rng) {
  const models::Model& model = hamiltonian.model();
  const int dim = model.dim();
  PhasePoint z(dim);
  if (!config.inits.empty()) {
    z.q = config.inits.at(static_cast<std::size_t>(chain));
    hamiltonian.updatePotential(z);
    if (std::isfinite(z.logDensity)) return z;
    throw std::runtime_error(
        "could not find a finite starting point: log density or gradient "
        "is not finite at inits[" +
        std::to_string(chain) + "]");
  }
  const Eigen::VectorXd centre = model.initialPoint();
  if (centre.size() != dim) {
    throw std::invalid_argument("model.initialPoint() has the wrong dimension");
  }
  for (int attempt = 0; attempt < ChainRunner::kMaxInitAttempts; ++attempt) {
    for (int i = 0; i < dim; ++i) {
      z.q[i] = centre[i] + config.initRadius * (2.0 * random::uniform01(rng) - 1.0);
    }
    hamiltonian.updatePotential(z);
    if (std::isfinite(z.logDensity)) return z;
  }
  throw std::runtime_error("could not find a finite starting point for chain " +
                           std::to_string(chain) + " after " +
                           std::to_string(ChainRunner::kMaxInitAttempts) + " attempts");
}

ChainRunner::ChainRunner(const models::Model& model, const NutsConfig& config, int chain,
                         SamplerObserver* observer)
    : model_(model), config_(config), chain_(chain), observer_(observer) {}

std::optional<ChainResult> ChainRunner::run(std::stop_token stop) {
  const int dim = model_.dim();
  const int warmup = config_.warmup;
  const int total = warmup + config_.draws;
  random::Rng rng = random::makeRng(config_.seed, static_cast<std::uint64_t>(chain_));

  // Coordinates the model draws exactly stay out of the trajectories: the kernel samples the
  // others, and each kept draw is completed with fresh exact draws from this chain's stream.
  const std::vector<int> exact = model_.exactCoordinates();
  std::optional<SampledCoordinates> view;
  if (!exact.empty()) view.emplace(model_, exact);
  const models::Model& target = view ? static_cast<const models::Model&>(*view) : model_;
  NutsConfig config = config_;
  if (view)
    for (auto& init : config.inits) init = view->project(init);

  NutsKernel kernel(target, resolveMetric(config.metric, target), warmup, config.maxTreeDepth,
                    config.targetAccept);
  kernel.start(findInitialPoint(kernel.hamiltonian(), config, chain_, rng), rng, stop);

  ChainResult result;
  result.draws.resize(config_.draws, dim);
  double sumAccept = 0.0;
  int sentDraws = 0;
  for (int iteration = 0; iteration < total; ++iteration) {
    if (stop.stop_requested()) return std::nullopt;
    const bool inWarmup = kernel.inWarmup();
    const TransitionStats stats = kernel.step(rng, stop);
    if (stats.cancelled) return std::nullopt;

    if (!inWarmup) {
      const int draw = iteration - warmup;
      if (view) {
        result.draws.row(draw) = view->expand(kernel.position(), rng).transpose();
      } else {
        result.draws.row(draw) = kernel.position().transpose();
      }
      if (stats.divergent) ++result.divergences;
      if (stats.treeDepth >= config_.maxTreeDepth) ++result.treeDepthSaturated;
      sumAccept += stats.acceptStat;
    }

    const int done = iteration + 1;
    if (observer_ != nullptr && (done % config_.progressEvery == 0 || done == total)) {
      const int available = inWarmup ? 0 : done - warmup;
      if (available > sentDraws) {
        observer_->onDraws(chain_, sentDraws,
                           result.draws.middleRows(sentDraws, available - sentDraws));
        sentDraws = available;
      }
      observer_->onProgress(Progress{chain_, done, total, inWarmup, result.divergences});
    }
  }

  result.stepSize = kernel.stepSize();
  result.metric = kernel.metricKind();
  result.inverseMetric = kernel.inverseMetricDiagonal();
  result.inverseMetricDense = kernel.inverseMetricDense();
  result.gradientEvaluations = kernel.gradientEvaluations();
  result.meanAcceptStat = sumAccept / static_cast<double>(config_.draws);
  return result;
}

}  // namespace dpsynth::core::mcmc
