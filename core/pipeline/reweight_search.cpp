#include "core/pipeline/reweight_search.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace dpsynth::core::pipeline::detail {

namespace {
struct Point {
  double k;
  double bound;
};

/// Root mean square of the finite Monte Carlo sds seen so far (the fits share the model and the
/// sampler settings, so their sds estimate one quantity; pooling steadies the estimate).
class PooledSd {
 public:
  void add(double sd) {
    if (std::isfinite(sd) && sd >= 0.0) {
      sumSquares_ += sd * sd;
      ++count_;
    }
  }
  double value() const {
    return count_ > 0 ? std::sqrt(sumSquares_ / count_) : std::numeric_limits<double>::quiet_NaN();
  }

 private:
  double sumSquares_ = 0.0;
  int count_ = 0;
};
}  // namespace

double reweightBand(double mcSd, double target) {
  if (!std::isfinite(mcSd) || !(target > 0.0) || !std::isfinite(target)) return kMinBand;
  return std::clamp(kBandSds * mcSd / target, kMinBand, kMaxBand);
}

ReweightSearch searchReweightK(double target, double targetMcSd,
                               const std::function<StagePtr(double)>& fit) {
  ReweightSearch out;
  PooledSd pooled;
  pooled.add(targetMcSd);
  out.mcSd = pooled.value();
  out.band = reweightBand(out.mcSd, target);
  std::optional<Point> under;  // largest k with bound <= target
  std::optional<Point> over;   // smallest k with bound > target
  std::optional<double> previousBound;
  double k = kStartK;
  for (int i = 0; i < kMaxRefits; ++i) {
    StagePtr s = fit(k);
    if (!s) {
      out.cancelled = true;
      return out;
    }
    ++out.refits;
    pooled.add(s->lipschitz.maxMcSd);
    out.mcSd = pooled.value();
    out.band = reweightBand(out.mcSd, target);
    const double bound = s->lipschitz.max;
    if (bound <= target) {
      if (!out.chosen || k > *out.chosen->k) out.chosen = s;
      if (!under || k > under->k) under = Point{k, bound};
      if (bound >= target * (1.0 - out.band)) break;
    } else if (!over || k < over->k) {
      over = Point{k, bound};
    }
    // Two consecutive fits that Monte Carlo error cannot tell apart: the bound does not respond
    // to k here at a scale the search can see, so more refits would only chase noise.
    if (out.chosen && previousBound && std::isfinite(out.mcSd) &&
        std::abs(bound - *previousBound) < out.mcSd) {
      out.stoppedOnNoise = true;
      break;
    }
    previousBound = bound;

    const double aim = target * (1.0 - out.band / 2.0);
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
