/// dpsynth fit: one mechanism on one CSV, with report JSON and synthetic data (SPEC §7).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <mutex>
#include <sstream>

#include "app/cli/cli_common.h"
#include "app/cli/commands.h"
#include "app/cli/output_plan.h"
#include "app/cli/run_inputs.h"
#include "app/cli/stage_heartbeat.h"
#include "core/data/csv_writer.h"
#include "core/data/dataset.h"
#include "core/data/output_path.h"
#include "core/data/spreadsheet_formulas.h"
#include "core/exec/cancellation.h"
#include "core/pipeline/bundle_ownership.h"
#include "core/pipeline/bundle_writer.h"
#include "core/pipeline/export.h"
#include "core/pipeline/pipeline.h"
#include "core/pipeline/release_claim.h"
#include "core/pipeline/report.h"
#include "core/pipeline/synthesis.h"
#include "core/report/ownership_manifest.h"
#include "core/report/staged_files.h"
#include "core/summary/run_summary.h"

namespace dpsynth::cli {

namespace core = dpsynth::core;

void addFitCommand(CLI::App& app, FitOptions& o) {
  auto* fit = app.add_subcommand("fit", "Fit a synthesizer under a privacy mechanism");
  fit->add_option(
         "--data", o.data,
         "Confidential data: CSV with a header row, or SPSS (.sav, .zsav, .por), Stata (.dta) or "
         "SAS (.sas7bdat, .xpt), told by the extension")
      ->required();
  fit->add_option("--outcome", o.outcome, "Outcome column to synthesize")->required();
  fit->add_option("--covariates", o.covariates, "Public covariate columns (A,B,...)")
      ->delimiter(',');
  addReferenceOption(*fit, o.references, "");
  fit->add_option(
      "--family", o.family,
      "poisson | negbin | beta | normal (required for a release; a --seed run without it "
      "uses the family suggested from the data)");
  fit->add_option("--mechanism", o.mechanism,
                  "unweighted | sw | lw | cw | lw-final | cw-final | weighted-e | censor-uw | "
                  "censor-w | ph")
      ->capture_default_str();
  fit->add_option("--c", o.c, "Weight scale c")->check(finiteNumber(0, 1e6))->capture_default_str();
  fit->add_option("--g", o.g, "Weight shift g")
      ->check(finiteNumber(-1e6, 1e6))
      ->capture_default_str();
  fit->add_option("--radius", o.radius,
                  "CW radius r (absolute unless --radius-relative; default: relative 0.2)")
      ->check(finiteNumber(0, 1e300));
  fit->add_flag("--radius-relative", o.radiusRelative, "CW radius is r·|y_i|");
  fit->add_option("--k", o.k, "Re-weighting k in (0,1] or auto")->capture_default_str();
  fit->add_option("--epsilon", o.epsilon, "Target epsilon")->check(finiteNumber(1e-6, 1e6));
  fit->add_option("--downscale", o.downscale, "Downscale d in (0,1] or auto")
      ->capture_default_str();
  fit->add_option("--bins", o.bins, "Perturbed histogram bins (0 = ceil(sqrt(n)))")
      ->check(unsignedDecimal(0, 1'000'000));
  fit->add_option("--lower", o.lower, "Perturbed histogram public lower bound")
      ->check(finiteNumber(-1e300, 1e300));
  fit->add_option("--upper", o.upper, "Perturbed histogram public upper bound")
      ->check(finiteNumber(-1e300, 1e300));
  fit->add_option("--chains", o.chains)->check(unsignedDecimal(1, 256))->capture_default_str();
  fit->add_option("--warmup", o.warmup)
      ->check(unsignedDecimal(0, 1'000'000))
      ->capture_default_str();
  fit->add_option("--draws", o.draws)->check(unsignedDecimal(1, 1'000'000))->capture_default_str();
  fit->add_option("--seed", o.seed,
                  "Reproducible run for studies and tests, labelled not_for_release everywhere "
                  "(default: a release, with a secret seed from the operating system)");
  fit->add_option("--metric", o.metric,
                  "Sampler metric: auto (dense for regressions up to 60 parameters, diagonal "
                  "otherwise), diag or dense")
      ->check(CLI::IsMember({"auto", "diag", "dense"}))
      ->capture_default_str();
  fit->add_option("--threads", o.threads, "Worker threads (0 = all cores)")
      ->check(unsignedDecimal(0, 1024))
      ->capture_default_str();
  fit->add_option("--sd-scale", o.sdScale, "Normal family: public scale of the priors")
      ->check(finiteNumber(1e-12, 1e12))
      ->capture_default_str();
  fit->add_option("--datasets", o.datasets, "Number of synthetic datasets to write (m)")
      ->check(unsignedDecimal(1, 1000))
      ->capture_default_str();
  fit->add_flag("--reproducible-noise", o.reproducibleNoise,
                "Alias kept for studies and tests: a reproducible run (seed --seed, or 1), NOT "
                "for release");
  fit->add_option("--neighbours", o.neighbours,
                  "Neighbouring databases: replace-one (bounded DP) or add-remove; sets the "
                  "censoring interval and the histogram's sensitivity")
      ->capture_default_str();
  fit->add_option("--weights-from", o.weightsFrom,
                  "Public reference CSV (e.g. last period's released data): censor-w and "
                  "weighted-e take a weight function fitted there; censor-w is then strict DP");
  fit->add_flag("--drop-missing", o.dropMissing,
                "Drop rows with missing values (the count of complete records is then "
                "confidential: see --rows and --size-epsilon)");
  addSizeOptions(*fit, o.rows, o.sizeEpsilon, "");
  fit->add_flag("--quiet", o.quiet, "Print only warnings and errors");
  fit->add_option("--synthetic-out", o.syntheticOut,
                  "Write synthetic data (CSV + .json): the outcome and --covariates only, rows "
                  "in random order; a name ending in .sav, .dta or .xpt writes SPSS, Stata or SAS "
                  "transport with the input's variable and value labels")
      ->check(pathGiven());
  fit->add_option("--report", o.report, "Write the report JSON")->check(pathGiven());
}

namespace {

/// Core names settings by field; the command line names the flag that sets each.
std::string flagOf(core::pipeline::SettingField field) {
  return "--" + core::pipeline::settingKey(field);
}

std::optional<double> parseAutoOrNumber(const std::string& text, const std::string& option) {
  if (text == "auto") return std::nullopt;
  try {
    std::size_t used = 0;
    const double v = std::stod(text, &used);
    if (used == text.size()) return v;
  } catch (const std::exception&) {
  }
  throw std::invalid_argument(option + " must be a number or 'auto', not '" + text + "'");
}

/// Stage lines on stderr as the pipeline runs.
class ConsoleObserver : public core::pipeline::PipelineObserver {
 public:
  explicit ConsoleObserver(bool quiet) : quiet_(quiet) {}
  void onStageStarted(const std::string& mechanism, const std::string& stage,
                      bool fromCache) override {
    if (!quiet_ && !fromCache) heartbeat_.started(mechanism, stage);
  }
  void onSamplerProgress(const std::string& stage, const core::mcmc::Progress& p) override {
    if (!quiet_) heartbeat_.progress(stage, p);
  }
  void onStageFinished(const std::string&, const core::pipeline::StagePtr& s) override {
    if (quiet_) return;
    std::lock_guard lock(mutex_);
    std::cerr << "  stage " << std::left << std::setw(22) << s->name << std::right
              << " Δ = " << std::setw(9) << std::setprecision(4) << s->lipschitz.max
              << "  ε_x = " << std::setw(9) << 2 * s->lipschitz.max << "  "
              << (s->fromCache ? "(cached)" : std::to_string(s->seconds).substr(0, 5) + " s")
              << "\n";
  }

 private:
  bool quiet_;
  std::mutex mutex_;
  StageHeartbeat heartbeat_;  // a line every few seconds while a long stage samples
};

void printSummary(const core::data::Dataset& dataset, const core::pipeline::MechanismResult& r,
                  const nlohmann::json& report) {
  std::cout << std::setprecision(4);
  std::cout << "mechanism " << core::pipeline::mechanismName(r.config.mechanism) << " on "
            << dataset.size() << " records (" << core::models::familyName(dataset.family)
            << ", outcome " << dataset.outcomeName << ")\n";
  std::cout << "guarantee " << core::pipeline::guaranteeName(core::pipeline::statedGuarantee(r))
            << (r.notForRelease
                    ? " (seeded: not for release; " + core::pipeline::guaranteeName(r.guarantee) +
                          " with a secret seed)"
                    : "")
            << ", epsilon " << r.epsilon;
  if (const double size = core::pipeline::sizeEpsilon(r); size > 0)
    std::cout << " + " << size << " for the noisy size (" << r.size.rows << " records published)";
  if (!report["epsilon_target_used"].get<bool>() && !report["epsilon_target"].is_null())
    std::cout << " (target " << report["epsilon_target"].get<double>() << " ignored)";
  if (r.final)
    std::cout << ", Lipschitz " << r.final->lipschitz.max << " (q90 " << r.final->lipschitz.q90
              << ", q95 " << r.final->lipschitz.q95 << ")";
  std::cout << "\n";
  if (r.k) std::cout << "re-weighting k " << *r.k << "\n";
  if (r.downscale) std::cout << "downscale " << *r.downscale << "\n";
  if (r.censoredRecords) std::cout << "censored records " << *r.censoredRecords << "\n";
  if (r.truncatedRecords) std::cout << "truncated records " << *r.truncatedRecords << "\n";
  if (r.final) {
    // Parameters by their design names ("health=poor"); the report keys them beta[j].
    const auto& posterior = r.final->posterior;
    int width = 12;
    for (std::size_t j = 0; j < posterior.size(); ++j)
      width = std::max(
          width,
          static_cast<int>(core::pipeline::parameterLabel(posterior, r.final->labels, j).size()) +
              2);
    std::cout << "\n"
              << std::left << std::setw(width) << "parameter" << std::right << std::setw(10)
              << "mean" << std::setw(10) << "sd" << std::setw(10) << "2.5%" << std::setw(10)
              << "97.5%" << std::setw(8) << "R-hat" << std::setw(9) << "ESS"
              << "\n";
    for (std::size_t j = 0; j < posterior.size(); ++j) {
      const auto& p = posterior[j];
      std::cout << std::left << std::setw(width)
                << core::pipeline::parameterLabel(posterior, r.final->labels, j) << std::right
                << std::setw(10) << p.mean << std::setw(10) << p.sd << std::setw(10) << p.q025
                << std::setw(10) << p.q975 << std::setw(8) << std::setprecision(3) << p.rhat
                << std::setw(9) << std::setprecision(4) << std::round(p.essBulk) << "\n";
    }
  }
  const auto& u = report["utility"];
  const auto& c = report["confidential"];
  std::cout << "\n"
            << std::left << std::setw(14) << "" << std::right << std::setw(10) << "mean"
            << std::setw(10) << "median" << std::setw(10) << "q15" << std::setw(10) << "q90"
            << "\n";
  for (const auto& [label, row] : {std::pair{"confidential", c}, std::pair{"synthetic", u}}) {
    std::cout << std::left << std::setw(14) << label << std::right;
    if (!std::isfinite(row["mean"].get<double>())) {  // an empty database has no summary
      std::cout << "  (no records)\n";
      continue;
    }
    std::cout << std::setw(10) << row["mean"].get<double>() << std::setw(10)
              << row["median"].get<double>() << std::setw(10) << row["q15"].get<double>()
              << std::setw(10) << row["q90"].get<double>() << "\n";
  }
  if (std::isfinite(u["max_ecdf"].get<double>()))
    std::cout << "max-ECDF " << u["max_ecdf"].get<double>() << ", avg-ECDF "
              << u["avg_ecdf"].get<double>() << "\n";
  if (u.value("marginal_only", false))
    std::cout << "marginal only: " << report["mechanism"].get<std::string>()
              << " ignores the covariates; see the covariate measures\n";
  if (const auto& cu = report["utility_covariates"]; cu.is_object()) {
    const auto value = [&](const char* key) {
      std::ostringstream text;
      if (cu[key].is_number())
        text << cu[key].get<double>();
      else
        text << "n/a";
      return text.str();
    };
    std::cout << "covariates: CI overlap " << value("ci_overlap") << ", max std. diff. "
              << value("max_std_diff") << ", pMSE " << value("pmse") << ", max group-mean diff. "
              << value("max_group_mean_diff") << "\n";
  }
  if (report["verdict"] == "unusable") {
    std::cout << "verdict UNUSABLE:";
    for (const auto& reason : report["verdict_reasons"])
      std::cout << " " << reason.get<std::string>() << ";";
    std::cout << "\n";
  }
}

/// The files of an earlier release at --synthetic-out that this one replaces or removes.
/// Refuses (exit 2) when a path of the new bundle holds anything dpsynth cannot show it wrote.
std::vector<std::string> supersededFiles(const FitOptions& o) {
  const auto earlier =
      core::pipeline::earlierBundle(o.syntheticOut, o.datasets, {o.data, o.weightsFrom});
  if (!earlier.problem.empty())
    throw std::invalid_argument("--synthetic-out " + o.syntheticOut + ": " + earlier.problem +
                                "; nothing was written or removed: move it away or choose "
                                "another --synthetic-out");
  return earlier.superseded;
}

}  // namespace

int runFit(const FitOptions& given) {
  std::stop_token stop = interruptToken();
  FitOptions o = given;
  // A synthetic file that is a link is written through (the link kept): the bundle, its sidecar
  // and every check take the file it leads to. Staged there while the sidecar was staged beside
  // the link, it failed at the move after all the sampling.
  if (std::error_code ec;
      !o.syntheticOut.empty() && std::filesystem::is_symlink(o.syntheticOut, ec))
    o.syntheticOut = core::data::resolvedOutputPath(o.syntheticOut).string();

  // Everything about the request is checked before any work or any write.
  core::pipeline::MechanismConfig config;
  config.mechanism = core::pipeline::parseMechanism(o.mechanism);
  config.c = o.c;
  config.g = o.g;
  if (o.radius) {
    config.radius = *o.radius;
    config.radiusRelative = o.radiusRelative;
  }
  config.k = parseAutoOrNumber(o.k, "--k");
  config.epsilon = o.epsilon;
  config.downscale = parseAutoOrNumber(o.downscale, "--downscale");
  config.lower = o.lower;
  config.upper = o.upper;
  config.bins = o.bins;
  // A declared family's natural PH bounds (beta's [0, 1]) are public: the one rule every front
  // end uses (core::pipeline::withFamilyDefaults), applied before the settings are checked.
  if (!o.family.empty())
    config = core::pipeline::withFamilyDefaults(config, core::models::parseFamily(o.family));
  // Every draw is kept (chains × draws × dimension doubles): bound the product, not only each.
  requireRange("--chains × --draws", static_cast<long long>(o.chains) * o.draws, 1LL, 10'000'000LL,
               "use fewer chains or draws");

  core::pipeline::RunSettings settings;
  settings.model.sdScale = o.sdScale;
  settings.nuts.chains = o.chains;
  settings.nuts.warmup = o.warmup;
  settings.nuts.draws = o.draws;
  settings.nuts.threads = o.threads;
  settings.nuts.metric = core::mcmc::parseMetricChoice(o.metric);
  settings.lipschitzThreads = o.threads;
  settings.neighbours = core::privacy::parseNeighbours(o.neighbours);
  applySize(settings, o.rows, o.sizeEpsilon);
  std::optional<std::uint64_t> seed;
  if (!o.seed.empty()) seed = parseSeed(o.seed, "--seed");
  if (o.reproducibleNoise && !seed) seed = 1;
  applySeed(settings, seed);
  // SPEC §0: a family chosen from the confidential values changes with one record, so a release
  // takes it from the user. A seeded (study or test) run may still have it suggested.
  if (settings.release && o.family.empty())
    throw std::invalid_argument(
        "--family is required for a release (a family suggested from the confidential data "
        "would itself depend on the records); pass --family poisson|negbin|beta|normal");
  if (!o.weightsFrom.empty() && !core::pipeline::usesReferenceWeights(config.mechanism))
    throw std::invalid_argument("--weights-from applies to censor-w and weighted-e only");
  {
    std::vector<std::string> problems = settings.nuts.validate();
    // Core names fields; the command line names its flags.
    const std::string who = core::pipeline::mechanismName(config.mechanism) + ": ";
    for (const auto& p : config.problems()) problems.push_back(who + describe(p, flagOf));
    if (!problems.empty()) {
      std::string message;
      for (const auto& p : problems) message += (message.empty() ? "" : "; ") + p;
      throw std::invalid_argument(message);
    }
  }
  {
    // Every path this command will write, checked before any work.
    OutputPlan plan;
    plan.input(o.data);
    plan.input(o.weightsFrom);
    if (!o.syntheticOut.empty()) {
      const auto bundle = core::pipeline::syntheticBundlePaths(o.syntheticOut, o.datasets);
      for (const auto& f : bundle.csvFiles) plan.file("--synthetic-out", f);
      plan.file("--synthetic-out (sidecar)", bundle.sidecar);
    }
    plan.file("--report", o.report);
    plan.check();
    if (!o.syntheticOut.empty()) {
      // A folder an export (run, the studio's Export all) wrote as a whole: replacing one of its
      // files left a release/ whose note, manifest and other files describe another run.
      const std::filesystem::path folder =
          core::data::resolvedOutputPath(o.syntheticOut).parent_path();
      if (std::error_code ec; std::filesystem::exists(folder / core::report::kManifestName, ec))
        throw std::invalid_argument(
            "--synthetic-out " + o.syntheticOut + ": " + folder.string() +
            " holds the files of a dpsynth run's export (its " + core::report::kManifestName +
            " lists them), written and replaced as a whole by `dpsynth run` or the studio's "
            "Export all; one file changed there would leave its note describing another run. "
            "Choose another folder");
      supersededFiles(o);  // refused now rather than after sampling
    }
    // SPEC §0: a seeded run and a mechanism without a DP or aDP label never write into a
    // release/ folder.
    if (core::pipeline::inReleaseFolder(o.syntheticOut)) {
      if (!settings.release)
        throw std::invalid_argument("--synthetic-out " + o.syntheticOut +
                                    ": a seeded run (--seed) is not for release and never writes "
                                    "into a release/ folder; choose another folder");
      if (core::pipeline::guaranteeOf(config.mechanism, !o.weightsFrom.empty()) ==
          core::pipeline::Guarantee::none)
        throw std::invalid_argument("--synthetic-out " + o.syntheticOut + ": " +
                                    core::pipeline::mechanismName(config.mechanism) +
                                    " has no privacy guarantee and never writes into a release/ "
                                    "folder; choose another folder");
    }
  }

  // Ctrl-C while a large file is read or typed ends the command at the next check.
  std::optional<core::data::CsvTable> table = readInputCsv(o.data, stop, o.quiet);
  if (!table) return cancelledWhileReading(o.data);
  core::data::DatasetSpec spec;
  spec.outcome = o.outcome;
  spec.covariates = o.covariates;
  spec.referenceLevels = parseReferenceLevels(o.references);
  spec.dropMissing = o.dropMissing;
  spec.countConfidential = settings.neighbours == core::privacy::Neighbours::addRemove;
  spec.family = o.family.empty() ? core::data::suggestFamily(*table, o.outcome)
                                 : core::models::parseFamily(o.family);
  if (o.family.empty() && !o.quiet)
    std::cerr << "family not given: using " << core::models::familyName(spec.family)
              << " (suggested from the data: fine for a study run, never for a release; pass "
                 "--family to choose)\n";
  settings.model.family = spec.family;
  const std::optional<core::data::Dataset> built = buildInputDataset(*table, spec, stop);
  if (built && !o.syntheticOut.empty()) {
    for (const auto& w : core::data::formulaLikeWarnings(*table, spec.covariates))
      std::cerr << "warning: " << w << "\n";
  }
  // The dataset keeps its covariates typed; the table's text goes now rather than after the run.
  table.reset();
  if (!built) return cancelledWhileReading(o.data);
  const core::data::Dataset& dataset = *built;
  // m datasets of the published size: refused now rather than after the sampling where that
  // size is known (a noisy size is checked once drawn: n itself is confidential then).
  const std::optional<std::uint64_t> rowsBefore =
      core::pipeline::rowsKnownBeforeRun(settings, dataset);
  if (!o.syntheticOut.empty()) {
    if (rowsBefore)
      core::pipeline::checkSyntheticVolume(static_cast<std::uint64_t>(o.datasets), *rowsBefore, 1,
                                           "--datasets");
    core::pipeline::checkSyntheticOutput(o.syntheticOut, dataset);  // names a format accepts
  }
  if (dataset.droppedRows > 0 && !o.quiet)
    std::cerr << "dropped " << dataset.droppedRows << " rows with missing values\n";
  if (const std::string dropped = droppedColumnsLine(dataset);
      !dropped.empty() && !o.syntheticOut.empty())
    std::cerr << dropped << "\n";
  if (!o.weightsFrom.empty()) {
    settings.weightReference = loadReference(o.weightsFrom, spec, dataset, stop, o.quiet);
    if (!settings.weightReference) return cancelledWhileReading(o.weightsFrom);
  }
  if (!settings.release && !o.quiet)
    std::cerr << "reproducible run (--seed): every output says guarantee none and "
                 "not_for_release\n";
  if (const std::string line = sizeLine(settings, dataset); !line.empty() && !o.quiet)
    std::cerr << line << "\n";

  ConsoleObserver observer(o.quiet);
  const auto run =
      core::pipeline::runMechanisms(dataset, {config}, settings, nullptr, stop, &observer);
  if (run.outcome == core::pipeline::RunOutcome::cancelled) {
    exitCancelled("dpsynth: cancelled; no files were written\n");
  }
  const auto& result = run.mechanisms.front();
  if (!o.syntheticOut.empty() && !rowsBefore)
    core::pipeline::checkSyntheticVolume(static_cast<std::uint64_t>(o.datasets),
                                         result.size.rowsFor(dataset.size()), 1, "--datasets");
  // From here to the move into place, Ctrl-C unwinds (exec::Cancelled) from whichever step it
  // lands in: the utility fits, drawing, formatting or writing a dataset.
  const bool refused = !o.syntheticOut.empty() && !result.refusals.empty();
  nlohmann::json report;
  try {
    // The run's one seed rule (core/summary/run_summary.h): the dataset the report describes
    // is the first one written.
    const core::summary::RunSummary summary =
        core::summary::firstDatasets(dataset, run, settings, stop);
    const core::pipeline::Synthesizer& synthesizer = *summary.synthesizers.front();
    const Eigen::VectorXd& first = summary.firstSynthetic.front();
    report = core::pipeline::buildReport(dataset, result, settings, first, stop);

    // Every output is written into a staging folder beside its target and moved into place
    // together: a failure, or Ctrl-C before the move, leaves the old files as they were. The
    // (internal) report is written even when the release is refused: it holds the reasons.
    core::report::StagedFiles outputs;
    // Writes go into hidden staging folders; a failure (a full disk) names the user's path.
    try {
      if (!o.report.empty()) {
        const std::string staged = outputs.stage(o.report, core::report::Sensitivity::confidential);
        core::data::writeTextAtomic(staged, report.dump(2) + "\n");
      }
      if (!o.syntheticOut.empty() && !refused) {
        const auto bundle = core::pipeline::syntheticBundlePaths(o.syntheticOut, o.datasets);
        for (const auto& f : bundle.csvFiles) outputs.stage(f);
        outputs.stage(bundle.sidecar);
        // One dataset in memory at a time: drawn, written, forgotten.
        core::pipeline::SyntheticBundleWriter writer(
            outputs.stagingPath(o.syntheticOut), dataset, result, o.datasets,
            core::summary::synthesisSeed(settings), /*staged=*/true);
        for (int k = 0; k < o.datasets; ++k)
          writer.add(k == 0 ? first : synthesizer.draw(k, stop), stop);
        writer.finish();
      }
    } catch (const core::data::WriteError& e) {
      throw core::data::WriteError(outputs.userPath(e.path()), e.reason());
    }
    // The last point where a stop is honoured: after it the files are moved into place.
    core::exec::throwIfStopped(stop);
    // Checked again, under the folders' lock: the files may have changed while the run took
    // its time, and another dpsynth may be committing the same names.
    outputs.commit([&] {
      if (!o.syntheticOut.empty() && !refused)
        for (const auto& old : supersededFiles(o)) outputs.supersede(old);
    });
  } catch (const core::exec::Cancelled&) {
    exitCancelled("dpsynth: cancelled; no files were written\n");
  }
  if (refused) {
    for (const auto& w : result.warnings) std::cerr << "warning: " << w << "\n";
    std::cerr << "dpsynth: " << core::pipeline::refusalMessage(result)
              << ". No synthetic data were written" << (o.report.empty() ? "" : "; the report was")
              << ". The sampling screen failed at every budget up to its fixed cap; run again "
                 "with more warm-up and draws (--warmup, --draws).\n";
    return kExitBadInput;
  }

  if (!o.quiet) printSummary(dataset, result, report);
  for (const auto& w : result.warnings) std::cerr << "warning: " << w << "\n";
  return kExitOk;
}

}  // namespace dpsynth::cli
