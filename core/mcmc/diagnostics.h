#pragma once
/// Convergence diagnostics of Vehtari, Gelman, Simpson, Carpenter & Bürkner (2021):
/// rank-normalised split R-hat, bulk-ESS and tail-ESS.
#include <Eigen/Dense>
#include <string>
#include <vector>

#include "core/mcmc/sampler.h"
#include "core/models/model.h"

namespace dpsynth::core::mcmc {

/// chains: one vector of draws per chain, all the same length (>= 4).
/// The five functions below throw std::invalid_argument for no chains, chains of unequal length
/// or fewer than 4 draws per chain. They return NaN when a draw is not finite or all draws are
/// equal (nothing to diagnose); the ESS functions also when a split chain has fewer than 4
/// draws. R-hat is the maximum over the bulk (ranks) and the tails (ranks of |x - median|).
double rankNormalizedSplitRhat(const std::vector<Eigen::VectorXd>& chains);
double essBulk(const std::vector<Eigen::VectorXd>& chains);
/// Minimum of the ESS of the indicators x <= q5% and x <= q95%.
double essTail(const std::vector<Eigen::VectorXd>& chains);
/// Plain (non-rank) ESS of the split chains, Geyer's initial monotone sequence.
double essBasic(const std::vector<Eigen::VectorXd>& chains);
/// Classic split R-hat on the raw values (no rank normalisation).
double splitRhat(const std::vector<Eigen::VectorXd>& chains);

/// Each chain cut into its first and second half; the middle draw of an odd chain is dropped.
/// Throws std::invalid_argument unless all chains have the same length >= 2.
std::vector<Eigen::VectorXd> splitChains(const std::vector<Eigen::VectorXd>& chains);
/// Normal scores of the ranks pooled over all chains, z = Phi^{-1}((r - 3/8) / (S + 1/4)) with
/// S the total number of draws and tied values sharing their average rank. Same shape as input.
/// Throws std::invalid_argument for a non-finite draw.
std::vector<Eigen::VectorXd> rankNormalize(const std::vector<Eigen::VectorXd>& chains);
/// Biased (divisor N) autocovariance of x at lags 0..N-1, computed by FFT.
Eigen::VectorXd autocovariance(const Eigen::VectorXd& x);
/// Sample quantile of type 7 (linear interpolation between order statistics; R's default).
/// Throws std::invalid_argument for an empty vector or prob outside [0, 1].
double quantile(const Eigen::VectorXd& values, double prob);

struct ParameterSummary {
  std::string name;
  double mean = 0, sd = 0, q025 = 0, q50 = 0, q975 = 0;
  double rhat = 1, essBulk = 0, essTail = 0;
};

/// Summary of every constrained parameter (names from model.parameterNames()): each draw is
/// mapped through model.constrain first. sd uses the n - 1 divisor; quantiles are type 7;
/// rhat and ESS are NaN when there are fewer than 4 draws per chain. Throws
/// std::invalid_argument when the result holds no chains (e.g. a cancelled run).
std::vector<ParameterSummary> summarize(const models::Model& model, const SampleResult& result);

}  // namespace dpsynth::core::mcmc
