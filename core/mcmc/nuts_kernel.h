#pragma once
/// One adapted NUTS step: the transition plus everything warm-up adapts (the dual-averaging step
/// size, the diagonal or dense metric and Stan's windows). ChainRunner loops over it; a Gibbs
/// sampler calls step() once per sweep for "θ | everything else" and refresh() after it changed
/// the data the model sees.
#include <Eigen/Dense>
#include <optional>
#include <stop_token>

#include "core/mcmc/dense_metric.h"
#include "core/mcmc/diagonal_metric.h"
#include "core/mcmc/hamiltonian.h"
#include "core/mcmc/metric.h"
#include "core/mcmc/nuts_transition.h"
#include "core/mcmc/phase_point.h"
#include "core/mcmc/step_size_adapter.h"
#include "core/mcmc/windowed_metric_adapter.h"
#include "core/models/model.h"
#include "core/random/rng.h"

namespace dpsynth::core::mcmc {

class NutsKernel {
 public:
  /// Stan's default initial step size; dual averaging starts with mu = log(10 * this).
  static constexpr double kInitialStepSize = 1.0;

  /// The model must outlive the kernel. The first `warmup` calls of step() adapt.
  NutsKernel(const models::Model& model, MetricKind kind, int warmup, int maxTreeDepth,
             double targetAccept);
  NutsKernel(const NutsKernel&) = delete;
  NutsKernel& operator=(const NutsKernel&) = delete;

  /// The Hamiltonian under the current metric (for findInitialPoint before start()).
  Hamiltonian& hamiltonian() { return hamiltonian_; }

  /// Places the chain at z (finite log density and gradient) and searches the initial step
  /// size, drawing from rng. Must be called once before step().
  void start(const PhasePoint& z, random::Rng& rng, std::stop_token stop = {});

  /// One transition; during warm-up it then adapts step size and metric. Returns the
  /// transition's statistics (cancelled = the stop token fired and nothing moved).
  TransitionStats step(random::Rng& rng, std::stop_token stop = {});

  /// Re-evaluates log density and gradient at the current position: call it whenever the
  /// model's density changed since the last step (e.g. new latent records in a Gibbs sweep).
  void refresh() { hamiltonian_.updatePotential(z_); }

  const PhasePoint& point() const { return z_; }
  const Eigen::VectorXd& position() const { return z_.q; }
  double stepSize() const { return epsilon_; }
  MetricKind metricKind() const { return kind_; }
  int iterations() const { return iteration_; }
  bool inWarmup() const { return iteration_ < warmup_; }
  /// Diagonal of the inverse metric (the whole of it when diagonal).
  Eigen::VectorXd inverseMetricDiagonal() const;
  /// The full inverse metric for a dense metric; empty otherwise.
  Eigen::MatrixXd inverseMetricDense() const;
  long long gradientEvaluations() const { return hamiltonian_.gradientEvaluations(); }

 private:
  void adapt(double acceptStat, random::Rng& rng, std::stop_token stop);

  MetricKind kind_;
  int warmup_;
  DiagonalMetric diagonal_;
  std::optional<DenseMetric> dense_;
  Hamiltonian hamiltonian_;
  NutsTransition nuts_;
  StepSizeAdapter stepSizeAdapter_;
  WindowedMetricAdapter metricAdapter_;
  Eigen::VectorXd inverseMetric_;
  Eigen::MatrixXd inverseDense_;
  PhasePoint z_;
  double epsilon_ = kInitialStepSize;
  int iteration_ = 0;
};

}  // namespace dpsynth::core::mcmc
