#pragma once
/// Empirical privacy audits (SPEC §0): a mechanism is run many times on a database x and on a
/// neighbour x′, and the outputs are reduced to events E; a Clopper–Pearson lower confidence
/// bound on log P(E | x)/P(E | x′) is a lower bound on the mechanism's ε (with 95% family-wise
/// confidence over all events tried, Bonferroni). An audit must not flag an honest mechanism
/// (bound below its label) and must flag a broken one (bound above its label), so that it is
/// known to have the power to see a violation.
#include <algorithm>
#include <array>
#include <boost/math/distributions/beta.hpp>
#include <cmath>
#include <cstdio>
#include <map>
#include <vector>

namespace dpsynth::test {

/// Two-sided Clopper–Pearson bounds at level alpha for k successes in n trials.
inline double auditCpLower(int k, int n, double alpha) {
  if (k == 0) return 0.0;
  return boost::math::quantile(boost::math::beta_distribution<>(k, n - k + 1), alpha / 2);
}
inline double auditCpUpper(int k, int n, double alpha) {
  if (k == n) return 1.0;
  return boost::math::quantile(boost::math::beta_distribution<>(k + 1, n - k), 1 - alpha / 2);
}

/// The largest lower bound on log P(E|a)/P(E|b) and log P(E|b)/P(E|a) over events given as
/// counts: hits[e] = {k_a, k_b} out of na and nb runs. alpha is shared by every event and
/// direction (Bonferroni).
inline double auditLossLowerBound(const std::vector<std::array<int, 2>>& hits, int na, int nb) {
  if (hits.empty()) return 0.0;
  const double alpha = 0.05 / (2.0 * static_cast<double>(hits.size()));
  double best = 0;
  for (const auto& [ka, kb] : hits) {
    for (auto [k1, n1, k2, n2] : {std::array{ka, na, kb, nb}, std::array{kb, nb, ka, na}}) {
      const double lo = auditCpLower(k1, n1, alpha), hi = auditCpUpper(k2, n2, alpha);
      if (lo > 0 && hi > 0) best = std::max(best, std::log(lo / hi));
    }
  }
  return best;
}

/// A real-valued output: events {v <= t} and {v > t} at the deciles of the pooled values.
inline double auditLossLowerBound(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<double> pooled = a;
  pooled.insert(pooled.end(), b.begin(), b.end());
  std::sort(pooled.begin(), pooled.end());
  std::vector<std::array<int, 2>> hits;
  const int na = static_cast<int>(a.size()), nb = static_cast<int>(b.size());
  for (int q = 1; q <= 9; ++q) {
    const double t = pooled[pooled.size() * static_cast<std::size_t>(q) / 10];
    const int ka =
        static_cast<int>(std::count_if(a.begin(), a.end(), [&](double v) { return v <= t; }));
    const int kb =
        static_cast<int>(std::count_if(b.begin(), b.end(), [&](double v) { return v <= t; }));
    hits.push_back({ka, kb});
    hits.push_back({na - ka, nb - kb});
  }
  return auditLossLowerBound(hits, na, nb);
}

/// A real-valued output and one event fixed in advance (from the mechanism's analysis, not from
/// the sample): {v <= t} and its complement. Fewer events than the deciles, so a smaller
/// Bonferroni correction where the analysis says which event carries the loss.
inline double auditLossLowerBoundAt(const std::vector<double>& a, const std::vector<double>& b,
                                    double t) {
  const int na = static_cast<int>(a.size()), nb = static_cast<int>(b.size());
  const int ka =
      static_cast<int>(std::count_if(a.begin(), a.end(), [&](double v) { return v <= t; }));
  const int kb =
      static_cast<int>(std::count_if(b.begin(), b.end(), [&](double v) { return v <= t; }));
  return auditLossLowerBound({{ka, kb}, {na - ka, nb - kb}}, na, nb);
}

/// A discrete output (a row count, a family, whether a file appeared): one event per value seen.
template <class T>
double auditLossLowerBoundDiscrete(const std::vector<T>& a, const std::vector<T>& b) {
  std::map<T, std::array<int, 2>> counts;
  for (const T& v : a) ++counts[v][0];
  for (const T& v : b) ++counts[v][1];
  std::vector<std::array<int, 2>> hits;
  for (const auto& [value, k] : counts) hits.push_back(k);
  return auditLossLowerBound(hits, static_cast<int>(a.size()), static_cast<int>(b.size()));
}

/// One line of the README's audit table: what was audited, its relation and label, the
/// statistic, runs per database, the bound and the verdict.
inline void printAuditRow(const char* what, const char* relation, double label,
                          const char* statistic, int runs, double bound, bool broken) {
  std::printf("audit | %s | %s | %.2f | %s | %d | %.2f | %s |\n", what, relation, label, statistic,
              runs, bound,
              broken ? (bound > label ? "broken variant, caught" : "broken variant, MISSED")
                     : (bound < label ? "holds" : "VIOLATED"));
}

}  // namespace dpsynth::test
