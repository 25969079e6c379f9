#pragma once
/// Stan's init_stepsize heuristic: from a starting step size, double (or halve) it until the
/// one-step acceptance probability exp(H0 - H) crosses 0.8, each trial with fresh momentum.
/// It gives dual averaging a starting point of the right order of magnitude.
#include <stop_token>

#include "core/mcmc/hamiltonian.h"
#include "core/mcmc/phase_point.h"
#include "core/random/rng.h"

namespace dpsynth::core::mcmc {

/// z must carry a finite log density and its gradient; it is not modified. Returns epsilon
/// itself when it is 0, NaN or above 1e7 (as Stan does), and the current value as soon as the
/// stop token fires (the caller checks the token). Throws std::runtime_error when the search
/// runs above 1e7 (improper posterior) or down to 0 (discontinuous density).
double searchInitialStepSize(Hamiltonian& hamiltonian, const PhasePoint& z, double epsilon,
                             random::Rng& rng, std::stop_token stop = {});

}  // namespace dpsynth::core::mcmc
