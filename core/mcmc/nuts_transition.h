#pragma once
/// One NUTS transition: the multinomial no-U-turn sampler with the generalised termination
/// criterion, as in Stan's base_nuts (Betancourt 2017, "A conceptual introduction to HMC",
/// appendix A). The trajectory doubles in a random direction until the criterion fails, the
/// maximum depth is reached or a step diverges. States are drawn uniformly (by weight) within
/// each new subtree and then accepted with the biased progressive probability
/// min(1, w_new / w_old) at the top level, which favours moving away from the start.
#include <Eigen/Dense>
#include <stop_token>

#include "core/mcmc/hamiltonian.h"
#include "core/mcmc/phase_point.h"
#include "core/random/rng.h"

namespace dpsynth::core::mcmc {

struct TransitionStats {
  double acceptStat = 0.0;  ///< mean of min(1, exp(H0 - H)) over every leapfrog state visited
  int treeDepth = 0;        ///< number of accepted doublings
  int leapfrogSteps = 0;
  bool divergent = false;  ///< energy error above the threshold (or left the support)
  bool cancelled = false;  ///< the stop token fired; z is unchanged and the stats meaningless
  double energy = 0.0;     ///< H of the returned state
};

class NutsTransition {
 public:
  /// Energy errors H - H0 above this mark a divergent trajectory (Stan's max_deltaH).
  static constexpr double kMaxEnergyError = 1000.0;

  NutsTransition(Hamiltonian& hamiltonian, int maxTreeDepth);

  /// Moves z (which must carry a finite log density and its gradient) to the next state.
  /// The stop token is polled before every leapfrog step.
  TransitionStats transition(PhasePoint& z, double epsilon, random::Rng& rng,
                             std::stop_token stop = {});

 private:
  /// Per-transition scratch shared by the recursion.
  struct Walk {
    PhasePoint z;  ///< the moving end of the trajectory
    double h0 = 0.0;
    double signedEpsilon = 0.0;
    int leapfrogSteps = 0;
    double sumMetropolis = 0.0;
    bool divergent = false;
    bool cancelled = false;
    random::Rng* rng = nullptr;
    std::stop_token stop;
  };

  /// Builds a subtree of 2^depth steps from walk.z. Outputs: a state drawn from it, the
  /// velocities and momenta at its first and last state, its summed momentum (added to rho)
  /// and its log weight (log-sum-exp'd into logSumWeight). Returns false if the subtree
  /// diverged, U-turned internally or the run was cancelled.
  bool buildTree(Walk& walk, int depth, PhasePoint& propose, Eigen::VectorXd& pSharpBegin,
                 Eigen::VectorXd& pSharpEnd, Eigen::VectorXd& rho, Eigen::VectorXd& pBegin,
                 Eigen::VectorXd& pEnd, double& logSumWeight);

  Hamiltonian& hamiltonian_;
  int maxTreeDepth_;
};

namespace detail {
/// True while the trajectory spanned by rho has not turned back at either end.
inline bool noUTurn(const Eigen::VectorXd& pSharpMinus, const Eigen::VectorXd& pSharpPlus,
                    const Eigen::VectorXd& rho) {
  return pSharpPlus.dot(rho) > 0 && pSharpMinus.dot(rho) > 0;
}
/// log(exp(a) + exp(b)) without overflow; either argument may be -inf.
double logSumExp(double a, double b);
}  // namespace detail

}  // namespace dpsynth::core::mcmc
