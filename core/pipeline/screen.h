#pragma once
/// The screen an MCMC-drawn DP stage must pass before its draws are released with a DP label
/// (SPEC §0 (b): regressions). The exponential-mechanism argument assumes draws from the exact
/// censored pseudo posterior; for MCMC the screen is the evidence, so its thresholds and its
/// retry budget are fixed here, in advance, for every run.
#include <string>
#include <vector>

#include "core/mcmc/diagnostics.h"
#include "core/mcmc/sampler.h"

namespace dpsynth::core::pipeline {

/// Largest R-hat (rank-normalised split) a screened stage may have.
inline constexpr double kScreenMaxRhat = 1.01;
/// Smallest bulk-ESS per chain.
inline constexpr double kScreenMinEssPerChain = 100.0;
/// A stage that fails the screen is run again with fresh randomness and 2×, then 4× the
/// warm-up and draws; after the 4× run fails too the release is refused. The cap is fixed in
/// advance so that how long the sampler keeps trying never depends on the data beyond it.
inline constexpr int kScreenMaxBudgetFactor = 4;

/// The same figures as text, for messages and release notes.
inline const std::string kScreenRhat = "1.01";
inline const std::string kScreenEssPerChain = "100";
inline const std::string kScreenMaxBudgetFactorText = "4 times";

/// Why a stage's draws fail the screen: R-hat above kScreenMaxRhat (or not computable), any
/// divergence, bulk-ESS below kScreenMinEssPerChain per chain. Empty when the stage passes.
/// Parameters are named by `labels` (StageResult::labels) when given.
std::vector<std::string> screenFailures(const std::string& stage,
                                        const std::vector<mcmc::ParameterSummary>& posterior,
                                        const mcmc::SampleResult& sample,
                                        const std::vector<std::string>& labels = {});

}  // namespace dpsynth::core::pipeline
