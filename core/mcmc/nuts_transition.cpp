#include "core/mcmc/nuts_transition.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/mcmc/leapfrog.h"

namespace dpsynth::core::mcmc {

namespace {
constexpr double kNegInf = -std::numeric_limits<double>::infinity();
}

namespace detail {
double logSumExp(double a, double b) {
  if (a == kNegInf) return b;
  if (b == kNegInf) return a;
  const double m = std::max(a, b);
  return m + std::log1p(std::exp(-std::abs(a - b)));
}
}  // namespace detail

NutsTransition::NutsTransition(Hamiltonian& hamiltonian, int maxTreeDepth)
    : hamiltonian_(hamiltonian), maxTreeDepth_(maxTreeDepth) {
  if (maxTreeDepth < 1) throw std::invalid_argument("NutsTransition: maxTreeDepth must be >= 1");
}

TransitionStats NutsTransition::transition(PhasePoint& z, double epsilon, random::Rng& rng,
                                           std::stop_token stop) {
  TransitionStats stats;
  Walk walk;
  walk.rng = &rng;
  walk.stop = std::move(stop);

  hamiltonian_.sampleMomentum(z, rng);
  walk.h0 = hamiltonian_.energy(z);

  PhasePoint zForward = z;  // the two ends of the trajectory
  PhasePoint zBackward = z;
  PhasePoint zSample = z;
  PhasePoint zPropose = z;

  // Velocities (p sharp) and momenta at the four boundary states of the backward and forward
  // halves: both ends of the trajectory and the two states either side of the last join.
  Eigen::VectorXd pSharpFwdFwd = hamiltonian_.velocity(z);
  Eigen::VectorXd pSharpFwdBck = pSharpFwdFwd;
  Eigen::VectorXd pSharpBckFwd = pSharpFwdFwd;
  Eigen::VectorXd pSharpBckBck = pSharpFwdFwd;
  Eigen::VectorXd pFwdFwd = z.p;
  Eigen::VectorXd pFwdBck = z.p;
  Eigen::VectorXd pBckFwd = z.p;
  Eigen::VectorXd pBckBck = z.p;

  Eigen::VectorXd rho = z.p;  // summed momentum over the trajectory
  double logSumWeight = 0.0;  // log(exp(H0 - H0)) for the initial state

  const int dim = z.dim();
  int depth = 0;
  while (depth < maxTreeDepth_) {
    Eigen::VectorXd rhoForward = Eigen::VectorXd::Zero(dim);
    Eigen::VectorXd rhoBackward = Eigen::VectorXd::Zero(dim);
    double logSumWeightSubtree = kNegInf;
    bool valid = false;

    if (random::uniform01(rng) > 0.5) {
      // Extend forward: the old trajectory becomes the backward half.
      walk.z = zForward;
      walk.signedEpsilon = epsilon;
      rhoBackward = rho;
      pBckFwd = pFwdFwd;  // the old trajectory's forward end
      pSharpBckFwd = pSharpFwdFwd;
      valid = buildTree(walk, depth, zPropose, pSharpFwdBck, pSharpFwdFwd, rhoForward, pFwdBck,
                        pFwdFwd, logSumWeightSubtree);
      zForward = walk.z;
    } else {
      walk.z = zBackward;
      walk.signedEpsilon = -epsilon;
      rhoForward = rho;
      pFwdBck = pBckBck;  // the old trajectory's backward end
      pSharpFwdBck = pSharpBckBck;
      valid = buildTree(walk, depth, zPropose, pSharpBckFwd, pSharpBckBck, rhoBackward, pBckFwd,
                        pBckBck, logSumWeightSubtree);
      zBackward = walk.z;
    }
    if (!valid) break;
    ++depth;

    // Biased progressive sampling: prefer the new subtree when it outweighs the old trajectory.
    if (logSumWeightSubtree > logSumWeight) {
      zSample = zPropose;
    } else if (random::uniform01(rng) < std::exp(logSumWeightSubtree - logSumWeight)) {
      zSample = zPropose;
    }
    logSumWeight = detail::logSumExp(logSumWeight, logSumWeightSubtree);

    rho = rhoBackward + rhoForward;
    bool persist = detail::noUTurn(pSharpBckBck, pSharpFwdFwd, rho);
    // Also across the join of the two halves, which the subtree checks cannot see.
    Eigen::VectorXd rhoExtended = rhoBackward + pFwdBck;
    persist = persist && detail::noUTurn(pSharpBckBck, pSharpFwdBck, rhoExtended);
    rhoExtended = rhoForward + pBckFwd;
    persist = persist && detail::noUTurn(pSharpBckFwd, pSharpFwdFwd, rhoExtended);
    if (!persist) break;
  }

  stats.cancelled = walk.cancelled;
  stats.divergent = walk.divergent;
  stats.treeDepth = depth;
  stats.leapfrogSteps = walk.leapfrogSteps;
  stats.acceptStat =
      walk.leapfrogSteps > 0 ? walk.sumMetropolis / static_cast<double>(walk.leapfrogSteps) : 0.0;
  if (!walk.cancelled) z = zSample;
  stats.energy = hamiltonian_.energy(z);
  return stats;
}

bool NutsTransition::buildTree(Walk& walk, int depth, PhasePoint& propose,
                               Eigen::VectorXd& pSharpBegin, Eigen::VectorXd& pSharpEnd,
                               Eigen::VectorXd& rho, Eigen::VectorXd& pBegin, Eigen::VectorXd& pEnd,
                               double& logSumWeight) {
  if (depth == 0) {
    if (walk.stop.stop_requested()) {
      walk.cancelled = true;
      return false;
    }
    leapfrog(hamiltonian_, walk.z, walk.signedEpsilon);
    ++walk.leapfrogSteps;

    const double h = hamiltonian_.energy(walk.z);  // +inf outside the support or on NaN
    if (h - walk.h0 > kMaxEnergyError) walk.divergent = true;

    logSumWeight = detail::logSumExp(logSumWeight, walk.h0 - h);
    walk.sumMetropolis += walk.h0 - h > 0 ? 1.0 : std::exp(walk.h0 - h);

    propose = walk.z;
    pSharpBegin = hamiltonian_.velocity(walk.z);
    pSharpEnd = pSharpBegin;
    rho += walk.z.p;
    pBegin = walk.z.p;
    pEnd = pBegin;
    return !walk.divergent;
  }

  const int dim = walk.z.dim();

  // Initial half of the subtree.
  double logSumWeightInit = kNegInf;
  Eigen::VectorXd pInitEnd(dim), pSharpInitEnd(dim);
  Eigen::VectorXd rhoInit = Eigen::VectorXd::Zero(dim);
  if (!buildTree(walk, depth - 1, propose, pSharpBegin, pSharpInitEnd, rhoInit, pBegin, pInitEnd,
                 logSumWeightInit)) {
    return false;
  }

  // Final half.
  PhasePoint proposeFinal = walk.z;
  double logSumWeightFinal = kNegInf;
  Eigen::VectorXd pFinalBegin(dim), pSharpFinalBegin(dim);
  Eigen::VectorXd rhoFinal = Eigen::VectorXd::Zero(dim);
  if (!buildTree(walk, depth - 1, proposeFinal, pSharpFinalBegin, pSharpEnd, rhoFinal, pFinalBegin,
                 pEnd, logSumWeightFinal)) {
    return false;
  }

  // Multinomial (uniform by weight) choice between the two halves.
  const double logSumWeightSubtree = detail::logSumExp(logSumWeightInit, logSumWeightFinal);
  logSumWeight = detail::logSumExp(logSumWeight, logSumWeightSubtree);
  if (logSumWeightFinal > logSumWeightSubtree) {
    propose = proposeFinal;
  } else if (random::uniform01(*walk.rng) < std::exp(logSumWeightFinal - logSumWeightSubtree)) {
    propose = proposeFinal;
  }

  const Eigen::VectorXd rhoSubtree = rhoInit + rhoFinal;
  rho += rhoSubtree;

  // The merged subtree must not U-turn, and neither may each half extended by one state
  // across the join (the checks Stan added in 2.22 to catch periodic trajectories).
  bool persist = detail::noUTurn(pSharpBegin, pSharpEnd, rhoSubtree);
  Eigen::VectorXd rhoExtended = rhoInit + pFinalBegin;
  persist = persist && detail::noUTurn(pSharpBegin, pSharpFinalBegin, rhoExtended);
  rhoExtended = rhoFinal + pInitEnd;
  persist = persist && detail::noUTurn(pSharpInitEnd, pSharpEnd, rhoExtended);
  return persist;
}

}  // namespace dpsynth::core::mcmc
