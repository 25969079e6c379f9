#include "core/pipeline/sampling.h"

#include "core/pipeline/screen.h"

namespace dpsynth::core::pipeline {

std::string samplingName(Sampling sampling) {
  switch (sampling) {
    case Sampling::exactEnvelope:
      return "exact-grid";
    case Sampling::mcmcScreened:
      return "mcmc-screened";
    case Sampling::mcmc:
      return "mcmc";
    case Sampling::none:
      return "none";
  }
  return "none";
}

std::string samplingBasis(Sampling sampling) {
  switch (sampling) {
    case Sampling::exactEnvelope:
      return "The released parameters are an exact draw from the censored pseudo posterior: "
             "rejection sampling from an envelope built on cells of parameter space, which "
             "gives exact draws whatever the cells are. No convergence diagnostic is involved "
             "and no data can make the run refuse.";
    case Sampling::mcmcScreened:
      return "The released parameters come from Markov chain Monte Carlo (NUTS), taken as draws "
             "from the censored pseudo posterior because the chains passed a screen (R-hat at "
             "most " +
             kScreenRhat + ", no divergent transitions, bulk-ESS at least " + kScreenEssPerChain +
             " per chain; a failing screen was retried with fresh "
             "randomness and up to " +
             kScreenMaxBudgetFactorText +
             " the warm-up and draws). Such a screen can detect but not prove convergence: "
             "the DP label rests on the chains having reached the pseudo posterior.";
    case Sampling::mcmc:
      return "The parameters come from Markov chain Monte Carlo (NUTS).";
    case Sampling::none:
      break;
  }
  return "No posterior draw is involved.";
}

}  // namespace dpsynth::core::pipeline
