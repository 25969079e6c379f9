#pragma once
/// Streaming Lipschitz reductions (SPEC §1). For draws theta_1..theta_S and records 1..n the
/// contribution of record i under draw s is c_is = clamp(alpha_i f_{theta_s}(x_i), L, U).
/// Everything here is a running max or count: memory is O(n + S), the S×n matrix never exists.
#include <Eigen/Dense>
#include <cstddef>
#include <limits>
#include <vector>

#include "core/models/model.h"

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
};

/// draws: S × dim unconstrained draws (all chains pooled). weights: alpha (n weights, empty =
/// all ones) and the clamp interval [L, U] (infinite = no censoring). threads: workers over
/// draws (results do not depend on it). Quantiles use type 7 (linear interpolation, as R's
/// default).
LipschitzResult computeLipschitz(const models::SynthesisModel& model, const Eigen::MatrixXd& draws,
                                 const models::LikelihoodWeights& weights, int threads = 1);

/// The same with a symmetric clamp [-M, M] (M = infinity: no censoring).
inline LipschitzResult computeLipschitz(const models::SynthesisModel& model,
                                        const Eigen::MatrixXd& draws,
                                        const std::vector<double>& alpha,
                                        double clamp = std::numeric_limits<double>::infinity(),
                                        int threads = 1) {
  return computeLipschitz(model, draws, models::LikelihoodWeights{alpha, -clamp, clamp}, threads);
}

}  // namespace dpsynth::core::privacy
