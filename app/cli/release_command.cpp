/// dpsynth release: a privatized statistic and its release file (SPEC §6, README "Release
/// files"): --kind naive-bayes (004 §4) here, --kind linreg (004 §5) in linreg_release_command.cpp.
#include <iostream>
#include <optional>
#include <stdexcept>

#include "app/cli/cli_common.h"
#include "app/cli/commands.h"
#include "app/cli/output_plan.h"
#include "app/cli/run_inputs.h"
#include "core/data/csv_table.h"
#include "core/data/csv_writer.h"
#include "core/data/data_file.h"
#include "core/exec/cancellation.h"
#include "core/infer/naive_bayes_records.h"
#include "core/infer/release_file.h"

namespace dpsynth::cli {
namespace {

/// The public layout from the flags: the levels are declared, never read from the data (the set
/// of values present in confidential data is itself confidential).
core::infer::NaiveBayesLayout releaseLayout(const ReleaseOptions& o) {
  core::infer::DeclaredLevels declared;
  for (const std::string& spec : o.levels) {
    const auto eq = spec.find('=');
    if (eq == std::string::npos) {
      throw std::invalid_argument("--levels " + spec + ": write COLUMN=level1|level2|...");
    }
    if (!declared.emplace(spec.substr(0, eq), splitFlag(spec.substr(eq + 1), '|')).second) {
      throw std::invalid_argument("--levels " + spec.substr(0, eq) +
                                  "=...: the levels of this feature are declared twice; give "
                                  "--levels once per feature");
    }
  }
  declared[o.classColumn] = splitFlag(o.classLevels, '|');
  const std::vector<std::string> features = splitFlag(o.features, ',');
  for (const std::string& f : features)
    if (!declared.count(f))
      throw std::invalid_argument("--levels " + f +
                                  "=...: declare the public levels of every feature (they are "
                                  "not read from the confidential data)");
  return core::infer::declaredLayout(o.classColumn, features, declared);
}

}  // namespace

void addReleaseCommand(CLI::App& app, ReleaseOptions& o) {
  auto* cmd = app.add_subcommand("release", "Make a privatized release file from a CSV (SPEC §6)");
  cmd->add_option("--kind", o.kind, "naive-bayes (004 §4) or linreg (004 §5)")->required();
  cmd->add_option("--data", o.data, "Confidential CSV")->required();
  cmd->add_option("--class", o.classColumn, "naive-bayes: class column");
  cmd->add_option("--class-levels", o.classLevels, "naive-bayes: public class labels: a|b|c");
  cmd->add_option("--features", o.features, "naive-bayes: feature columns: A,B,C");
  cmd->add_option("--levels", o.levels,
                  "naive-bayes: public levels of a feature: A=x|y|z (once per feature)");
  cmd->add_option("--outcome", o.outcome, "linreg: outcome column Y");
  cmd->add_option("--predictors", o.predictors, "linreg: predictor columns: A,B");
  cmd->add_option("--bounds", o.bounds,
                  "linreg: public clamping bounds of every predictor and the outcome: "
                  "\"A=lo:hi,B=lo:hi,Y=lo:hi\" (values are clamped, then mapped to [-1, 1])");
  cmd->add_option("--predictor-dist", o.predictorDist,
                  "linreg: the known predictor distribution for the analysis, independent "
                  "normals: \"A=normal:mean:sd,B=normal:mean:sd\"");
  cmd->add_option("--sigma", o.sigma, "linreg: the known residual sd σ")
      ->check(finiteNumber(1e-9, 1e9));
  cmd->add_option("--prior-sd", o.priorSd, "linreg: prior sd of every β (default 2, as 004)")
      ->check(finiteNumber(1e-9, 1e9));
  cmd->add_option("--epsilon", o.epsilon, "Privacy budget ε")
      ->required()
      ->check(finiteNumber(1e-6, 1e6));
  cmd->add_option("--prior", o.prior,
                  "naive-bayes: Dirichlet prior α for the analysis (default 2, as 004)")
      ->check(finiteNumber(1e-6, 1e6));
  cmd->add_option("--out", o.out, "Release file (JSON)")->required();
  cmd->add_option("--seed", o.seed,
                  "Reproducible noise for studies and tests, labelled not_for_release (default: "
                  "a release, noise from the operating system)");
}

int runRelease(const ReleaseOptions& o) {
  if (o.kind == "linreg") return runLinregRelease(o);
  if (o.kind != "naive-bayes") {
    throw std::invalid_argument("--kind " + o.kind + ": use naive-bayes or linreg");
  }
  if (o.classColumn.empty() || o.classLevels.empty() || o.features.empty()) {
    throw std::invalid_argument(
        "--kind naive-bayes needs --class, --class-levels, --features and --levels");
  }
  if (!o.outcome.empty() || !o.predictors.empty() || !o.bounds.empty() ||
      !o.predictorDist.empty() || o.sigma != 0.0) {
    throw std::invalid_argument(
        "--outcome, --predictors, --bounds, --predictor-dist and --sigma are for --kind linreg");
  }
  std::optional<std::uint64_t> seed;
  if (!o.seed.empty()) seed = parseSeed(o.seed, "--seed");
  const core::infer::NaiveBayesLayout layout = releaseLayout(o);
  OutputPlan plan;
  plan.input(o.data);
  plan.file("--out", o.out);
  plan.check();
  refuseSeededIntoRelease(o.out, seed.has_value());
  // Ctrl-C while reading, counting or drawing the noise: nothing is written (exit 130).
  const std::stop_token stop = interruptToken();
  const std::optional<core::data::CsvTable> read = readInputCsv(o.data, stop, false);
  if (!read) return cancelledWhileReading(o.data);
  const core::data::CsvTable& table = *read;
  // The same coding as the studio's release from data (core/infer/naive_bayes_records.h).
  const auto records = core::infer::naiveBayesRecords(table, o.classColumn, layout, stop);
  if (!records) return cancelledNothingWritten();
  const auto bits =
      seed ? core::privacy::makeSeededSource(*seed) : core::privacy::makeOsRandomSource();
  std::optional<core::infer::NaiveBayesRelease> made;
  try {
    made = core::infer::makeNaiveBayesRelease(layout, *records, o.epsilon, *bits, seed.has_value(),
                                              o.prior, stop);
  } catch (const core::exec::Cancelled&) {
    return cancelledNothingWritten();
  }
  const core::infer::NaiveBayesRelease& release = *made;
  if (stop.stop_requested()) return cancelledNothingWritten();
  core::data::writeTextAtomic(o.out, core::infer::releaseToJson(release));
  if (seed) std::cerr << "reproducible noise (--seed): the release file says not_for_release\n";
  std::cout << "wrote a naive-bayes release of " << release.n << " records (epsilon " << o.epsilon
            << ") to " << o.out << "\n";
  return kExitOk;
}

}  // namespace dpsynth::cli
