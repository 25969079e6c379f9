/// dpsynth infer: Bayesian inference from a release file by data augmentation (SPEC §6, 004).
/// Writes draws.csv, summary.json and trace.csv into --out, all together or not at all. A ph
/// release needs --family (the latent records' synthesizer family, SPEC §2).
#include <cmath>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <variant>

#include "app/cli/cli_common.h"
#include "app/cli/commands.h"
#include "app/cli/run_inputs.h"
#include "core/data/csv_writer.h"
#include "core/data/regular_file.h"
#include "core/infer/any_release.h"
#include "core/infer/da_sampler.h"
#include "core/random/seed.h"
#include "core/report/staged_folder.h"

namespace dpsynth::cli {
namespace {

nlohmann::json finiteOrNull(double x) { return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(); }

std::string drawsCsv(const core::infer::RecordAdditiveModel& model,
                     const core::infer::DaResult& result) {
  std::ostringstream out;
  out << "chain,draw";
  for (const auto& name : model.parameterNames()) out << ',' << core::data::quoteCsvField(name);
  out << '\n';
  for (std::size_t c = 0; c < result.chains.size(); ++c) {
    const Eigen::MatrixXd& d = result.chains[c].draws;
    for (Eigen::Index r = 0; r < d.rows(); ++r) {
      out << c << ',' << r;
      for (Eigen::Index p = 0; p < d.cols(); ++p) out << ',' << core::data::formatNumber(d(r, p));
      out << '\n';
    }
  }
  return out.str();
}

std::string traceCsv(const core::infer::DaResult& result) {
  std::ostringstream out;
  out << "chain,sweep,acceptance\n";
  for (std::size_t c = 0; c < result.chains.size(); ++c) {
    const Eigen::VectorXd& a = result.chains[c].sweepAcceptance;
    for (Eigen::Index s = 0; s < a.size(); ++s) {
      out << c << ',' << s << ',' << core::data::formatNumber(a[s]) << '\n';
    }
  }
  return out.str();
}

void writeStagedText(const std::string& path, const std::string& text) {
  std::ofstream file(path, std::ios::binary);
  file << text;
  if (!file.flush()) throw std::runtime_error("could not write " + path);
}

}  // namespace

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
  cmd->add_option("--family", o.family,
                  "ph releases: family of the latent records (poisson, negbin, beta, normal)");
  cmd->add_option("--sd-scale", o.sdScale, "ph releases, normal family: public scale of the priors")
      ->check(finiteNumber(1e-12, 1e12));
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
  const core::infer::DaResult result =
      core::infer::runDataAugmentation(model, config, interruptToken());
  if (result.cancelled) {
    std::cerr << "dpsynth: infer cancelled; nothing was written\n";
    return kExitCancelled;
  }

  nlohmann::ordered_json summary;
  summary["release"] = o.release;
  summary["kind"] = kind;
  if (kind == "ph") {
    summary["family"] = o.family;
    if (o.family == "normal") summary["sd_scale"] = o.sdScale;
  }
  summary["epsilon"] = epsilon;
  summary["iterations"] = o.iterations;
  summary["warmup"] = o.warmup;
  summary["chains"] = o.chains;
  summary["mean_acceptance"] = result.meanAcceptance();
  summary["min_acceptance"] = result.minAcceptance();
  summary["acceptance_bound"] = acceptanceBound;
  summary["proposals"] = result.proposals();
  summary["gradient_evaluations"] = result.gradientEvaluations();
  summary["seconds"] = result.seconds;
  if (seed) {
    summary["seed"] = *seed;
    summary["not_for_release"] = true;
  }
  nlohmann::ordered_json parameters = nlohmann::ordered_json::object();
  for (const auto& s : core::infer::summarize(model, result)) {
    parameters[s.name] = {{"mean", s.mean}, {"sd", s.sd},     {"q05", s.q05},
                          {"q50", s.q50},   {"q95", s.q95},   {"rhat", finiteOrNull(s.rhat)},
                          {"ess", finiteOrNull(s.ess)}};
  }
  summary["parameters"] = parameters;

  core::report::StagedFolder folder(o.out);
  writeStagedText(folder.stagedPath("draws.csv"), drawsCsv(model, result));
  writeStagedText(folder.stagedPath("summary.json"), summary.dump(2) + "\n");
  writeStagedText(folder.stagedPath("trace.csv"), traceCsv(result));
  folder.commit({"draws.csv", "summary.json", "trace.csv"});
  std::cout << "wrote draws.csv, summary.json and trace.csv to " << o.out << " ("
            << result.proposals() << " proposals and " << result.gradientEvaluations()
            << " gradient evaluations in " << result.seconds << " s, mean acceptance "
            << result.meanAcceptance() << ", min " << result.minAcceptance() << ")\n";
  return kExitOk;
}

}  // namespace

int runInfer(const InferOptions& o) {
  std::optional<std::uint64_t> seed;
  if (!o.seed.empty()) seed = parseSeed(o.seed, "--seed");
  if (o.warmup >= o.iterations) {
    throw std::invalid_argument("--warmup must be below --iterations");
  }
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
