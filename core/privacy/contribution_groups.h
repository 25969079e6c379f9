#pragma once
/// Records whose Lipschitz contributions are identical under every draw: the same log-likelihood
/// pattern (SynthesisModel::recordPatterns) and the same weight alpha. A pass over draws keeps
/// its running maxima and censoring flags per group and expands them to the n records once, at
/// the end; for an intercept-only count model that is a few hundred groups instead of n records.
#include <cstddef>
#include <span>
#include <stop_token>
#include <vector>

#include "core/models/model.h"

namespace dpsynth::core::privacy {

struct ContributionGroups {
  std::size_t patterns = 0;              ///< P
  std::vector<std::size_t> pattern;      ///< G: pattern of each group, non-decreasing
  std::vector<double> alpha;             ///< G: weight of each group, increasing within a pattern
  std::vector<std::size_t> firstGroup;   ///< P + 1: pattern p's groups are [first[p], first[p+1])
  std::vector<std::size_t> recordGroup;  ///< n: group of each record

  std::size_t groups() const { return pattern.size(); }
  std::size_t records() const { return recordGroup.size(); }
};

/// recordPattern: the pattern of each of the n records, empty meaning record i is pattern i (then
/// patterns == records). alpha: n weights, empty meaning all ones. O(n + P) apart from sorting
/// the distinct weights within a pattern. Throws std::invalid_argument for inconsistent sizes or
/// a pattern index out of range, exec::Cancelled when `stop` is requested (the passes over 10^7
/// records took a quarter of a second of a study's Ctrl-C).
ContributionGroups groupContributions(std::span<const std::size_t> recordPattern,
                                      std::size_t patterns, std::size_t records,
                                      const std::vector<double>& alpha,
                                      const std::stop_token& stop = {});

/// The groups of a model's records under weights alpha.
inline ContributionGroups groupContributions(const models::SynthesisModel& model,
                                             const std::vector<double>& alpha,
                                             const std::stop_token& stop = {}) {
  return groupContributions(model.recordPatterns(), model.patternCount(), model.records(), alpha,
                            stop);
}

}  // namespace dpsynth::core::privacy
