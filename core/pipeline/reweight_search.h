#pragma once
/// The k = auto search of the re-weighting step (SPEC §4): find k so that the re-weighted fit's
/// Lipschitz bound lands within 1% below the target (the bound before re-weighting) without
/// exceeding it, in at most kMaxRefits refits.
#include <functional>

#include "core/pipeline/stage.h"

namespace dpsynth::core::pipeline::detail {

inline constexpr int kMaxRefits = 8;
inline constexpr double kStartK = 0.95;
inline constexpr double kBand = 0.01;

struct ReweightSearch {
  StagePtr chosen;        ///< largest k whose bound <= target; null if none did
  double shortfall = 0;   ///< 1 - bound/target of the chosen fit
  int refits = 0;
  bool cancelled = false;
};

/// fit(k) runs the re-weighted fit (null when cancelled). The bound of a fit is
/// stage->lipschitz.max. Steps: start at k = 0.95; with a bracket (one k under, one over the
/// target) use the secant towards the band's middle, falling back to bisection when the secant
/// leaves the bracket; with points on one side only, scale k by (target·0.995)/bound (capped
/// at 1). Stops when a fit lands in [0.99·target, target], when k cannot move (k = 1 and still
/// under), or after kMaxRefits refits.
ReweightSearch searchReweightK(double target, const std::function<StagePtr(double)>& fit);

}  // namespace dpsynth::core::pipeline::detail
