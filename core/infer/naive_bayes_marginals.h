#pragma once
/// Closed-form marginals of the naive-Bayes parameters (004 §4): every probability vector has a
/// Dirichlet prior, so each θ entry is marginally Beta(a, b), a priori and, given exact
/// (confidential) class×feature counts, a posteriori (conjugacy). The studio draws them beside
/// the data-augmentation posterior.
#include <Eigen/Dense>
#include <string>
#include <vector>

#include "core/infer/naive_bayes_release.h"

namespace dpsynth::core::infer {

struct BetaMarginal {
  double a = 1.0, b = 1.0;
  /// The Beta(a, b) density at x (0 outside [0, 1]).
  double density(double x) const;
  double mean() const { return a / (a + b); }
};

/// Marginal of θ[parameter] (NaiveBayesModel order) under Dirichlet(α + counts): counts are
/// class×feature counts in NaiveBayesLayout::cell() order (zero for the prior). The class
/// counts are the sums over the first feature's levels. Throws std::invalid_argument for a
/// parameter out of range or counts of the wrong length.
BetaMarginal naiveBayesMarginal(const NaiveBayesModel& model, const Eigen::VectorXd& counts,
                                int parameter);
/// The prior marginal: naiveBayesMarginal with zero counts.
BetaMarginal naiveBayesPriorMarginal(const NaiveBayesModel& model, int parameter);

}  // namespace dpsynth::core::infer
