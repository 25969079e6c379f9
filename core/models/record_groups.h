#pragma once
/// Merging of identical records. Records with the same outcome and design row ("pattern") have
/// the same log-likelihood, so the likelihood is evaluated once per pattern and scaled by the
/// pattern's total weight: an intercept-only count model costs O(#distinct values) per gradient.
#include <Eigen/Dense>
#include <cstddef>
#include <stop_token>
#include <vector>

namespace dpsynth::core::models {

struct RecordGroups {
  /// A distinct (pattern, α) pair with α > 0 and its multiplicity. Only clamped likelihoods
  /// need these: each record's contribution clamp(α f, L, U) depends on its own α.
  struct Term {
    std::size_t pattern;
    double alpha;
    double count;
  };

  Eigen::VectorXd y;                       ///< P pattern outcomes
  Eigen::MatrixXd X;                       ///< P × K pattern design rows
  Eigen::VectorXd weight;                  ///< P: Σ α_i over each pattern's records
  std::size_t active = 0;                  ///< patterns [0, active) have weight > 0
  std::vector<std::size_t> recordPattern;  ///< n: pattern of each record
  std::vector<Term> terms;                 ///< sorted by pattern; all refer to active patterns

  std::size_t patterns() const { return static_cast<std::size_t>(y.size()); }
};

/// Groups records by exact equality of (y_i, X_i). alpha empty means all ones. Patterns are
/// ordered with the active ones (positive total weight) first, then by outcome and design row,
/// so that the result does not depend on the input order beyond recordPattern. Sorting 10^7
/// records takes seconds: `stop` is checked throughout (exec::Cancelled). withTerms false
/// leaves terms empty, for likelihoods that are not clamped: with every record its own pattern
/// they are n entries of 24 bytes (32 MB kept at 10⁶ records) that nothing would read.
RecordGroups groupRecords(const Eigen::VectorXd& y, const Eigen::MatrixXd& X,
                          const std::vector<double>& alpha, const std::stop_token& stop = {},
                          bool withTerms = true);

}  // namespace dpsynth::core::models
