#include "core/mcmc/step_size_search.h"

#include <cmath>
#include <stdexcept>

#include "core/mcmc/leapfrog.h"

namespace dpsynth::core::mcmc {

namespace {

constexpr double kMaxStepSize = 1e7;

/// log(exp(H0 - H)) after one leapfrog step from z with fresh momentum.
double oneStepLogAccept(Hamiltonian& hamiltonian, const PhasePoint& z, double epsilon,
                        random::Rng& rng) {
  PhasePoint trial = z;
  hamiltonian.sampleMomentum(trial, rng);
  const double h0 = hamiltonian.energy(trial);
  leapfrog(hamiltonian, trial, epsilon);
  const double h = hamiltonian.energy(trial);  // +inf on NaN or outside the support
  return h0 - h;
}

}  // namespace

double searchInitialStepSize(Hamiltonian& hamiltonian, const PhasePoint& z, double epsilon,
                             random::Rng& rng, std::stop_token stop) {
  if (epsilon == 0 || epsilon > kMaxStepSize || std::isnan(epsilon)) return epsilon;
  const double logTarget = std::log(0.8);

  // The first trial only fixes the direction of the search; Stan repeats that step size once
  // with new momentum before changing it.
  const int direction = oneStepLogAccept(hamiltonian, z, epsilon, rng) > logTarget ? 1 : -1;
  for (;;) {
    if (stop.stop_requested()) return epsilon;
    const double deltaH = oneStepLogAccept(hamiltonian, z, epsilon, rng);
    if (direction == 1 && !(deltaH > logTarget)) break;
    if (direction == -1 && !(deltaH < logTarget)) break;
    epsilon = direction == 1 ? 2 * epsilon : 0.5 * epsilon;
    if (epsilon > kMaxStepSize) {
      throw std::runtime_error("step size search exceeded 1e7: the posterior is probably improper");
    }
    if (epsilon == 0) {
      throw std::runtime_error(
          "no acceptably small step size could be found: is the log density continuous?");
    }
  }
  return epsilon;
}

}  // namespace dpsynth::core::mcmc
