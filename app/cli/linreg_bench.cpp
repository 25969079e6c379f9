#include "app/cli/linreg_bench.h"

#include <iomanip>
#include <iostream>

#include "core/infer/da_sampler.h"
#include "core/infer/linreg_release.h"
#include "core/random/rng.h"

namespace dpsynth::cli {

void benchLinregDataAugmentation(bool quick, nlohmann::json& out) {
  namespace infer = dpsynth::core::infer;
  const int n = quick ? 10000 : 100000;
  const int sweeps = quick ? 100 : 1000;
  infer::LinregLayout layout;
  layout.predictors = {"x1", "x2"};
  layout.lower = {-10.0, -10.0};
  layout.upper = {10.0, 10.0};
  layout.outcome = "y";
  layout.outcomeLower = -10.0;
  layout.outcomeUpper = 10.0;
  infer::LinregModelSpec spec;
  spec.sigma = std::sqrt(2.0);
  spec.predictorMeans = {0.9, -1.17};
  spec.predictorSds = {1.0, 1.0};
  // Confidential data as in 004 S-5, β = (−1.79, −2.89, −0.66) (its Table 1); seeded, a bench.
  core::random::Rng rng = core::random::makeRng(2026);
  std::vector<std::vector<double>> records(static_cast<std::size_t>(n));
  for (auto& r : records) {
    const double x1 = 0.9 + core::random::standardNormal(rng);
    const double x2 = -1.17 + core::random::standardNormal(rng);
    r = {x1, x2, -1.79 - 2.89 * x1 - 0.66 * x2 + spec.sigma * core::random::standardNormal(rng)};
  }
  const auto bits = core::privacy::makeSeededSource(7);
  const infer::LinregRelease release =
      infer::makeLinregRelease(layout, spec, records, 1.0, *bits, true);
  const infer::LinregModel model = release.model();

  std::cout << "linreg data augmentation: n = " << n << ", p = 2, epsilon 1, " << sweeps
            << " sweeps in all\n"
            << std::left << std::setw(28) << "setting" << std::right << std::setw(8) << "wall s"
            << std::setw(16) << "proposals/s" << std::setw(12) << "mean acc" << std::setw(10)
            << "min acc"
            << "\n";
  nlohmann::json rows = nlohmann::json::array();
  // 1,000 sweeps as one chain on one thread (a Gibbs sweep is sequential), then as two chains
  // of 500 on two threads (the "on 2 cores").
  for (const int chains : {1, 2}) {
    infer::DaConfig config;
    config.iterations = sweeps / chains;
    config.warmup = config.iterations / 2;
    config.chains = chains;
    config.threads = chains;
    config.seed = 1;
    config.progressEvery = sweeps;
    const infer::DaResult result = infer::runDataAugmentation(model, config);
    const double rate = static_cast<double>(result.proposals()) / result.seconds;
    const std::string setting = std::to_string(chains) + " x " + std::to_string(config.iterations) +
                                " sweeps, " + std::to_string(chains) + " thread(s)";
    std::cout << std::left << std::setw(28) << setting << std::right << std::fixed
              << std::setprecision(2) << std::setw(8) << result.seconds << std::setprecision(0)
              << std::setw(16) << rate << std::setprecision(3) << std::setw(12)
              << result.meanAcceptance() << std::setw(10) << result.minAcceptance() << "\n";
    rows.push_back({{"chains", chains},
                    {"threads", chains},
                    {"records", n},
                    {"sweeps_per_chain", config.iterations},
                    {"wall_seconds", result.seconds},
                    {"proposals", result.proposals()},
                    {"proposals_per_second", rate},
                    {"mean_acceptance", result.meanAcceptance()},
                    {"min_acceptance", result.minAcceptance()}});
  }
  std::cout << "\n";
  out["linreg_da"] = rows;
}

}  // namespace dpsynth::cli
