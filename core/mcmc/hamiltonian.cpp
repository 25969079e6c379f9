#include "core/mcmc/hamiltonian.h"

#include <cmath>
#include <limits>

namespace dpsynth::core::mcmc {

void Hamiltonian::updatePotential(PhasePoint& z) {
  if (z.grad.size() != z.q.size()) z.grad.resize(z.q.size());
  ++gradientEvaluations_;
  const double lp = model_.logDensity(z.q, z.grad);
  if (std::isfinite(lp) && z.grad.allFinite()) {
    z.logDensity = lp;
  } else {
    z.logDensity = -std::numeric_limits<double>::infinity();
  }
}

double Hamiltonian::energy(const PhasePoint& z) const {
  if (!std::isfinite(z.logDensity)) return std::numeric_limits<double>::infinity();
  const double h = -z.logDensity + metric_.kineticEnergy(z.p);
  return std::isnan(h) ? std::numeric_limits<double>::infinity() : h;
}

double Hamiltonian::energy(const PhasePoint& z, const Eigen::VectorXd& v) const {
  if (!std::isfinite(z.logDensity)) return std::numeric_limits<double>::infinity();
  const double h = -z.logDensity + metric_.kineticEnergy(z.p, v);
  return std::isnan(h) ? std::numeric_limits<double>::infinity() : h;
}

}  // namespace dpsynth::core::mcmc
