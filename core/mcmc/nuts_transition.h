#pragma once
/// One NUTS transition: the multinomial no-U-turn sampler with the generalised termination
/// criterion, as in Stan's base_nuts (Betancourt 2017, "A conceptual introduction to HMC",
/// appendix A). The trajectory doubles in a random direction until the criterion fails, the
/// maximum depth is reached or a step diverges. States are drawn uniformly (by weight) within
/// each new subtree and then accepted with the biased progressive probability
/// min(1, w_new / w_old) at the top level, which favours moving away from the start.
#include <Eigen/Dense>
#include <stop_token>
#include <vector>

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
  /// Per-transition state shared by the recursion.
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

  /// The vectors one level of the recursion holds while its two halves are built. Level d is
  /// used only by the subtree of depth d under construction, so one set per depth suffices and
  /// a warm sampler allocates nothing per transition, subtree or leapfrog step.
  struct Level {
    PhasePoint proposeFinal;
    Eigen::VectorXd pInitEnd, pSharpInitEnd, rhoInit;
    Eigen::VectorXd pFinalBegin, pSharpFinalBegin, rhoFinal;
    Eigen::VectorXd rhoSubtree, rhoExtended;
  };

  /// Sizes the workspace for states of dimension dim (a no-op once it has that size).
  void reserve(int dim);

  /// Builds a subtree of 2^depth steps from walk.z. Outputs: a state drawn from it, the
  /// velocities and momenta at its first and last state, its summed momentum (added to rho)
  /// and its log weight (log-sum-exp'd into logSumWeight). Returns false if the subtree
  /// diverged, U-turned internally or the run was cancelled.
  bool buildTree(Walk& walk, int depth, PhasePoint& propose, Eigen::VectorXd& pSharpBegin,
                 Eigen::VectorXd& pSharpEnd, Eigen::VectorXd& rho, Eigen::VectorXd& pBegin,
                 Eigen::VectorXd& pEnd, double& logSumWeight);

  Hamiltonian& hamiltonian_;
  int maxTreeDepth_;

  // Workspace, kept between transitions.
  int dim_ = -1;
  Walk walk_;
  PhasePoint zForward_, zBackward_, zSample_, zPropose_;
  // Velocities (p sharp) and momenta at the four boundary states of the backward and forward
  // halves: both ends of the trajectory and the two states either side of the last join.
  Eigen::VectorXd pSharpFwdFwd_, pSharpFwdBck_, pSharpBckFwd_, pSharpBckBck_;
  Eigen::VectorXd pFwdFwd_, pFwdBck_, pBckFwd_, pBckBck_;
  Eigen::VectorXd rho_, rhoForward_, rhoBackward_, rhoExtended_;
  Eigen::VectorXd velocity_;   ///< the leapfrog's and the final energy's
  std::vector<Level> levels_;  ///< levels_[d] for the subtrees of depth d >= 1
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
