/// dpsynth infer: Bayesian inference from a release file by data augmentation (SPEC §6, 004).
/// Writes draws.csv, summary.json and trace.csv into --out, all together or not at all.
#include <iostream>

#include "app/cli/cli_common.h"
#include "app/cli/commands.h"
#include "app/cli/run_inputs.h"
#include "core/data/regular_file.h"
#include "core/infer/da_sampler.h"
#include "core/infer/infer_outputs.h"
#include "core/infer/release_file.h"
#include "core/random/seed.h"
#include "core/report/infer_folder.h"

namespace dpsynth::cli {

void addInferCommand(CLI::App& app, InferOptions& o) {
  auto* cmd = app.add_subcommand("infer", "Posterior from a release file by data augmentation");
  cmd->add_option("--release", o.release, "Release file (JSON)")->required();
  cmd->add_option("--out", o.out, "Output folder: draws.csv, summary.json, trace.csv")->required();
  cmd->add_option("--iterations", o.iterations, "Sweeps per chain, warm-up included")
      ->check(unsignedDecimal(2, 10'000'000));
  cmd->add_option("--warmup", o.warmup, "Sweeps discarded")->check(unsignedDecimal(0, 10'000'000));
  cmd->add_option("--chains", o.chains, "Chains")->check(unsignedDecimal(1, 256));
  cmd->add_option("--threads", o.threads, "Threads (0: all cores)")->check(unsignedDecimal(0, 1024));
  cmd->add_option("--seed", o.seed, "Reproducible run, labelled not_for_release");
}

int runInfer(const InferOptions& o) {
  std::optional<std::uint64_t> seed;
  if (!o.seed.empty()) seed = parseSeed(o.seed, "--seed");
  if (o.warmup >= o.iterations) {
    throw std::invalid_argument("--warmup must be below --iterations");
  }
  const core::infer::NaiveBayesRelease release =
      core::infer::releaseFromJson(core::data::readRegularFile(o.release), o.release);
  const core::infer::NaiveBayesModel model = release.model();

  core::infer::DaConfig config;
  config.iterations = o.iterations;
  config.warmup = o.warmup;
  config.chains = o.chains;
  config.threads = o.threads;
  config.seed = seed ? core::random::Seed(*seed) : core::random::osSeed();
  const core::infer::DaResult result =
      core::infer::runDataAugmentation(model, config, interruptToken());
  if (result.cancelled) {
    std::cerr << "dpsynth: infer cancelled; nothing was written\n";
    return kExitCancelled;
  }

  core::infer::InferRunInfo info;
  info.release = o.release;
  info.kind = "naive-bayes";
  info.epsilon = release.epsilon;
  info.iterations = o.iterations;
  info.warmup = o.warmup;
  info.chains = o.chains;
  info.seed = seed;
  core::report::writeInferFolder(o.out, core::infer::inferOutputs(model, result, info));
  std::cout << "wrote draws.csv, summary.json and trace.csv to " << o.out << " ("
            << result.proposals() << " proposals in " << result.seconds << " s, mean acceptance "
            << result.meanAcceptance() << ", min " << result.minAcceptance() << ")\n";
  return kExitOk;
}

}  // namespace dpsynth::cli
