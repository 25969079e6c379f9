#include "core/mcmc/nuts_transition.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

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

void NutsTransition::reserve(int dim) {
  if (dim == dim_) return;
  dim_ = dim;
  walk_.z = PhasePoint(dim);
  for (PhasePoint* z : {&zForward_, &zBackward_, &zSample_, &zPropose_}) *z = PhasePoint(dim);
  for (Eigen::VectorXd* v :
       {&pSharpFwdFwd_, &pSharpFwdBck_, &pSharpBckFwd_, &pSharpBckBck_, &pFwdFwd_, &pFwdBck_,
        &pBckFwd_, &pBckBck_, &rho_, &rhoForward_, &rhoBackward_, &rhoExtended_, &velocity_}) {
    v->setZero(dim);
  }
  levels_.assign(static_cast<std::size_t>(maxTreeDepth_), Level{});
  for (Level& level : levels_) {
    level.proposeFinal = PhasePoint(dim);
    for (Eigen::VectorXd* v :
         {&level.pInitEnd, &level.pSharpInitEnd, &level.rhoInit, &level.pFinalBegin,
          &level.pSharpFinalBegin, &level.rhoFinal, &level.rhoSubtree, &level.rhoExtended}) {
      v->setZero(dim);
    }
  }
}

TransitionStats NutsTransition::transition(PhasePoint& z, double epsilon, random::Rng& rng,
                                           std::stop_token stop) {
  reserve(z.dim());
  TransitionStats stats;
  Walk& walk = walk_;
  walk.h0 = 0.0;
  walk.signedEpsilon = 0.0;
  walk.leapfrogSteps = 0;
  walk.sumMetropolis = 0.0;
  walk.divergent = false;
  walk.cancelled = false;
  walk.rng = &rng;
  walk.stop = std::move(stop);

  hamiltonian_.sampleMomentum(z, rng);
  hamiltonian_.velocity(z, pSharpFwdFwd_);
  walk.h0 = hamiltonian_.energy(z, pSharpFwdFwd_);

  zForward_ = z;  // the two ends of the trajectory
  zBackward_ = z;
  zSample_ = z;
  zPropose_ = z;

  pSharpFwdBck_ = pSharpFwdFwd_;
  pSharpBckFwd_ = pSharpFwdFwd_;
  pSharpBckBck_ = pSharpFwdFwd_;
  pFwdFwd_ = z.p;
  pFwdBck_ = z.p;
  pBckFwd_ = z.p;
  pBckBck_ = z.p;

  rho_ = z.p;                 // summed momentum over the trajectory
  double logSumWeight = 0.0;  // log(exp(H0 - H0)) for the initial state

  int depth = 0;
  while (depth < maxTreeDepth_) {
    rhoForward_.setZero();
    rhoBackward_.setZero();
    double logSumWeightSubtree = kNegInf;
    bool valid = false;

    if (random::uniform01(rng) > 0.5) {
      // Extend forward: the old trajectory becomes the backward half.
      std::swap(walk.z, zForward_);  // O(1): the end moves with the walk and comes back
      walk.signedEpsilon = epsilon;
      rhoBackward_ = rho_;
      pBckFwd_ = pFwdFwd_;  // the old trajectory's forward end
      pSharpBckFwd_ = pSharpFwdFwd_;
      valid = buildTree(walk, depth, zPropose_, pSharpFwdBck_, pSharpFwdFwd_, rhoForward_, pFwdBck_,
                        pFwdFwd_, logSumWeightSubtree);
      std::swap(walk.z, zForward_);
    } else {
      std::swap(walk.z, zBackward_);
      walk.signedEpsilon = -epsilon;
      rhoForward_ = rho_;
      pFwdBck_ = pBckBck_;  // the old trajectory's backward end
      pSharpFwdBck_ = pSharpBckBck_;
      valid = buildTree(walk, depth, zPropose_, pSharpBckFwd_, pSharpBckBck_, rhoBackward_,
                        pBckFwd_, pBckBck_, logSumWeightSubtree);
      std::swap(walk.z, zBackward_);
    }
    if (!valid) break;
    ++depth;

    // Biased progressive sampling: prefer the new subtree when it outweighs the old trajectory.
    // Swaps rather than copies: the next subtree overwrites zPropose_ before reading it.
    if (logSumWeightSubtree > logSumWeight) {
      std::swap(zSample_, zPropose_);
    } else if (random::uniform01(rng) < std::exp(logSumWeightSubtree - logSumWeight)) {
      std::swap(zSample_, zPropose_);
    }
    logSumWeight = detail::logSumExp(logSumWeight, logSumWeightSubtree);

    rho_ = rhoBackward_ + rhoForward_;
    bool persist = detail::noUTurn(pSharpBckBck_, pSharpFwdFwd_, rho_);
    // Also across the join of the two halves, which the subtree checks cannot see.
    rhoExtended_ = rhoBackward_ + pFwdBck_;
    persist = persist && detail::noUTurn(pSharpBckBck_, pSharpFwdBck_, rhoExtended_);
    rhoExtended_ = rhoForward_ + pBckFwd_;
    persist = persist && detail::noUTurn(pSharpBckFwd_, pSharpFwdFwd_, rhoExtended_);
    if (!persist) break;
  }

  stats.cancelled = walk.cancelled;
  stats.divergent = walk.divergent;
  stats.treeDepth = depth;
  stats.leapfrogSteps = walk.leapfrogSteps;
  stats.acceptStat =
      walk.leapfrogSteps > 0 ? walk.sumMetropolis / static_cast<double>(walk.leapfrogSteps) : 0.0;
  if (!walk.cancelled) z = zSample_;
  hamiltonian_.velocity(z, velocity_);
  stats.energy = hamiltonian_.energy(z, velocity_);
  walk.stop = {};  // release the caller's stop state now, not at the next transition
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
    leapfrog(hamiltonian_, walk.z, walk.signedEpsilon, velocity_);
    ++walk.leapfrogSteps;

    hamiltonian_.velocity(walk.z, pSharpBegin);
    // +inf outside the support or on NaN
    const double h = hamiltonian_.energy(walk.z, pSharpBegin);
    if (h - walk.h0 > kMaxEnergyError) walk.divergent = true;

    logSumWeight = detail::logSumExp(logSumWeight, walk.h0 - h);
    walk.sumMetropolis += walk.h0 - h > 0 ? 1.0 : std::exp(walk.h0 - h);

    propose = walk.z;
    pSharpEnd = pSharpBegin;
    rho += walk.z.p;
    pBegin = walk.z.p;
    pEnd = pBegin;
    return !walk.divergent;
  }

  Level& level = levels_[static_cast<std::size_t>(depth)];

  // Initial half of the subtree.
  double logSumWeightInit = kNegInf;
  level.rhoInit.setZero();
  if (!buildTree(walk, depth - 1, propose, pSharpBegin, level.pSharpInitEnd, level.rhoInit, pBegin,
                 level.pInitEnd, logSumWeightInit)) {
    return false;
  }

  // Final half (its leaves always set proposeFinal before it is read).
  double logSumWeightFinal = kNegInf;
  level.rhoFinal.setZero();
  if (!buildTree(walk, depth - 1, level.proposeFinal, level.pSharpFinalBegin, pSharpEnd,
                 level.rhoFinal, level.pFinalBegin, pEnd, logSumWeightFinal)) {
    return false;
  }

  // Multinomial (uniform by weight) choice between the two halves.
  const double logSumWeightSubtree = detail::logSumExp(logSumWeightInit, logSumWeightFinal);
  logSumWeight = detail::logSumExp(logSumWeight, logSumWeightSubtree);
  // (A swap: proposeFinal is written again before it is next read.)
  if (logSumWeightFinal > logSumWeightSubtree) {
    std::swap(propose, level.proposeFinal);
  } else if (random::uniform01(*walk.rng) < std::exp(logSumWeightFinal - logSumWeightSubtree)) {
    std::swap(propose, level.proposeFinal);
  }

  level.rhoSubtree = level.rhoInit + level.rhoFinal;
  rho += level.rhoSubtree;

  // The merged subtree must not U-turn, and neither may each half extended by one state
  // across the join (the checks Stan added in 2.22 to catch periodic trajectories).
  bool persist = detail::noUTurn(pSharpBegin, pSharpEnd, level.rhoSubtree);
  level.rhoExtended = level.rhoInit + level.pFinalBegin;
  persist = persist && detail::noUTurn(pSharpBegin, level.pSharpFinalBegin, level.rhoExtended);
  level.rhoExtended = level.rhoFinal + level.pInitEnd;
  persist = persist && detail::noUTurn(level.pSharpInitEnd, pSharpEnd, level.rhoExtended);
  return persist;
}

}  // namespace dpsynth::core::mcmc
