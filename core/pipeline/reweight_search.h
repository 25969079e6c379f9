#pragma once
/// The k = auto search of the re-weighting step (SPEC §4): find k so that the re-weighted fit's
/// Lipschitz bound lands in a band just below the target (the bound before re-weighting) without
/// exceeding it, in at most kMaxRefits refits.
///
/// The band reflects the Monte Carlo error of Δ. A fit's Δ is itself random (a maximum over
/// posterior draws; on the NB mixture its run-to-run sd is 1–1.5%), so a band narrower than
/// that cannot be hit on purpose and the search would spend refits chasing noise. The band is
/// kBandSds Monte Carlo sds of Δ (lipschitzMonteCarloSd, pooled over the target's fit and the
/// refits so far), relative to the target, within [kMinBand, kMaxBand]. The privacy invariant
/// does not depend on it: the chosen fit's bound never exceeds the target.
#include <functional>

#include "core/pipeline/stage.h"

namespace dpsynth::core::pipeline::detail {

inline constexpr int kMaxRefits = 8;
inline constexpr double kStartK = 0.95;
inline constexpr double kMinBand = 0.01;  ///< floor: SPEC §4's "within 1%"
/// Cap: a band wider than this would give away utility (k further below the target than
/// necessary) for a noisy Δ; beyond it the two-fits stopping rule below limits the refits.
inline constexpr double kMaxBand = 0.05;
/// Band width in Monte Carlo sds: a k whose expected bound sits in the band's middle lands in
/// it with probability ≈ 68% per refit (|Z| < 1), against ≈ 38% for a one-sd band (and ≈ 26%
/// for a 1% band when the sd is 1.5%).
inline constexpr double kBandSds = 2.0;
inline constexpr double kBand = kMinBand;  ///< the band when Δ's Monte Carlo error is unknown

struct ReweightSearch {
  StagePtr chosen;       ///< largest k whose bound <= target; null if none did
  double shortfall = 0;  ///< 1 - bound/target of the chosen fit
  int refits = 0;
  bool cancelled = false;
  double band = kBand;  ///< relative width of the accept band in force when the search ended
  double mcSd = 0;      ///< pooled Monte Carlo sd of Δ behind the band (NaN if none known)
  /// The search stopped because two consecutive refits' bounds differed by less than the
  /// Monte Carlo sd of Δ while a feasible fit was in hand: further refits would chase noise.
  bool stoppedOnNoise = false;
};

/// The accept band for a pooled Monte Carlo sd of Δ (absolute) and a target:
/// clamp(kBandSds · mcSd / target, kMinBand, kMaxBand); kMinBand when mcSd is unknown (NaN).
double reweightBand(double mcSd, double target);

/// fit(k) runs the re-weighted fit (null when cancelled). The bound of a fit is
/// stage->lipschitz.max and its Monte Carlo sd stage->lipschitz.maxMcSd (NaN: unknown);
/// targetMcSd is that of the target's fit. Steps: start at k = 0.95; with a bracket (one k
/// under, one over the target) use the secant towards the band's middle, falling back to
/// bisection when the secant leaves the bracket; with points on one side only, scale k by
/// (aim)/bound (capped at 1). Stops when a fit lands in [(1 − band)·target, target], when k
/// cannot move (k = 1 and still under), when two consecutive refits differ by less than the
/// Monte Carlo sd and one of the fits so far is feasible, or after kMaxRefits refits.
ReweightSearch searchReweightK(double target, double targetMcSd,
                               const std::function<StagePtr(double)>& fit);

/// Without a known Monte Carlo error: the 1% band.
inline ReweightSearch searchReweightK(double target, const std::function<StagePtr(double)>& fit) {
  return searchReweightK(target, std::numeric_limits<double>::quiet_NaN(), fit);
}

}  // namespace dpsynth::core::pipeline::detail
