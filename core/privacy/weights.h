#pragma once
/// Record weights of the vector-weighted mechanisms (SPEC §4).
#include <Eigen/Dense>
#include <vector>

namespace dpsynth::core::privacy {

/// LW: f̃_i = (f_i - min f)/(max f - min f); alpha_i = clamp(c(1 - f̃_i) + g, 0, 1), where
/// f_i = max_s |f_{theta_s}(x_i)| from the unweighted fit. When all f_i are equal, f̃ ≡ 0.
std::vector<double> lwWeights(const Eigen::VectorXd& f, double c, double g);

/// LW weights as a weight FUNCTION fitted on a reference dataset (SPEC §0, 002 §4.5): the same
/// formula as lwWeights, but f̃_i = (f_i - refMin)/(refMax - refMin) with the minimum and
/// maximum of f over the REFERENCE records, so record i's weight depends on its own f_i (and
/// the public reference) only: changing one record changes no other weight. Values outside the
/// reference range are absorbed by the clamp to [0, 1]; a non-finite f_i counts as beyond the
/// reference maximum.
std::vector<double> lwWeightsFromReference(const Eigen::VectorXd& f, double refMin, double refMax,
                                           double c, double g);

/// Isolation risk IR_i = #{j : |y_j - y_i| > r_i}/n with r_i = r (absolute) or r·|y_i|
/// (relative). O(n log n): sort once, two binary searches per record.
Eigen::VectorXd isolationRisk(const Eigen::VectorXd& y, double r, bool relative);

/// CW: alpha_i = clamp(c(1 - IR_i) + g, 0, 1).
std::vector<double> cwWeights(const Eigen::VectorXd& y, double r, bool relative, double c,
                              double g);

/// Re-weighting (the "-final" step): alpha^w_i = clamp(k alpha_i Δ / Δ_i, 0, 1), where Δ_i is
/// record i's OWN bound (max over draws of |alpha_i f|, not a per-draw maximum) and
/// Δ = max_i Δ_i. alpha_i = 0 stays 0; a record with Δ_i = 0 and alpha_i > 0 gets weight 1.
/// Since Δ/Δ_i >= 1, no weight falls below k times its old value.
std::vector<double> reweight(const std::vector<double>& alpha,
                             const Eigen::VectorXd& deltaPerRecord, double k);

/// Weighted-e: a copy of alpha with every record whose perRecord bound exceeds epsilon/2 set
/// to 0. truncated (if given) receives the number of records set to zero.
std::vector<double> truncateAbove(const std::vector<double>& alpha,
                                  const Eigen::VectorXd& deltaPerRecord, double halfEpsilon,
                                  std::size_t* truncated = nullptr);

/// Multiplies every weight by d in (0, 1].
std::vector<double> downscale(const std::vector<double>& alpha, double d);

}  // namespace dpsynth::core::privacy
