#include "core/utility/disclosure_risk.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <span>
#include <stdexcept>
#include <unordered_map>

#include "core/exec/cancellation.h"
#include "core/exec/interruptible_sort.h"

namespace dpsynth::core::utility {

namespace {

bool matches(double a, double b, double tolerance) {
  return std::abs(a - b) <= tolerance * std::max(std::abs(a), std::abs(b));
}

/// Outcomes by key group, compressed: group g's outcomes are values[start[g], start[g + 1]),
/// sorted. 12 bytes per record, where a hash map of key strings to vectors cost over 200 bytes
/// (390 MB at 10^6 records with continuous covariates, every record its own group).
struct Groups {
  std::vector<std::size_t> start;
  std::vector<double> values;

  std::size_t count() const { return start.size() - 1; }
  std::span<const double> at(std::size_t g) const {
    if (g >= count()) return {};
    return {values.data() + start[g], start[g + 1] - start[g]};
  }
};

/// Record i's group; every record is in group 0 when `ids` is empty (no covariates).
std::uint32_t groupAt(const std::vector<std::uint32_t>& ids, std::size_t i) {
  return ids.empty() ? 0u : ids[i];
}

Groups groupOutcomes(const std::vector<std::uint32_t>& ids, std::size_t groups,
                     const Eigen::VectorXd& y, const std::stop_token& stop) {
  Groups out;
  const auto n = static_cast<std::size_t>(y.size());
  out.start.assign(groups + 1, 0);
  for (std::size_t i = 0; i < n; ++i) ++out.start[groupAt(ids, i) + 1];
  for (std::size_t g = 0; g < groups; ++g) out.start[g + 1] += out.start[g];
  out.values.resize(n);
  std::vector<std::size_t> next(out.start.begin(), out.start.end() - 1);
  for (std::size_t i = 0; i < n; ++i) {
    if ((i & 65535) == 0) exec::throwIfStopped(stop);
    out.values[next[groupAt(ids, i)]++] = y[static_cast<Eigen::Index>(i)];
  }
  for (std::size_t g = 0; g < groups; ++g) {
    const auto first = out.values.begin() + static_cast<std::ptrdiff_t>(out.start[g]);
    const auto last = out.values.begin() + static_cast<std::ptrdiff_t>(out.start[g + 1]);
    if (last - first > 1) exec::stableSort(first, last, std::less<double>(), stop);
  }
  return out;
}

/// How many values of a sorted group match v. The matches form one run of the sorted values
/// (for v > 0 they are [v(1 − τ), v/(1 − τ)], mirrored for v < 0, {0} for v = 0), so the count
/// is the length of that run: binary searches on a slightly wider window, whose ends are then
/// trimmed with the exact test (O(log n); counting value by value was O(n) per record, hours
/// on 10^6 records).
std::size_t matchCount(std::span<const double> sorted, double v, double tolerance) {
  const double reach = tolerance * std::abs(v) / (1.0 - tolerance);
  const double slack = 1e-12 * std::abs(v);
  auto lo = std::lower_bound(sorted.begin(), sorted.end(), v - reach - slack);
  auto hi = std::upper_bound(sorted.begin(), sorted.end(), v + reach + slack);
  while (lo != hi && !matches(*lo, v, tolerance)) ++lo;
  while (hi != lo && !matches(*std::prev(hi), v, tolerance)) --hi;
  return static_cast<std::size_t>(hi - lo);
}

double median(std::span<const double> sorted) {
  const std::size_t n = sorted.size();
  return n % 2 == 1 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
}

/// Distance from v to the nearest value of a sorted group (infinity for an empty group).
double nearest(std::span<const double> sorted, double v) {
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
  // Number the distinct keys; a synthetic key the confidential data lack gets a number of its
  // own (its group there is empty).
  std::unordered_map<std::string, std::uint32_t> number;
  auto idOf = [&](const std::string& key) {
    return number.emplace(key, static_cast<std::uint32_t>(number.size())).first->second;
  };
  std::vector<std::uint32_t> idsConf, idsSyn;
  idsConf.reserve(keysConf.size());
  idsSyn.reserve(keysSyn.size());
  for (const auto& k : keysConf) idsConf.push_back(idOf(k));
  for (const auto& k : keysSyn) idsSyn.push_back(idOf(k));
  return measureDisclosureRiskByGroup(idsConf, yConf, idsSyn, ySyn, tolerance, stop);
}

DisclosureRisk measureDisclosureRiskByGroup(const std::vector<std::uint32_t>& groupsConf,
                                            const Eigen::VectorXd& yConf,
                                            const std::vector<std::uint32_t>& groupsSyn,
                                            const Eigen::VectorXd& ySyn, double tolerance,
                                            const std::stop_token& stop) {
  if (groupsConf.empty() != groupsSyn.empty() ||
      (!groupsConf.empty() && (groupsConf.size() != static_cast<std::size_t>(yConf.size()) ||
                               groupsSyn.size() != static_cast<std::size_t>(ySyn.size()))))
    throw std::invalid_argument("disclosure risk: one key per record is needed (or none at all)");
  if (!(tolerance >= 0.0 && tolerance < 1.0))
    throw std::invalid_argument("disclosure risk: the tolerance must be in [0, 1)");
  std::size_t groups = 1;
  for (std::uint32_t g : groupsConf) groups = std::max<std::size_t>(groups, std::size_t{g} + 1);
  for (std::uint32_t g : groupsSyn) groups = std::max<std::size_t>(groups, std::size_t{g} + 1);
  DisclosureRisk out;
  const Groups conf = groupOutcomes(groupsConf, groups, yConf, stop);
  const Groups syn = groupOutcomes(groupsSyn, groups, ySyn, stop);
  std::vector<double> all(yConf.data(), yConf.data() + yConf.size());
  exec::stableSort(all.begin(), all.end(), std::less<double>(), stop);
  const double overallMedian = all.empty() ? 0.0 : median(all);

  std::size_t replicated = 0, capHits = 0, baselineHits = 0;
  std::vector<double> neighbour;  // each confidential record's distance to its nearest other
  // Each record costs a few binary searches: checked every 4096 records.
  for (std::size_t i = 0; i < static_cast<std::size_t>(yConf.size()); ++i) {
    if ((i & 4095) == 0) exec::throwIfStopped(stop);
    const double y = yConf[static_cast<Eigen::Index>(i)];
    const std::uint32_t g = groupAt(groupsConf, i);
    const std::span<const double> own = conf.at(g);
    const std::span<const double> theirs = syn.at(g);
    if (matchCount(own, y, tolerance) == 1) {  // itself only
      ++out.uniques;
      if (!theirs.empty() && matchCount(theirs, y, tolerance) == 1) ++replicated;
    }
    if (!theirs.empty()) {
      ++out.matched;
      capHits += matches(median(theirs), y, tolerance) ? 1 : 0;
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
    const double q05 =
        neighbour[static_cast<std::size_t>(0.05 * static_cast<double>(neighbour.size() - 1))];
    std::size_t close = 0;
    for (std::size_t r = 0; r < static_cast<std::size_t>(ySyn.size()); ++r) {
      if ((r & 4095) == 0) exec::throwIfStopped(stop);
      const std::span<const double> c = conf.at(groupAt(groupsSyn, r));
      if (!c.empty() && nearest(c, ySyn[static_cast<Eigen::Index>(r)]) <= q05) ++close;
    }
    out.dcrShare = static_cast<double>(close) / static_cast<double>(ySyn.size());
  }
  return out;
}

}  // namespace dpsynth::core::utility
