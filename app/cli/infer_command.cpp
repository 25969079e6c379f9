/// dpsynth infer: Bayesian inference from a release file by data augmentation (SPEC §6, 004).
/// Writes draws.csv, summary.json and trace.csv into --out, all together or not at all. A ph
/// release needs --family (the latent records' synthesizer family, SPEC §2).
#include <cmath>
#include <iostream>
#include <optional>
#include <variant>

#include "app/cli/cli_common.h"
#include "app/cli/commands.h"
#include "app/cli/output_plan.h"
#include "app/cli/run_inputs.h"
#include "core/data/regular_file.h"
#include "core/infer/any_release.h"
#include "core/infer/da_convergence.h"
#include "core/infer/da_sampler.h"
#include "core/infer/infer_outputs.h"
#include "core/random/seed.h"
#include "core/report/infer_folder.h"
#include "core/report/ownership_manifest.h"

namespace dpsynth::cli {

void addInferCommand(CLI::App& app, InferOptions& o) {
  auto* cmd = app.add_subcommand("infer", "Posterior from a release file by data augmentation");
  cmd->add_option("--release", o.release, "Release file (JSON)")->required();
  cmd->add_option("--out", o.out, "Output folder: draws.csv, summary.json, trace.csv")->required();
  cmd->add_option("--iterations", o.iterations,
                  "Sweeps per chain, warm-up included (default 10000; left at the defaults, a "
                  "run whose chains have not converged is run again with 2x, then 4x the sweeps "
                  "and warm-up)")
      ->check(unsignedDecimal(2, 10'000'000))
      ->each([&o](const std::string&) { o.budgetGiven = true; });
  cmd->add_option("--warmup", o.warmup, "Sweeps discarded (default 5000)")
      ->check(unsignedDecimal(0, 10'000'000))
      ->each([&o](const std::string&) { o.budgetGiven = true; });
  cmd->add_option("--chains", o.chains, "Chains")->check(unsignedDecimal(1, 256));
  cmd->add_option("--threads", o.threads, "Threads (0: all cores)")
      ->check(unsignedDecimal(0, 1024));
  cmd->add_option("--seed", o.seed, "Reproducible run, labelled not_for_release");
  cmd->add_option("--family", o.family,
                  "ph releases: family of the latent records (poisson, negbin, beta, normal)");
  cmd->add_option("--sd-scale", o.sdScale, "ph releases, normal family: public scale of the priors")
      ->check(finiteNumber(1e-12, 1e12));
  cmd->add_flag("--replace", o.replace,
                "Replace draws.csv, summary.json and trace.csv in OUT even when dpsynth did not "
                "write them; without it such a file is refused before sampling");
}

namespace {

/// Runs the sampler on one release's model and writes the three files.
int inferFromModel(const InferOptions& o, const std::optional<std::uint64_t>& seed,
                   const core::infer::RecordAdditiveModel& model, const std::string& kind,
                   double epsilon, double acceptanceBound) {
  core::infer::DaConfig config;
  config.iterations = o.iterations;
  config.warmup = o.warmup;
  config.chains = o.chains;
  config.threads = o.threads;
  config.seed = seed ? core::random::Seed(*seed) : core::random::osSeed();
  // Memory for n latent records per chain, refused before anything is allocated: a release
  // with n = 10^8 fits one chain, not four.
  if (const std::string problem = core::infer::daMemoryProblem(model, config); !problem.empty())
    throw std::invalid_argument("release file " + o.release + ": " + problem);
  const std::stop_token stop = interruptToken();
  const core::infer::DaCheckedRun run = core::infer::runDataAugmentationChecked(
      model, config, /*extend=*/!o.budgetGiven, stop, {}, {},
      [](int factor, const std::vector<std::string>& problems) {
        std::cerr << "dpsynth: the chains have not converged (" << problems.front()
                  << "); running them again with " << factor
                  << "x the sweeps and warm-up, from fresh randomness\n";
      });
  const core::infer::DaResult& result = run.result;
  if (result.cancelled || stop.stop_requested()) {
    exitCancelled("dpsynth: infer cancelled; nothing was written\n");
  }

  core::infer::InferRunInfo info;
  info.release = o.release;
  info.kind = kind;
  info.epsilon = epsilon;
  info.acceptanceBound = acceptanceBound;
  if (kind == "ph") {
    info.family = o.family;
    if (o.family == "normal") info.sdScale = o.sdScale;
  }
  info.iterations = run.config.iterations;
  info.warmup = run.config.warmup;
  info.chains = o.chains;
  info.seed = seed;
  info.budgetFactor = run.budgetFactor;
  std::vector<std::string> problems = run.problems;
  const std::string acceptance =
      core::infer::daAcceptanceProblem(result.minAcceptance(), acceptanceBound);
  if (!acceptance.empty()) problems.push_back(acceptance);
  info.convergenceProblems = problems;
  const core::infer::InferOutputs outputs = core::infer::inferOutputs(model, result, info);
  if (stop.stop_requested()) {
    exitCancelled("dpsynth: infer cancelled; nothing was written\n");
  }
  core::report::writeInferFolder(o.out, outputs, /*refuseForeignFiles=*/!o.replace);
  std::cout << "wrote draws.csv, summary.json and trace.csv to " << o.out << " ("
            << result.proposals() << " proposals and " << result.gradientEvaluations()
            << " gradient evaluations in " << result.seconds << " s, mean acceptance "
            << result.meanAcceptance() << ", min " << result.minAcceptance() << ")\n";
  if (!acceptance.empty()) {
    std::cerr << "warning: the " << acceptance << " (summary.json says \"converged\": false).\n";
  }
  if (!run.problems.empty()) {
    std::cerr << "warning: the chains have not converged";
    if (run.budgetFactor > 1)
      std::cerr << " even with " << run.budgetFactor << "x the sweeps and warm-up";
    std::cerr << ":";
    for (const auto& p : run.problems) std::cerr << " " << p << ";";
    std::cerr << " the posterior summaries are not reliable (summary.json says \"converged\": "
                 "false). Run again with more --warmup and --iterations.\n";
  }
  return kExitOk;
}

}  // namespace

int runInfer(const InferOptions& o) {
  // Ctrl-C from the first moment: the reading and the setup end at the next check too.
  const std::stop_token stop = interruptToken();
  std::optional<std::uint64_t> seed;
  if (!o.seed.empty()) seed = parseSeed(o.seed, "--seed");
  if (o.warmup >= o.iterations) {
    throw std::invalid_argument("--warmup must be below --iterations");
  }
  // The outputs replace files in --out: never the release they are computed from (also when
  // --out is a link to its folder), nor, without --replace, a file of those names that dpsynth
  // did not write (--out is often a folder of the user's own), checked before the sampler runs.
  OutputPlan plan;
  plan.input(o.release);
  std::vector<std::string> names = core::report::inferFileNames();
  names.push_back(core::report::kManifestName);
  plan.folder("--out", o.out, names);
  plan.ownedFiles("--out", o.out, core::report::inferFileNames(), o.replace);
  plan.check();
  const core::infer::AnyRelease release =
      core::infer::readAnyRelease(core::data::readRegularFile(o.release), o.release);
  if (const auto* ph = std::get_if<core::infer::PhReleaseFile>(&release)) {
    // A histogram says nothing about the records' law: the analyst names the family.
    if (o.family.empty())
      throw std::invalid_argument(
          "a ph release needs --family poisson|negbin|beta|normal for the latent records");
    const core::infer::PhModel model(*ph, core::models::parseFamily(o.family), o.sdScale);
    return inferFromModel(o, seed, model, "ph", ph->epsilon, ph->acceptanceBound());
  }
  if (!o.family.empty()) throw std::invalid_argument("--family applies to ph releases only");
  // Pure ε-DP on the released statistic under replace-one: every acceptance ≥ e^{−ε}.
  return std::visit(
      [&](const auto& r) -> int {
        if constexpr (std::is_same_v<std::decay_t<decltype(r)>, core::infer::PhReleaseFile>) {
          throw std::logic_error("ph handled above");
        } else {
          return inferFromModel(o, seed, r.model(), core::infer::releaseKind(r), r.epsilon,
                                std::exp(-r.epsilon));
        }
      },
      release);
}

}  // namespace dpsynth::cli
