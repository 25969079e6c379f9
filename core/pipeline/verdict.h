#pragma once
/// Whether a mechanism's result can be used at all, and whether its ε is the one asked for.
/// Computed here, from the run, so that the studio's table, the report JSON and the CLI agree.
#include <Eigen/Dense>
#include <string>
#include <vector>

#include "core/pipeline/mechanism.h"
#include "core/pipeline/stage.h"

namespace dpsynth::core::pipeline {

/// The ε target is an input only for sw, weighted-e, censor-uw, censor-w and ph. For unweighted,
/// lw, cw, lw-final and cw-final ε is an outcome (ε_x = 2Δ of the fit), whatever the target.
bool usesEpsilonTarget(Mechanism mechanism);

/// A synthetic mean farther than this from the confidential mean, relative to
/// max(|confidential mean|, confidential sd), makes a result unusable.
inline constexpr double kMeanTolerance = 0.5;

struct Verdict {
  bool usable = true;
  /// Plain-words reasons when not usable, most serious first (e.g. "999 of 1000 records
  /// truncated"); empty when usable.
  std::vector<std::string> reasons;
};

/// Unusable when more than half of the records were censored or truncated, when Δ = 0 only
/// because records were truncated, or when the first synthetic dataset's mean is off by more than
/// kMeanTolerance. CONFIDENTIAL, like the counts it rests on: internal reports only.
Verdict judge(const MechanismResult& result, const Eigen::VectorXd& confidential,
              const Eigen::VectorXd& synthetic);

/// "usable" | "unusable" (the report's spelling).
std::string verdictName(const Verdict& verdict);

}  // namespace dpsynth::core::pipeline
