#include "core/pipeline/verdict.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/pipeline/screen.h"

namespace dpsynth::core::pipeline {

namespace {

std::string share(std::size_t count, std::size_t n, const char* what) {
  return std::to_string(count) + " of " + std::to_string(n) + " records " + what;
}

std::string number(double v) {
  std::ostringstream out;
  out.precision(4);
  out << v;
  return out.str();
}

}  // namespace

bool usesEpsilonTarget(Mechanism mechanism) {
  switch (mechanism) {
    case Mechanism::sw:
    case Mechanism::weightedE:
    case Mechanism::censorUw:
    case Mechanism::censorW:
    case Mechanism::ph:
      return true;
    case Mechanism::unweighted:
    case Mechanism::lw:
    case Mechanism::cw:
    case Mechanism::lwFinal:
    case Mechanism::cwFinal:
      return false;
  }
  return false;
}

Verdict judge(const MechanismResult& result, const Eigen::VectorXd& confidential,
              const Eigen::VectorXd& synthetic) {
  Verdict v;
  const auto n = static_cast<std::size_t>(confidential.size());
  if (n == 0) return v;
  const bool deltaZero = result.final && !(result.final->lipschitz.max > 0);
  if (result.truncatedRecords && *result.truncatedRecords > 0 && deltaZero) {
    // Δ = 0, ε = 0 would read as perfect privacy; it only says the records were dropped.
    v.reasons.push_back(
        share(*result.truncatedRecords, n, "truncated: Δ = 0 only because they were dropped"));
  } else if (result.truncatedRecords && 2 * *result.truncatedRecords > n) {
    v.reasons.push_back(share(*result.truncatedRecords, n, "truncated (more than half)"));
  }
  if (result.censoredRecords && 2 * *result.censoredRecords > n) {
    v.reasons.push_back(share(*result.censoredRecords, n, "censored (more than half)"));
  }
  if (synthetic.size() > 0 && confidential.size() > 0) {  // an empty database has no mean
    const double mean = confidential.mean();
    const double sd = std::sqrt((confidential.array() - mean).square().mean());
    const double scale = std::max(std::abs(mean), sd);
    const double synthMean = synthetic.mean();
    if (!std::isfinite(synthMean) || std::abs(synthMean - mean) > kMeanTolerance * scale) {
      v.reasons.push_back("synthetic mean " + number(synthMean) + " against " + number(mean) +
                          " in the data");
    }
  }
  // A posterior fit whose chains fail the screen's diagnostics (aDP and unweighted fits, which
  // are not screened before their release) is not an answer whatever its other numbers say.
  if (result.final && result.final->sampling == Sampling::mcmc) {
    const auto failures = screenFailures(result.final->name, result.final->posterior,
                                         result.final->sample, result.final->labels);
    if (!failures.empty()) {
      std::string line = "the fit did not converge (";
      for (std::size_t i = 0; i < failures.size(); ++i) line += (i ? "; " : "") + failures[i];
      v.reasons.push_back(line + ")");
    }
  }
  v.usable = v.reasons.empty();
  return v;
}

std::string verdictName(const Verdict& verdict) { return verdict.usable ? "usable" : "unusable"; }

}  // namespace dpsynth::core::pipeline
