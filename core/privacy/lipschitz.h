#pragma once
/// Streaming Lipschitz reductions (SPEC §1). For draws theta_1..theta_S and records 1..n the
/// contribution of record i under draw s is c_is = clamp(alpha_i f_{theta_s}(x_i), L, U).
/// Everything here is a running max or count: memory is O(n + S), the S×n matrix never exists.
#include <Eigen/Dense>
#include <cstddef>
#include <limits>
#include <optional>
#include <stop_token>
#include <vector>

#include "core/models/model.h"
#include "core/privacy/contribution_groups.h"

namespace dpsynth::core::privacy {

struct LipschitzResult {
  Eigen::VectorXd perRecord;     ///< Δ_i = max_s |c_is| (clamped when M is finite)
  Eigen::VectorXd perRecordRaw;  ///< max_s |alpha_i f_{theta_s}(x_i)| (never clamped)
  Eigen::VectorXd perDrawMax;    ///< S values: max_i |c_is|
  double max = 0;                ///< Δ_{α,x} = max_i Δ_i; local guarantee ε_x = 2·max
  double maxRaw = 0;             ///< max_i perRecordRaw (the "uncensored" Lipschitz bound)
  double q90 = 0;                ///< 0.9-quantile over draws of perDrawMax
  double q95 = 0;                ///< 0.95-quantile over draws of perDrawMax
  /// #{i : alpha_i f_{theta_s}(x_i) < L or > U for at least one draw s}: records whose
  /// contribution hit the clamp (0 without censoring).
  std::size_t censoredRecords = 0;
  /// Monte Carlo standard deviation of `max` (lipschitzMonteCarloSd); NaN when not estimated.
  double maxMcSd = std::numeric_limits<double>::quiet_NaN();
};

/// draws: S × dim unconstrained draws (all chains pooled). weights: alpha (n weights, empty =
/// all ones) and the clamp interval [L, U] (infinite = no censoring). threads: workers over
/// draws (results do not depend on it). Quantiles use type 7 (linear interpolation, as R's
/// default).
///
/// Records that share (log-likelihood pattern, alpha) have the same contribution under every
/// draw, so the running maxima and censoring flags are kept per such group (contribution_groups.h)
/// and expanded to the n records at the end: per draw the model evaluates each pattern once, in
/// tiles of patterns that stay in cache while the worker's draws go by. Exact: the same bits as
/// evaluating every record under every draw. Memory O(n + S + threads · groups).
LipschitzResult computeLipschitz(const models::SynthesisModel& model, const Eigen::MatrixXd& draws,
                                 const models::LikelihoodWeights& weights, int threads = 1);

/// The same, cancellable: stop is polled before every model evaluation (one draw × one tile of
/// patterns), so a stop ends the pass within one evaluation per worker; returns nullopt then.
/// groups: the grouping of the model's records under weights.alpha if already built (e.g. by a
/// running bound that reduces many batches), null to build it here.
std::optional<LipschitzResult> computeLipschitz(const models::SynthesisModel& model,
                                                const Eigen::MatrixXd& draws,
                                                const models::LikelihoodWeights& weights,
                                                int threads, std::stop_token stop,
                                                const ContributionGroups* groups = nullptr);

/// Monte Carlo standard deviation of Δ = max_s perDrawMax[s], from the spread of the maxima of
/// batches of draws (see lipschitz.cpp for why this estimator and not a bootstrap).
/// chainLengths: the draws of each chain, in the order they are stacked in perDrawMax;
/// batchesPerChain: contiguous batches each chain is cut into. NaN when fewer than 2 batches.
double lipschitzMonteCarloSd(const Eigen::VectorXd& perDrawMax,
                             const std::vector<Eigen::Index>& chainLengths,
                             int batchesPerChain = 4);

/// The same with a symmetric clamp [-M, M] (M = infinity: no censoring).
inline LipschitzResult computeLipschitz(const models::SynthesisModel& model,
                                        const Eigen::MatrixXd& draws,
                                        const std::vector<double>& alpha,
                                        double clamp = std::numeric_limits<double>::infinity(),
                                        int threads = 1) {
  return computeLipschitz(model, draws, models::LikelihoodWeights{alpha, -clamp, clamp}, threads);
}

}  // namespace dpsynth::core::privacy
