#pragma once
/// Runs NUTS chains in parallel threads. Each chain has its own random stream
/// makeRng(seed, chain), so the draws do not depend on the number of threads.
#include <Eigen/Dense>
#include <stop_token>
#include <vector>

#include "core/mcmc/metric.h"
#include "core/mcmc/nuts_config.h"
#include "core/models/model.h"

namespace dpsynth::core::mcmc {

struct Progress {
  int chain = 0;
  int iteration = 0;  ///< iterations completed in this chain (warm-up included)
  int total = 0;      ///< warmup + draws
  bool inWarmup = true;
  int divergences = 0;  ///< so far in this chain (sampling phase)
};

/// Receives typed events from the chain threads. Implementations must be thread-safe: calls
/// arrive concurrently from different chains.
class SamplerObserver {
 public:
  virtual ~SamplerObserver() = default;
  virtual void onProgress(const Progress& progress) {}
  /// A batch of new post-warm-up draws of one chain (rows = draws, unconstrained scale).
  /// firstDraw is the index of the batch's first row within the chain's draws.
  virtual void onDraws(int chain, int firstDraw, const Eigen::MatrixXd& rows) {}
};

struct ChainResult {
  Eigen::MatrixXd draws;                 ///< draws × dim, unconstrained
  int divergences = 0;                   ///< sampling phase
  int treeDepthSaturated = 0;            ///< sampling iterations that hit maxTreeDepth
  double stepSize = 0.0;                 ///< adapted step size
  MetricKind metric = MetricKind::diag;  ///< the metric this chain used
  /// Adapted inverse mass matrix: its diagonal (the whole of it for a diagonal metric).
  Eigen::VectorXd inverseMetric;
  Eigen::MatrixXd inverseMetricDense;  ///< dense metric only: the full M⁻¹ (empty otherwise)
  long long gradientEvaluations = 0;   ///< warm-up and sampling
  double meanAcceptStat = 0.0;         ///< sampling phase
};

enum class RunStatus { completed, cancelled };

struct SampleResult {
  RunStatus status = RunStatus::completed;
  std::vector<ChainResult> chains;  ///< empty when cancelled
  double seconds = 0.0;

  long long gradientEvaluations() const;
  int divergences() const;
  int treeDepthSaturated() const;
  /// The metric of the chains (all chains of a run use the same); diag when there are none.
  MetricKind metric() const;
  /// All chains stacked (chain 0 first): (chains·draws) × dim.
  Eigen::MatrixXd pooled() const;
};

/// The metric a chain of this model uses under the given choice (see MetricChoice).
MetricKind resolveMetric(MetricChoice choice, const models::Model& model);

/// Runs config.chains chains. Throws std::invalid_argument for an invalid configuration (the
/// message joins validate()'s problems). Cancellation: stop is polled every iteration; a
/// cancelled run returns status cancelled within one iteration's time.
SampleResult sample(const models::Model& model, const NutsConfig& config, std::stop_token stop = {},
                    SamplerObserver* observer = nullptr);

}  // namespace dpsynth::core::mcmc
