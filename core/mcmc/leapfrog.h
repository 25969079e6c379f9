#pragma once
/// The leapfrog (Störmer–Verlet) integrator: symplectic and time-reversible, which is what
/// makes the NUTS proposal exact. A negative epsilon integrates backwards in time.
#include "core/mcmc/hamiltonian.h"
#include "core/mcmc/phase_point.h"

namespace dpsynth::core::mcmc {

/// Half step in p, full step in q (one model evaluation), half step in p. z must hold a valid
/// gradient at z.q on entry and holds the gradient at the new q on return. If the new point is
/// outside the support (logDensity = -inf) the momentum is left at its half step; the caller
/// discards the point as divergent.
void leapfrog(Hamiltonian& hamiltonian, PhasePoint& z, double epsilon);
/// The same step with the caller's workspace for the velocity (left holding the velocity at
/// the half step), so that a warm sampler allocates nothing.
void leapfrog(Hamiltonian& hamiltonian, PhasePoint& z, double epsilon, Eigen::VectorXd& velocity);

}  // namespace dpsynth::core::mcmc
