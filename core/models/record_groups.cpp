#include "core/models/record_groups.h"

#include <algorithm>
#include <numeric>

namespace dpsynth::core::models {

namespace {

/// Lexicographic order on (y_i, X_i); returns <0, 0, >0.
int compareRecords(const Eigen::VectorXd& y, const Eigen::MatrixXd& X, std::size_t a,
                   std::size_t b) {
  const auto ia = static_cast<Eigen::Index>(a);
  const auto ib = static_cast<Eigen::Index>(b);
  if (y[ia] != y[ib]) return y[ia] < y[ib] ? -1 : 1;
  for (Eigen::Index j = 0; j < X.cols(); ++j) {
    if (X(ia, j) != X(ib, j)) return X(ia, j) < X(ib, j) ? -1 : 1;
  }
  return 0;
}

}  // namespace

RecordGroups groupRecords(const Eigen::VectorXd& y, const Eigen::MatrixXd& X,
                          const std::vector<double>& alpha) {
  const std::size_t n = static_cast<std::size_t>(y.size());
  auto alphaOf = [&](std::size_t i) { return alpha.empty() ? 1.0 : alpha[i]; };

  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const int c = compareRecords(y, X, a, b);
    return c != 0 ? c < 0 : a < b;
  });

  // Provisional patterns in sorted order.
  std::vector<std::size_t> provisional(n);
  std::vector<std::size_t> representative;
  std::vector<double> weight;
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t i = order[k];
    if (k == 0 || compareRecords(y, X, order[k - 1], i) != 0) {
      representative.push_back(i);
      weight.push_back(0.0);
    }
    provisional[i] = representative.size() - 1;
    weight.back() += alphaOf(i);
  }

  // Active patterns first, keeping the sorted order within each part.
  const std::size_t p = representative.size();
  std::vector<std::size_t> byActivity(p);
  std::iota(byActivity.begin(), byActivity.end(), std::size_t{0});
  const auto firstInactive = std::stable_partition(byActivity.begin(), byActivity.end(),
                                                   [&](std::size_t q) { return weight[q] > 0.0; });
  std::vector<std::size_t> finalIndex(p);
  for (std::size_t q = 0; q < p; ++q) finalIndex[byActivity[q]] = q;

  RecordGroups groups;
  groups.active = static_cast<std::size_t>(firstInactive - byActivity.begin());
  groups.y.resize(static_cast<Eigen::Index>(p));
  groups.X.resize(static_cast<Eigen::Index>(p), X.cols());
  groups.weight.resize(static_cast<Eigen::Index>(p));
  for (std::size_t q = 0; q < p; ++q) {
    const auto row = static_cast<Eigen::Index>(representative[byActivity[q]]);
    const auto out = static_cast<Eigen::Index>(q);
    groups.y[out] = y[row];
    groups.X.row(out) = X.row(row);
    groups.weight[out] = weight[byActivity[q]];
  }
  groups.recordPattern.resize(n);
  for (std::size_t i = 0; i < n; ++i) groups.recordPattern[i] = finalIndex[provisional[i]];

  // Distinct (pattern, α) pairs among records with α > 0.
  std::vector<std::pair<std::size_t, double>> pairs;
  pairs.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (alphaOf(i) > 0.0) pairs.emplace_back(groups.recordPattern[i], alphaOf(i));
  }
  std::sort(pairs.begin(), pairs.end());
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    if (k > 0 && pairs[k] == pairs[k - 1]) {
      groups.terms.back().count += 1.0;
    } else {
      groups.terms.push_back({pairs[k].first, pairs[k].second, 1.0});
    }
  }
  return groups;
}

}  // namespace dpsynth::core::models
