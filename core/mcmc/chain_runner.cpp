#include "core/mcmc/chain_runner.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "core/mcmc/dense_metric.h"
#include "core/mcmc/diagonal_metric.h"
#include "core/mcmc/nuts_transition.h"
#include "core/mcmc/step_size_adapter.h"
#include "core/mcmc/step_size_search.h"
#include "core/mcmc/windowed_metric_adapter.h"

namespace dpsynth::core::mcmc {

namespace {
/// Stan's default initial step size; dual averaging starts with mu = log(10 * this).
constexpr double kInitialStepSize = 1.0;
}  // namespace

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

  const MetricKind kind = resolveMetric(config_.metric, model_);
  DiagonalMetric diagonal(dim);
  std::optional<DenseMetric> dense;
  if (kind == MetricKind::dense) dense.emplace(dim);
  const Metric& metric = dense ? static_cast<const Metric&>(*dense) : diagonal;
  Hamiltonian hamiltonian(model_, metric);
  PhasePoint z = findInitialPoint(hamiltonian, config_, chain_, rng);
  NutsTransition nuts(hamiltonian, config_.maxTreeDepth);
  StepSizeAdapter stepSizeAdapter(config_.targetAccept);
  WindowedMetricAdapter metricAdapter(kind, dim, warmup);
  Eigen::VectorXd inverseMetric = diagonal.inverse();
  Eigen::MatrixXd inverseDense;

  double epsilon = kInitialStepSize;
  stepSizeAdapter.setMu(std::log(10.0 * epsilon));
  epsilon = searchInitialStepSize(hamiltonian, z, epsilon, rng, stop);

  ChainResult result;
  result.draws.resize(config_.draws, dim);
  double sumAccept = 0.0;
  int sentDraws = 0;
  for (int iteration = 0; iteration < total; ++iteration) {
    if (stop.stop_requested()) return std::nullopt;
    const TransitionStats stats = nuts.transition(z, epsilon, rng, stop);
    if (stats.cancelled) return std::nullopt;

    const bool inWarmup = iteration < warmup;
    if (inWarmup) {
      epsilon = stepSizeAdapter.learn(stats.acceptStat);
      bool newMetric = false;
      if (!dense) {
        newMetric = metricAdapter.learn(z.q, inverseMetric);
        if (newMetric) diagonal.setInverse(inverseMetric);
      } else if (metricAdapter.learn(z.q, inverseDense)) {
        newMetric = true;
        // Rounding can leave a nearly singular estimate (coordinates moving in lockstep on
        // very different scales) short of positive definite: keep its variances then.
        if (!dense->trySetInverse(inverseDense)) {
          dense->setInverse(Eigen::MatrixXd(inverseDense.diagonal().asDiagonal()));
        }
      }
      if (newMetric) {
        // A new metric changes the scale of good step sizes: search again and restart.
        epsilon = searchInitialStepSize(hamiltonian, z, epsilon, rng, stop);
        stepSizeAdapter.setMu(std::log(10.0 * epsilon));
        stepSizeAdapter.restart();
      }
      // Only if dual averaging has seen an iteration since its last restart: otherwise x_bar = 0
      // and Stan's exp(x_bar) = 1 would discard the searched step size (stan-dev/stan#3023).
      if (iteration == warmup - 1 && stepSizeAdapter.iterations() > 0) {
        epsilon = stepSizeAdapter.finalStepSize();
      }
    } else {
      const int draw = iteration - warmup;
      result.draws.row(draw) = z.q.transpose();
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

  result.stepSize = epsilon;
  result.metric = kind;
  if (dense) {
    result.inverseMetric = dense->inverse().diagonal();
    result.inverseMetricDense = dense->inverse();
  } else {
    result.inverseMetric = diagonal.inverse();
  }
  result.gradientEvaluations = hamiltonian.gradientEvaluations();
  result.meanAcceptStat = sumAccept / static_cast<double>(config_.draws);
  return result;
}

}  // namespace dpsynth::core::mcmc
