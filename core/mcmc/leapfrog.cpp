#include "core/mcmc/leapfrog.h"

#include <cmath>

namespace dpsynth::core::mcmc {

void leapfrog(Hamiltonian& hamiltonian, PhasePoint& z, double epsilon) {
  Eigen::VectorXd velocity;
  leapfrog(hamiltonian, z, epsilon, velocity);
}

void leapfrog(Hamiltonian& hamiltonian, PhasePoint& z, double epsilon, Eigen::VectorXd& velocity) {
  const double half = 0.5 * epsilon;
  z.p += half * z.grad;  // the potential is -log density, so its force is +grad
  hamiltonian.velocity(z, velocity);
  z.q += epsilon * velocity;
  hamiltonian.updatePotential(z);
  if (std::isfinite(z.logDensity)) z.p += half * z.grad;
}

}  // namespace dpsynth::core::mcmc
