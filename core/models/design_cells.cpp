#include "core/models/design_cells.h"

#include <algorithm>
#include <numeric>

#include "core/exec/cancellation.h"

namespace dpsynth::core::models {

namespace {

bool isConstant(const Eigen::MatrixXd& X, Eigen::Index j) {
  return (X.col(j).array() == X(0, j)).all();
}

bool isIndicator(const Eigen::MatrixXd& X, Eigen::Index j) {
  return (X.col(j).array() == 0.0 || X.col(j).array() == 1.0).all();
}

/// Puts pattern order[q] at q: y, the design rows and the weights, then the indices that name
/// patterns (recordPattern, terms, which stay sorted by pattern).
void permutePatterns(RecordGroups& groups, const std::vector<std::size_t>& order,
                     const std::stop_token& stop) {
  const auto P = static_cast<Eigen::Index>(order.size());
  std::vector<std::size_t> newIndex(order.size());
  for (std::size_t q = 0; q < order.size(); ++q) newIndex[order[q]] = q;
  Eigen::VectorXd y(P), weight(P);
  for (Eigen::Index q = 0; q < P; ++q) {
    const auto from = static_cast<Eigen::Index>(order[static_cast<std::size_t>(q)]);
    y[q] = groups.y[from];
    weight[q] = groups.weight[from];
  }
  groups.y = std::move(y);
  groups.weight = std::move(weight);
  {
    Eigen::MatrixXd X(P, groups.X.cols());
    for (Eigen::Index j = 0; j < X.cols(); ++j) {
      exec::throwIfStopped(stop);
      for (Eigen::Index q = 0; q < P; ++q) {
        X(q, j) = groups.X(static_cast<Eigen::Index>(order[static_cast<std::size_t>(q)]), j);
      }
    }
    groups.X = std::move(X);
  }
  exec::throwIfStopped(stop);
  for (std::size_t& pattern : groups.recordPattern) pattern = newIndex[pattern];
  for (RecordGroups::Term& term : groups.terms) term.pattern = newIndex[term.pattern];
  std::stable_sort(groups.terms.begin(), groups.terms.end(),
                   [](const RecordGroups::Term& a, const RecordGroups::Term& b) {
                     return a.pattern < b.pattern;
                   });
}

}  // namespace

DesignCells orderByCells(RecordGroups& groups, const std::stop_token& stop) {
  DesignCells out;
  const Eigen::MatrixXd& X = groups.X;
  const Eigen::Index P = X.rows();
  out.start.push_back(0);
  if (P == 0) return out;

  // Each pattern's cell among the columns chosen so far, numbered by first appearance.
  const std::size_t budget =
      std::max<std::size_t>(1, static_cast<std::size_t>(P) / kMinCellPatterns);
  std::vector<int> cell(static_cast<std::size_t>(P), 0), next(static_cast<std::size_t>(P));
  std::vector<int> number;
  std::size_t cells = 1;
  for (Eigen::Index j = 0; j < X.cols(); ++j) {
    exec::throwIfStopped(stop);
    if (isConstant(X, j)) {
      out.cellColumns.push_back(static_cast<int>(j));
      continue;
    }
    bool joins = isIndicator(X, j);
    if (joins) {
      number.assign(2 * cells, -1);
      std::size_t count = 0;
      for (Eigen::Index p = 0; p < P && joins; ++p) {
        const auto key = static_cast<std::size_t>(cell[static_cast<std::size_t>(p)]) * 2 +
                         (X(p, j) != 0.0 ? 1 : 0);
        if (number[key] < 0) {
          if (count == budget) {
            joins = false;
            break;
          }
          number[key] = static_cast<int>(count++);
        }
        next[static_cast<std::size_t>(p)] = number[key];
      }
      if (joins) {
        cell.swap(next);
        cells = count;
      }
    }
    (joins ? out.cellColumns : out.readColumns).push_back(static_cast<int>(j));
  }

  // Counting sort by (inactive, cell): stable, so each cell keeps the patterns' sorted order.
  const std::size_t active = groups.active;
  auto keyOf = [&](std::size_t p) {
    return (p >= active ? cells : 0) + static_cast<std::size_t>(cell[p]);
  };
  std::vector<std::size_t> bucket(2 * cells + 1, 0);
  for (std::size_t p = 0; p < static_cast<std::size_t>(P); ++p) ++bucket[keyOf(p) + 1];
  std::partial_sum(bucket.begin(), bucket.end(), bucket.begin());
  std::vector<std::size_t> order(static_cast<std::size_t>(P));
  {
    std::vector<std::size_t> fill(bucket.begin(), bucket.end() - 1);
    for (std::size_t p = 0; p < order.size(); ++p) order[fill[keyOf(p)]++] = p;
  }
  for (std::size_t b = 1; b + 1 < bucket.size(); ++b) {
    if (bucket[b] != bucket[b - 1] && bucket[b] < static_cast<std::size_t>(P)) {
      out.start.push_back(static_cast<std::ptrdiff_t>(bucket[b]));
    }
  }
  out.start.push_back(static_cast<std::ptrdiff_t>(P));
  bool identity = true;
  for (std::size_t q = 0; q < order.size() && identity; ++q) identity = order[q] == q;
  if (!identity) permutePatterns(groups, order, stop);

  const std::size_t m = out.cellColumns.size();
  out.values.reserve(static_cast<std::size_t>(out.cells()) * m);
  for (int c = 0; c < out.cells(); ++c) {
    for (int column : out.cellColumns) {
      const auto first = static_cast<Eigen::Index>(out.start[static_cast<std::size_t>(c)]);
      out.values.push_back(groups.X(first, column));
    }
  }
  return out;
}

}  // namespace dpsynth::core::models
