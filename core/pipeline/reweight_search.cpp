#include "core/pipeline/reweight_search.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace dpsynth::core::pipeline::detail {

namespace {
struct Point {
  double k;
  double bound;
};
}  // namespace

ReweightSearch searchReweightK(double target, const std::function<StagePtr(double)>& fit) {
  ReweightSearch out;
  const double aim = target * (1.0 - kBand / 2.0);
  std::optional<Point> under;  // largest k with bound <= target
  std::optional<Point> over;   // smallest k with bound > target
  double k = kStartK;
  for (int i = 0; i < kMaxRefits; ++i) {
    StagePtr s = fit(k);
    if (!s) {
      out.cancelled = true;
      return out;
    }
    ++out.refits;
    const double bound = s->lipschitz.max;
    if (bound <= target) {
      if (!out.chosen || k > *out.chosen->k) out.chosen = s;
      if (!under || k > under->k) under = Point{k, bound};
      if (bound >= target * (1.0 - kBand)) break;
    } else if (!over || k < over->k) {
      over = Point{k, bound};
    }

    double next;
    if (under && over) {
      const double slope = (over->bound - under->bound) / (over->k - under->k);
      next = slope > 0 ? under->k + (aim - under->bound) / slope : 0.5 * (under->k + over->k);
      if (!(next > under->k && next < over->k)) next = 0.5 * (under->k + over->k);
    } else if (under) {
      if (under->k >= 1.0) break;  // already at the largest k: the shortfall stays
      next = std::min(1.0, under->k * aim / std::max(under->bound, 1e-300));
    } else {
      next = over->k * aim / over->bound;
    }
    if (std::abs(next - k) < 1e-6) break;
    k = next;
  }
  if (out.chosen) out.shortfall = 1.0 - out.chosen->lipschitz.max / target;
  return out;
}

}  // namespace dpsynth::core::pipeline::detail
