#include "core/mcmc/nuts_kernel.h"

#include <cmath>

#include "core/mcmc/step_size_search.h"

namespace dpsynth::core::mcmc {

namespace {
std::optional<DenseMetric> denseIfAsked(MetricKind kind, int dim) {
  if (kind == MetricKind::dense) return DenseMetric(dim);
  return std::nullopt;
}
}  // namespace

NutsKernel::NutsKernel(const models::Model& model, MetricKind kind, int warmup, int maxTreeDepth,
                       double targetAccept)
    : kind_(kind),
      warmup_(warmup),
      diagonal_(model.dim()),
      dense_(denseIfAsked(kind, model.dim())),
      hamiltonian_(model, dense_ ? static_cast<const Metric&>(*dense_) : diagonal_),
      nuts_(hamiltonian_, maxTreeDepth),
      stepSizeAdapter_(targetAccept),
      metricAdapter_(kind, model.dim(), warmup),
      inverseMetric_(diagonal_.inverse()),
      z_(model.dim()) {}

void NutsKernel::start(const PhasePoint& z, random::Rng& rng, std::stop_token stop) {
  z_ = z;
  epsilon_ = kInitialStepSize;
  stepSizeAdapter_.setMu(std::log(10.0 * epsilon_));
  epsilon_ = searchInitialStepSize(hamiltonian_, z_, epsilon_, rng, stop);
}

TransitionStats NutsKernel::step(random::Rng& rng, std::stop_token stop) {
  const TransitionStats stats = nuts_.transition(z_, epsilon_, rng, stop);
  if (stats.cancelled) return stats;
  if (iteration_ < warmup_) adapt(stats.acceptStat, rng, stop);
  ++iteration_;
  return stats;
}

void NutsKernel::adapt(double acceptStat, random::Rng& rng, std::stop_token stop) {
  epsilon_ = stepSizeAdapter_.learn(acceptStat);
  bool newMetric = false;
  if (!dense_) {
    newMetric = metricAdapter_.learn(z_.q, inverseMetric_);
    if (newMetric) diagonal_.setInverse(inverseMetric_);
  } else if (metricAdapter_.learn(z_.q, inverseDense_)) {
    newMetric = true;
    // Rounding can leave a nearly singular estimate (coordinates moving in lockstep on very
    // different scales) short of positive definite: keep its variances then.
    if (!dense_->trySetInverse(inverseDense_)) {
      dense_->setInverse(Eigen::MatrixXd(inverseDense_.diagonal().asDiagonal()));
    }
  }
  if (newMetric) {
    // A new metric changes the scale of good step sizes: search again and restart.
    epsilon_ = searchInitialStepSize(hamiltonian_, z_, epsilon_, rng, stop);
    stepSizeAdapter_.setMu(std::log(10.0 * epsilon_));
    stepSizeAdapter_.restart();
  }
  // Only if dual averaging has seen an iteration since its last restart: otherwise x_bar = 0 and
  // Stan's exp(x_bar) = 1 would discard the searched step size (stan-dev/stan#3023).
  if (iteration_ == warmup_ - 1 && stepSizeAdapter_.iterations() > 0) {
    epsilon_ = stepSizeAdapter_.finalStepSize();
  }
}

Eigen::VectorXd NutsKernel::inverseMetricDiagonal() const {
  return dense_ ? Eigen::VectorXd(dense_->inverse().diagonal()) : diagonal_.inverse();
}

Eigen::MatrixXd NutsKernel::inverseMetricDense() const {
  return dense_ ? dense_->inverse() : Eigen::MatrixXd();
}

}  // namespace dpsynth::core::mcmc
