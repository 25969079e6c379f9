#include "core/privacy/contribution_groups.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "core/exec/cancellation.h"

namespace dpsynth::core::privacy {

ContributionGroups groupContributions(std::span<const std::size_t> recordPattern,
                                      std::size_t patterns, std::size_t records,
                                      const std::vector<double>& alpha,
                                      const std::stop_token& stop) {
  const bool identity = recordPattern.empty();
  if (identity && patterns != records) {
    throw std::invalid_argument(
        "groupContributions: without a pattern map every record is its "
        "own pattern");
  }
  if (!identity && recordPattern.size() != records) {
    throw std::invalid_argument("groupContributions: " + std::to_string(recordPattern.size()) +
                                " pattern indices for " + std::to_string(records) + " records");
  }
  if (!alpha.empty() && alpha.size() != records) {
    throw std::invalid_argument("groupContributions: " + std::to_string(alpha.size()) +
                                " weights for " + std::to_string(records) + " records");
  }
  auto patternOf = [&](std::size_t i) { return identity ? i : recordPattern[i]; };
  auto alphaOf = [&](std::size_t i) { return alpha.empty() ? 1.0 : alpha[i]; };

  exec::StopCheck check(stop);
  // Records ordered by pattern (a stable counting sort).
  std::vector<std::size_t> offset(patterns + 1, 0);
  for (std::size_t i = 0; i < records; ++i) {
    check.tick();
    const std::size_t p = patternOf(i);
    if (p >= patterns) throw std::invalid_argument("groupContributions: pattern out of range");
    ++offset[p + 1];
  }
  for (std::size_t p = 0; p < patterns; ++p) offset[p + 1] += offset[p];
  std::vector<std::size_t> order(records);
  {
    std::vector<std::size_t> next(offset.begin(), offset.end() - 1);
    for (std::size_t i = 0; i < records; ++i) {
      check.tick();
      order[next[patternOf(i)]++] = i;
    }
  }

  ContributionGroups g;
  g.patterns = patterns;
  g.firstGroup.resize(patterns + 1);
  g.recordGroup.resize(records);
  g.pattern.reserve(patterns);
  g.alpha.reserve(patterns);
  std::vector<double> distinct;
  for (std::size_t p = 0; p < patterns; ++p) {
    check.tick();
    g.firstGroup[p] = g.pattern.size();
    const std::size_t begin = offset[p], end = offset[p + 1];
    if (begin == end) continue;  // a pattern without records (cannot happen for GlmModel)
    const double first = alphaOf(order[begin]);
    bool uniform = true;
    for (std::size_t k = begin + 1; k < end && uniform; ++k) uniform = alphaOf(order[k]) == first;
    if (uniform) {
      // The usual case: one weight per pattern (unweighted, or weights that are a function of
      // the record's values).
      const std::size_t group = g.pattern.size();
      g.pattern.push_back(p);
      g.alpha.push_back(first);
      for (std::size_t k = begin; k < end; ++k) {
        check.tick();
        g.recordGroup[order[k]] = group;
      }
      continue;
    }
    distinct.clear();
    for (std::size_t k = begin; k < end; ++k) distinct.push_back(alphaOf(order[k]));
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    const std::size_t base = g.pattern.size();
    for (double a : distinct) {
      g.pattern.push_back(p);
      g.alpha.push_back(a);
    }
    for (std::size_t k = begin; k < end; ++k) {
      const double a = alphaOf(order[k]);
      const auto at = std::lower_bound(distinct.begin(), distinct.end(), a) - distinct.begin();
      g.recordGroup[order[k]] = base + static_cast<std::size_t>(at);
    }
  }
  g.firstGroup[patterns] = g.pattern.size();
  return g;
}

}  // namespace dpsynth::core::privacy
