#include "core/utility/disclosure_risk.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>
#include <unordered_map>

#include "core/exec/cancellation.h"
#include "core/exec/interruptible_sort.h"

namespace dpsynth::core::utility {

namespace {

bool matches(double a, double b, double tolerance) {
  return std::abs(a - b) <= tolerance * std::max(std::abs(a), std::abs(b));
}

/// Outcomes of one key group, sorted.
using Groups = std::unordered_map<std::string, std::vector<double>>;

/// Record i's key; every record shares the empty key when `keys` is empty (no covariates).
const std::string& keyAt(const std::vector<std::string>& keys, std::size_t i) {
  static const std::string kNone;
  return keys.empty() ? kNone : keys[i];
}

Groups groupOutcomes(const std::vector<std::string>& keys, const Eigen::VectorXd& y,
                     const std::stop_token& stop) {
  Groups groups;
  for (std::size_t i = 0; i < static_cast<std::size_t>(y.size()); ++i) {
    if ((i & 65535) == 0) exec::throwIfStopped(stop);
    groups[keyAt(keys, i)].push_back(y[static_cast<Eigen::Index>(i)]);
  }
  for (auto& [key, values] : groups)
    exec::stableSort(values.begin(), values.end(), std::less<double>(), stop);
  return groups;
}

/// How many values of a sorted group match v. The matches form one run of the sorted values
/// (for v > 0 they are [v(1 − τ), v/(1 − τ)], mirrored for v < 0, {0} for v = 0), so the count
/// is the length of that run: binary searches on a slightly wider window, whose ends are then
/// trimmed with the exact test (O(log n); counting value by value was O(n) per record, hours
/// on 10^6 records).
std::size_t matchCount(const std::vector<double>& sorted, double v, double tolerance) {
  const double reach = tolerance * std::abs(v) / (1.0 - tolerance);
  const double slack = 1e-12 * std::abs(v);
  auto lo = std::lower_bound(sorted.begin(), sorted.end(), v - reach - slack);
  auto hi = std::upper_bound(sorted.begin(), sorted.end(), v + reach + slack);
  while (lo != hi && !matches(*lo, v, tolerance)) ++lo;
  while (hi != lo && !matches(*std::prev(hi), v, tolerance)) --hi;
  return static_cast<std::size_t>(hi - lo);
}

double median(const std::vector<double>& sorted) {
  const std::size_t n = sorted.size();
  return n % 2 == 1 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
}

/// Distance from v to the nearest value of a sorted group (infinity for an empty group).
double nearest(const std::vector<double>& sorted, double v) {
  auto it = std::lower_bound(sorted.begin(), sorted.end(), v);
  double best = std::numeric_limits<double>::infinity();
  if (it != sorted.end()) best = *it - v;
  if (it != sorted.begin()) best = std::min(best, v - *std::prev(it));
  return best;
}

}  // namespace

DisclosureRisk measureDisclosureRisk(const std::vector<std::string>& keysConf,
                                     const Eigen::VectorXd& yConf,
                                     const std::vector<std::string>& keysSyn,
                                     const Eigen::VectorXd& ySyn, double tolerance,
                                     const std::stop_token& stop) {
  if (keysConf.empty() != keysSyn.empty() ||
      (!keysConf.empty() && (keysConf.size() != static_cast<std::size_t>(yConf.size()) ||
                             keysSyn.size() != static_cast<std::size_t>(ySyn.size()))))
    throw std::invalid_argument("disclosure risk: one key per record is needed (or none at all)");
  if (!(tolerance >= 0.0 && tolerance < 1.0))
    throw std::invalid_argument("disclosure risk: the tolerance must be in [0, 1)");
  DisclosureRisk out;
  const Groups conf = groupOutcomes(keysConf, yConf, stop);
  const Groups syn = groupOutcomes(keysSyn, ySyn, stop);
  std::vector<double> all(yConf.data(), yConf.data() + yConf.size());
  exec::stableSort(all.begin(), all.end(), std::less<double>(), stop);
  const double overallMedian = all.empty() ? 0.0 : median(all);

  std::size_t replicated = 0, capHits = 0, baselineHits = 0;
  std::vector<double> neighbour;  // each confidential record's distance to its nearest other
  // Each record costs a few binary searches: checked every 4096 records.
  for (std::size_t i = 0; i < static_cast<std::size_t>(yConf.size()); ++i) {
    if ((i & 4095) == 0) exec::throwIfStopped(stop);
    const double y = yConf[static_cast<Eigen::Index>(i)];
    const std::string& key = keyAt(keysConf, i);
    const std::vector<double>& own = conf.at(key);
    if (matchCount(own, y, tolerance) == 1) {  // itself only
      ++out.uniques;
      const auto s = syn.find(key);
      if (s != syn.end() && matchCount(s->second, y, tolerance) == 1) ++replicated;
    }
    if (const auto s = syn.find(key); s != syn.end()) {
      ++out.matched;
      capHits += matches(median(s->second), y, tolerance) ? 1 : 0;
      baselineHits += matches(overallMedian, y, tolerance) ? 1 : 0;
    }
    if (own.size() >= 2) {
      // The nearest other value: the sorted neighbours of y's position (one copy of y is this
      // record itself).
      auto it = std::lower_bound(own.begin(), own.end(), y);
      double best = std::numeric_limits<double>::infinity();
      if (it + 1 != own.end()) best = *(it + 1) - y;
      if (it != own.begin()) best = std::min(best, y - *std::prev(it));
      neighbour.push_back(best);
    }
  }
  if (out.uniques > 0)
    out.replicatedUniques = static_cast<double>(replicated) / static_cast<double>(out.uniques);
  if (out.matched > 0) {
    out.attributeCap = static_cast<double>(capHits) / static_cast<double>(out.matched);
    out.attributeCapBaseline = static_cast<double>(baselineHits) / static_cast<double>(out.matched);
  }
  if (!neighbour.empty() && ySyn.size() > 0) {
    exec::stableSort(neighbour.begin(), neighbour.end(), std::less<double>(), stop);
    const double q05 = neighbour[static_cast<std::size_t>(0.05 * static_cast<double>(neighbour.size() - 1))];
    std::size_t close = 0;
    for (std::size_t r = 0; r < static_cast<std::size_t>(ySyn.size()); ++r) {
      if ((r & 4095) == 0) exec::throwIfStopped(stop);
      const auto c = conf.find(keyAt(keysSyn, r));
      if (c != conf.end() && nearest(c->second, ySyn[static_cast<Eigen::Index>(r)]) <= q05) ++close;
    }
    out.dcrShare = static_cast<double>(close) / static_cast<double>(ySyn.size());
  }
  return out;
}

}  // namespace dpsynth::core::utility
