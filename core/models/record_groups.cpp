#include "core/models/record_groups.h"

#include <algorithm>
#include <numeric>

#include "core/exec/interruptible_sort.h"

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
                          const std::vector<double>& alpha, const std::stop_token& stop,
                          bool withTerms) {
  const std::size_t n = static_cast<std::size_t>(y.size());
  auto alphaOf = [&](std::size_t i) { return alpha.empty() ? 1.0 : alpha[i]; };

  // Sort by outcome first from contiguous (y, index) pairs: a stable sort leaves ties in index
  // order, and only runs of equal outcomes are then ordered by design row (at n = 10⁶ an index
  // sort whose comparator looked at the design on every tie was a tenth of an intercept-only
  // fit, where nearly every comparison is a tie).
  struct Key {
    double y;
    std::size_t index;
  };
  // The passes over the records below take tens of milliseconds each at 10^7: checked too.
  exec::StopCheck check(stop);
  std::vector<Key> keys(n);
  for (std::size_t i = 0; i < n; ++i) {
    check.tick();
    keys[i] = {y[static_cast<Eigen::Index>(i)], i};
  }
  exec::stableSort(
      keys.begin(), keys.end(), [](const Key& a, const Key& b) { return a.y < b.y; }, stop);
  auto byRow = [&](const Key& a, const Key& b) {
    const int c = compareRecords(y, X, a.index, b.index);
    return c != 0 ? c < 0 : a.index < b.index;
  };
  for (std::size_t begin = 0; begin < n;) {
    std::size_t end = begin + 1;
    while (end < n && keys[end].y == keys[begin].y) ++end;
    check.tick();
    const auto first = keys.begin() + static_cast<std::ptrdiff_t>(begin);
    const auto last = keys.begin() + static_cast<std::ptrdiff_t>(end);
    // byRow is a total order (the index breaks ties), so its stable sort is the sort.
    if (!std::is_sorted(first, last, byRow)) exec::stableSort(first, last, byRow, stop);
    exec::throwIfStopped(stop);
    begin = end;
  }
  std::vector<std::size_t> order(n);
  for (std::size_t k = 0; k < n; ++k) order[k] = keys[k].index;
  keys = {};

  // Provisional patterns in sorted order.
  std::vector<std::size_t> provisional(n);
  std::vector<std::size_t> representative;
  std::vector<double> weight;
  for (std::size_t k = 0; k < n; ++k) {
    check.tick();
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
  exec::throwIfStopped(stop);
  std::vector<std::size_t> finalIndex(p);
  for (std::size_t q = 0; q < p; ++q) finalIndex[byActivity[q]] = q;

  RecordGroups groups;
  groups.active = static_cast<std::size_t>(firstInactive - byActivity.begin());
  groups.y.resize(static_cast<Eigen::Index>(p));
  groups.X.resize(static_cast<Eigen::Index>(p), X.cols());
  groups.weight.resize(static_cast<Eigen::Index>(p));
  for (std::size_t q = 0; q < p; ++q) {
    check.tick();
    const auto row = static_cast<Eigen::Index>(representative[byActivity[q]]);
    const auto out = static_cast<Eigen::Index>(q);
    groups.y[out] = y[row];
    groups.X.row(out) = X.row(row);
    groups.weight[out] = weight[byActivity[q]];
  }
  exec::throwIfStopped(stop);
  groups.recordPattern.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    check.tick();
    groups.recordPattern[i] = finalIndex[provisional[i]];
  }
  if (!withTerms) return groups;

  // Distinct (pattern, α) pairs among records with α > 0, sorted by pattern then α: records
  // bucketed by pattern (a counting sort), then the few weights of each pattern sorted.
  std::vector<std::size_t> start(p + 1, 0);
  for (std::size_t i = 0; i < n; ++i) {
    check.tick();
    ++start[groups.recordPattern[i] + 1];
  }
  for (std::size_t q = 0; q < p; ++q) start[q + 1] += start[q];
  std::vector<double> bucketed(n);
  {
    std::vector<std::size_t> next(start.begin(), start.end() - 1);
    for (std::size_t i = 0; i < n; ++i) {
      check.tick();
      bucketed[next[groups.recordPattern[i]]++] = alphaOf(i);
    }
  }
  for (std::size_t q = 0; q < p; ++q) {
    const auto first = bucketed.begin() + static_cast<std::ptrdiff_t>(start[q]);
    const auto last = bucketed.begin() + static_cast<std::ptrdiff_t>(start[q + 1]);
    if (!std::is_sorted(first, last)) exec::stableSort(first, last, std::less<double>(), stop);
    for (auto it = first; it != last; ++it) {
      check.tick();
      if (!(*it > 0.0)) continue;
      if (!groups.terms.empty() && groups.terms.back().pattern == q &&
          groups.terms.back().alpha == *it) {
        groups.terms.back().count += 1.0;
      } else {
        groups.terms.push_back({q, *it, 1.0});
      }
    }
  }
  return groups;
}

}  // namespace dpsynth::core::models
