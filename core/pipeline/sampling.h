#pragma once
/// How a mechanism's released parameter θ was drawn, and so what its label rests on (SPEC §0
/// "exact sampling"): reports and sidecars say it as "sampling".
#include <string>

namespace dpsynth::core::pipeline {

enum class Sampling {
  /// Intercept-only DP stages: an exact draw of the censored pseudo posterior by rejection
  /// sampling from a cell envelope (core/privacy/exact_sampler.h). No diagnostics, no refusal.
  exactEnvelope,
  /// DP stages of regressions: NUTS, released only when the chains pass the diagnostics screen
  /// (extended with fresh randomness up to a fixed cap before a refusal).
  mcmcScreened,
  /// Every other posterior fit (aDP and unweighted mechanisms): NUTS, no screen.
  mcmc,
  /// No posterior draw (the perturbed histogram).
  none,
};

/// "exact-grid" (SPEC §0's name for exact draws of the pseudo posterior, by its grid or its
/// envelope route; dpsynth uses the envelope) | "mcmc-screened" | "mcmc" | "none".
std::string samplingName(Sampling sampling);

/// One sentence for release notes: what a DP label with this sampling rests on.
std::string samplingBasis(Sampling sampling);

}  // namespace dpsynth::core::pipeline
