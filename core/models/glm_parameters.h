#pragma once
/// Small helpers shared by the families' cold paths (names, transforms, starting points, priors).
#include <Eigen/Dense>
#include <string>
#include <vector>

namespace dpsynth::core::models::detail {

/// {"beta[0]", "beta[1]", ...}.
std::vector<std::string> indexedNames(const std::string& stem, int count);

/// Throws std::invalid_argument unless v.size() == size.
void requireSize(const Eigen::VectorXd& v, int size);

/// Throws std::invalid_argument naming `what` unless x > lower (and finite).
void requireAbove(double x, double lower, const char* what);

/// Throws std::domain_error naming `what` unless x is finite (simulation from a draw that
/// gives an infinite mean or scale).
double finiteOrThrow(double x, const char* what);

/// log of the mean of counts, floored so that an all-zero outcome still gives a finite start.
double logMeanCount(const Eigen::VectorXd& y);

/// Σ -x_j² / (2 sd²) (normalising constant dropped); adds the gradient into grad.
double addNormalPrior(const Eigen::Ref<const Eigen::VectorXd>& x, double sd,
                      Eigen::Ref<Eigen::VectorXd> grad);

/// Half-Cauchy(0, scale) on s > 0 sampled as v = log s, Jacobian included:
/// -log(1 + (s/scale)²) + v (constant dropped); adds d/dv into grad.
double addLogHalfCauchyPrior(double v, double scale, double& grad);

}  // namespace dpsynth::core::models::detail
