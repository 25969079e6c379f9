#include "core/pipeline/screen.h"

#include <cmath>

#include "core/pipeline/stage_runner.h"

namespace dpsynth::core::pipeline {

std::vector<std::string> screenFailures(const std::string& stage,
                                        const std::vector<mcmc::ParameterSummary>& posterior,
                                        const mcmc::SampleResult& sample,
                                        const std::vector<std::string>& labels) {
  using detail::formatFixed;
  std::vector<std::string> failures;
  const auto chains = static_cast<double>(sample.chains.size());
  for (std::size_t j = 0; j < posterior.size(); ++j) {
    const auto& p = posterior[j];
    if (std::isnan(p.rhat) || p.rhat > kScreenMaxRhat) {
      failures.push_back("stage " + stage + ": R-hat " + formatFixed(p.rhat, 4) + " for " +
                         parameterLabel(posterior, labels, j) + " is above " + kScreenRhat);
      break;
    }
  }
  for (std::size_t j = 0; j < posterior.size(); ++j) {
    const auto& p = posterior[j];
    if (std::isnan(p.essBulk) || p.essBulk < kScreenMinEssPerChain * chains) {
      failures.push_back("stage " + stage + ": bulk-ESS " + formatFixed(p.essBulk, 0) + " for " +
                         parameterLabel(posterior, labels, j) + " is below " + kScreenEssPerChain +
                         " per chain (" + formatFixed(kScreenMinEssPerChain * chains, 0) + " for " +
                         formatFixed(chains, 0) + " chains)");
      break;
    }
  }
  if (int d = sample.divergences(); d > 0)
    failures.push_back("stage " + stage + ": " + std::to_string(d) + " divergent transitions");
  return failures;
}

}  // namespace dpsynth::core::pipeline
