#pragma once
#include <Eigen/Dense>
#include <limits>

namespace dpsynth::core::mcmc {

/// A point of phase space with its cached potential: position q, momentum p, log density and
/// its gradient at q. Caching the gradient means a leapfrog step costs one model evaluation.
struct PhasePoint {
  Eigen::VectorXd q;
  Eigen::VectorXd p;
  double logDensity = -std::numeric_limits<double>::infinity();
  Eigen::VectorXd grad;

  PhasePoint() = default;
  explicit PhasePoint(int dim)
      : q(Eigen::VectorXd::Zero(dim)),
        p(Eigen::VectorXd::Zero(dim)),
        grad(Eigen::VectorXd::Zero(dim)) {}
  int dim() const { return static_cast<int>(q.size()); }
};

}  // namespace dpsynth::core::mcmc
