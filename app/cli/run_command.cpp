/// dpsynth run: repeats a studio session (.dpsynth) and writes the same folder as the studio's
/// "Export all" (core/report/export_run.h).
#include <algorithm>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <mutex>

#include "app/cli/cli_common.h"
#include "app/cli/commands.h"
#include "app/cli/output_plan.h"
#include "app/cli/run_inputs.h"
#include "app/cli/stage_heartbeat.h"
#include "core/data/csv_writer.h"
#include "core/data/generators.h"
#include "core/data/sha256.h"
#include "core/data/spreadsheet_formulas.h"
#include "core/pipeline/export.h"
#include "core/pipeline/pipeline.h"
#include "core/report/export_run.h"
#include "core/session/session.h"

namespace dpsynth::cli {

namespace core = dpsynth::core;

void addRunCommand(CLI::App& app, RunOptions& o) {
  auto* run = app.add_subcommand(
      "run", "Run every mechanism of a studio session and export all results to a folder");
  run->add_option("--session", o.session, "Session file saved by the studio (.dpsynth)")
      ->required();
  run->add_option("--out", o.out, "Output folder (created if missing)")->required();
  run->add_option("--threads", o.threads,
                  "Worker threads (0 = all cores; default: the session's setting)")
      ->check(unsignedDecimal(0, 1024));
  run->add_option("--metric", o.metric,
                  "Sampler metric: auto, diag or dense (default: the session's setting)")
      ->check(CLI::IsMember({"auto", "diag", "dense"}));
  run->add_flag("--quiet", o.quiet, "Print only warnings and errors");
  run->add_flag("--replace", o.replace,
                "Replace OUT/release and OUT/internal even when they hold files dpsynth did not "
                "write (deleting them); without it such a folder is refused before the run");
  addSizeOptions(*run, o.rows, o.sizeEpsilon, " (default: the session's)");
  addReferenceOption(*run, o.references, ", overriding the session's for the columns named");
}

namespace {

/// Stage lines on stderr as the pipeline runs (no timings: the output is for humans only).
class StageLog : public core::pipeline::PipelineObserver {
 public:
  void onStageStarted(const std::string& mechanism, const std::string& stage,
                      bool fromCache) override {
    if (!fromCache) heartbeat_.started(mechanism, stage);
  }
  void onSamplerProgress(const std::string& stage, const core::mcmc::Progress& p) override {
    heartbeat_.progress(stage, p);
  }
  void onStageFinished(const std::string& mechanism, const core::pipeline::StagePtr& s) override {
    std::lock_guard lock(mutex_);
    std::cerr << "  " << std::left << std::setw(12) << mechanism << " stage " << std::setw(22)
              << s->name << std::right << " Δ = " << std::setprecision(4) << s->lipschitz.max
              << (s->fromCache ? "  (cached)" : "") << "\n";
  }

 private:
  std::mutex mutex_;
  StageHeartbeat heartbeat_;  // a line every few seconds while a long stage samples
};

/// The session's data as a table, refusing data that are missing or not the ones the session
/// was saved with: results from other data would silently differ from the saved analysis.
std::optional<core::data::CsvTable> loadSessionData(const core::session::Session& s,
                                                    const std::string& file, bool quiet,
                                                    const std::stop_token& stop) {
  namespace data = core::data;
  std::error_code ec;
  if (!s.sample.empty() && (s.dataFile.empty() || !std::filesystem::exists(s.dataFile, ec))) {
    // A studio session on a bundled sample whose file is not on this machine: the generator
    // reproduces the bundled file byte for byte (resources/README.md).
    const auto table = data::generateSample(s.sample, data::defaultSampleSize(s.sample),
                                            data::defaultSampleSeed(s.sample));
    const std::string text = data::formatCsv(table.header, table.rows, table.delimiter);
    if (!s.dataSha256.empty() && core::data::sha256Hex(text) != s.dataSha256)
      throw std::invalid_argument("session " + file + ": the bundled sample '" + s.sample +
                                  "' differs from the one the session was saved with");
    return data::parseCsv(text, s.sample + ".csv");
  }
  // Read once: the digest is of the very bytes that are parsed, so a file rewritten between a
  // check and a second read can never give results from other data with "verified" printed.
  if (s.dataFile.empty() || !std::filesystem::is_regular_file(s.dataFile, ec))
    throw std::invalid_argument("session " + file + ": the data file '" + s.dataFile +
                                "' of this session was not found");
  const std::optional<std::string> text = readInputText(s.dataFile, stop, quiet);
  if (!text) return std::nullopt;
  const std::optional<std::string> digest = core::data::sha256Hex(*text, stop);
  if (!digest) return std::nullopt;
  const auto check = core::session::compareDataDigest(s, *digest);
  switch (check.status) {
    case core::session::DataFileStatus::missing:
      throw std::invalid_argument("session " + file + ": " + check.message);
    case core::session::DataFileStatus::changed:
      throw std::invalid_argument("session " + file + ": " + check.message +
                                  " Refusing to run; re-open the session in the studio and save "
                                  "it again to use the new data.");
    case core::session::DataFileStatus::unverified:
      std::cerr << "warning: " << check.message << "\n";
      break;
    case core::session::DataFileStatus::unchanged:
      if (!quiet) std::cerr << "data " << s.dataFile << " (SHA-256 verified)\n";
      break;
  }
  return parseInputCsv(*text, s.dataFile, stop);
}

}  // namespace

int runRun(const RunOptions& o) {
  std::stop_token stop = interruptToken();

  // A bad session file is a SessionError: bad input (exit 2) through core::classify.
  core::session::Session session = core::session::loadSession(o.session);
  for (const auto& [column, level] : parseReferenceLevels(o.references))
    session.dataset.referenceLevels[column] = level;
  if (session.mechanisms.empty())
    throw std::invalid_argument("session " + o.session + " has no mechanisms to run");
  // The studio saves a family it only suggested from the confidential values as such: released,
  // the family would follow one record (SPEC §0). The studio refuses that release too.
  if (!session.reproducible && !session.familyDeclared)
    throw std::invalid_argument(
        "session " + o.session + ": the family (" +
        core::models::familyName(session.dataset.family) +
        ") was suggested from the confidential data, not declared, and a release needs it "
        "declared: open the session in the studio, pick the family and save it again (or set "
        "\"family_declared\": true once the family is chosen without looking at the values)");
  {
    // The export replaces release/ and internal/ as a whole: checked before the run, so that
    // neither an input nor a file the user put there is lost.
    OutputPlan plan;
    for (const auto& in : {o.session, session.dataFile, session.weightsFrom}) plan.input(in);
    plan.folder("--out", o.out, {});
    plan.replacedSubfolders(
        "--out", o.out, {core::report::kReleaseFolder, core::report::kInternalFolder}, o.replace);
    plan.check();
  }
  core::pipeline::RunSettings settings = session.run;
  // A session with a seed replays bit for bit, not for release; one without is a release.
  applySeed(settings, session.reproducible ? std::optional<std::uint64_t>(session.run.nuts.seed.lo)
                                           : std::nullopt);
  if (!session.weightsFrom.empty()) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(session.weightsFrom, ec))
      throw std::invalid_argument("session " + o.session + ": the reference data file '" +
                                  session.weightsFrom + "' (weights_from) was not found");
  }
  if (o.threads) {
    if (*o.threads < 0) throw std::invalid_argument("--threads must be >= 0");
    settings.nuts.threads = *o.threads;
  }
  settings.lipschitzThreads = settings.nuts.threads;
  if (o.metric) settings.nuts.metric = core::mcmc::parseMetricChoice(*o.metric);
  applySize(settings, o.rows, o.sizeEpsilon);

  // Ctrl-C while a large file is read or typed ends the command at the next check.
  std::optional<core::data::CsvTable> table = loadSessionData(session, o.session, o.quiet, stop);
  if (!table) return cancelledWhileReading(session.dataFile);
  session.dataset.countConfidential = settings.neighbours == core::privacy::Neighbours::addRemove;
  const std::optional<core::data::Dataset> built = buildInputDataset(*table, session.dataset, stop);
  if (built) {
    for (const auto& w : core::data::formulaLikeWarnings(*table, session.dataset.covariates))
      std::cerr << "warning: " << w << "\n";
  }
  // The dataset keeps its covariates typed; the table's text goes now rather than after the run.
  table.reset();
  if (!built) return cancelledWhileReading(session.dataFile);
  const core::data::Dataset& dataset = *built;
  if (!session.weightsFrom.empty()) {
    settings.weightReference =
        loadReference(session.weightsFrom, session.dataset, dataset, stop, o.quiet);
    if (!settings.weightReference) return cancelledWhileReading(session.weightsFrom);
  }
  // m datasets of the published size per mechanism: refused now where that size is known,
  // else by the export once the noisy size is drawn (n itself is confidential then).
  if (const auto rows = core::pipeline::rowsKnownBeforeRun(settings, dataset))
    core::pipeline::checkSyntheticVolume(static_cast<std::uint64_t>(session.syntheticDatasets),
                                         *rows, session.mechanisms.size(),
                                         "synthetic_datasets (session " + o.session + ")");
  if (!o.quiet) {
    std::cerr << "running " << session.mechanisms.size() << " mechanism(s) on " << dataset.size()
              << " records ("
              << (settings.release ? "a release: secret seed from the operating system"
                                   : "reproducible: the session has a seed, so every output says "
                                     "guarantee none and not_for_release, and nothing goes to "
                                     "release/")
              << ")\n";
    if (const std::string dropped = droppedColumnsLine(dataset); !dropped.empty())
      std::cerr << dropped << "\n";
    if (const std::string line = sizeLine(settings, dataset); !line.empty())
      std::cerr << line << "\n";
  }

  core::pipeline::StageCache cache;
  StageLog log;
  const auto run = core::pipeline::runMechanisms(dataset, session.mechanisms, settings, &cache,
                                                 stop, o.quiet ? nullptr : &log);
  if (run.outcome == core::pipeline::RunOutcome::cancelled || stop.stop_requested()) {
    exitCancelled("dpsynth: cancelled; no files were written\n");
  }

  const auto exported = core::report::exportRun(session, dataset, run, settings,
                                                {o.out,
                                                 session.syntheticDatasets,
                                                 {o.session, session.weightsFrom},
                                                 /*refuseForeignFiles=*/!o.replace,
                                                 stop,
                                                 /*release: every releasable one=*/std::nullopt});
  if (exported.cancelled) {
    exitCancelled("dpsynth: cancelled; no files were written\n");
  }
  if (!exported.refusals.empty()) {
    for (const auto& m : run.mechanisms)
      for (const auto& w : m.warnings)
        std::cerr << "warning: " << core::pipeline::mechanismName(m.config.mechanism) << ": " << w
                  << "\n";
    for (const auto& r : exported.refusals) std::cerr << "dpsynth: " << r << "\n";
    const std::string release =
        (std::filesystem::path(o.out) / core::report::kReleaseFolder).string();
    const bool others =
        std::any_of(exported.files.begin(), exported.files.end(), [](const std::string& f) {
          return std::filesystem::path(f).parent_path().filename() == core::report::kReleaseFolder;
        });
    // A refusal withholds only its own mechanism: whether the others appear must not rest on
    // its check of the confidential data. Without any, an earlier run's release/ went with the
    // internal/ it belonged to: the folder holds no release, not an old one.
    std::string where = "; the other mechanisms' release is in " + release;
    if (!others) {
      where = "; no other mechanism had a release, so nothing was written to " + release;
      if (!exported.removedFolders.empty()) where += " and the earlier run's release was removed";
    }
    std::cerr << "dpsynth: the refused mechanisms' synthetic data were not written" << where
              << ", and the internal report with the diagnostics is in "
              << (std::filesystem::path(o.out) / core::report::kInternalFolder).string()
              << ". The sampling screen failed at every budget up to its fixed cap; run again "
                 "with more warm-up and draws.\n";
    return kExitBadInput;
  }
  // Said even with --quiet: files the user may expect are gone.
  for (const auto& removed : exported.removedFolders)
    std::cerr << "dpsynth: removed " << removed
              << ", an earlier run's release: this run has nothing releasable (a seeded session, "
                 "or no mechanism with a DP or aDP label), and a release beside its internal/ "
                 "would be described by no report of it\n";
  if (!o.quiet) {
    std::cout << "wrote " << exported.files.size() << " files to "
              << std::filesystem::absolute(o.out).lexically_normal().string() << ":\n";
    for (const auto& f : exported.files)
      std::cout << "  " << std::filesystem::path(f).parent_path().filename().string() << "/"
                << std::filesystem::path(f).filename().string() << "\n";
  }
  for (const auto& m : run.mechanisms)
    for (const auto& w : m.warnings)
      std::cerr << "warning: " << core::pipeline::mechanismName(m.config.mechanism) << ": " << w
                << "\n";
  return kExitOk;
}

}  // namespace dpsynth::cli
