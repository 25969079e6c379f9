/// dpsynth study: Monte Carlo studies (SPEC §8) and the merge of shard folders.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "app/cli/cli_common.h"
#include "app/cli/commands.h"
#include "app/cli/output_plan.h"
#include "core/report/ownership_manifest.h"
#include "core/study/coverage_study.h"
#include "core/study/study_outputs.h"
#include "core/study/study_plan.h"
#include "core/study/study_runner.h"
#include "core/study/study_store.h"

namespace dpsynth::cli {
namespace {

namespace study = dpsynth::core::study;

std::string hms(double seconds) {
  const long s = std::lround(std::max(0.0, seconds));
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%ld:%02ld:%02ld", s / 3600, (s / 60) % 60, s % 60);
  return buffer;
}

/// Checks, before any work, every file a study or a merge of `identity` writes into `folder`:
/// its rows and identity (study_store.h) and `summaries`, none of them one of `inputs`, and
/// (unless `replace`) no summary a file of that name that dpsynth did not write.
void checkStudyFolder(const std::string& option, const std::string& folder,
                      const study::StoreIdentity& identity,
                      const std::vector<std::string>& summaries,
                      const std::vector<std::string>& inputs, bool replace) {
  namespace fs = std::filesystem;
  std::vector<std::string> names = {"replicates.csv", "study.sha256"};
  // study.json is written only into a folder that holds no study yet: resuming with
  // --config FOLDER/study.json reads the file that is then kept as it is. A study.json there
  // without study.sha256 is the user's (a study plan, say): the study would replace it, and
  // delete it when it failed.
  std::error_code ec;
  if (!fs::exists(fs::path(folder) / "study.sha256", ec)) {
    if (const std::string problem = study::foreignConfigProblem(folder, identity); !problem.empty())
      throw std::invalid_argument(option + " " + folder + ": " + problem);
    names.push_back("study.json");
  }
  names.insert(names.end(), summaries.begin(), summaries.end());
  names.push_back(core::report::kManifestName);
  OutputPlan plan;
  for (const auto& in : inputs) plan.input(in);
  plan.folder(option, folder, names);
  // The summaries have names a user's own files have too (summary.md): the folder's manifest
  // says which of them an earlier study wrote.
  plan.ownedFiles(option, folder, summaries, replace);
  plan.check();
}

/// The files a merge reads from its shard folders.
std::vector<std::string> shardFiles(const std::vector<std::string>& folders) {
  std::vector<std::string> files;
  for (const auto& f : folders)
    for (const auto& path :
         {study::StudyStore::replicatesPath(f), study::StudyStore::configPath(f)})
      files.push_back(path);
  return files;
}

}  // namespace

void addStudyCommand(CLI::App& app, StudyOptions& o) {
  auto* cmd = app.add_subcommand("study", "Run a Monte Carlo study (or merge its shards)");
  cmd->add_option("--config", o.config, "Study config (JSON, SPEC §8)");
  cmd->add_option("--out", o.out, "Output folder (resumed when it holds the same study)");
  cmd->add_option("--shard", o.shard, "Run only shard i/N (replicates r with r mod N == i)");
  cmd->add_option("--threads", o.threads, "Replicates run at once (default: all cores)")
      ->check(unsignedDecimal(0, 1024));
  cmd->add_flag("--quiet", o.quiet, "No progress on stderr");
  cmd->add_flag("--replace", o.replace,
                "Replace the summaries in OUT (summary.md, summary.json, lipschitz.svg, ...) even "
                "when dpsynth did not write them; without it such a file is refused before the "
                "study");
  cmd->require_subcommand(0, 1);
  auto* merge = cmd->add_subcommand("merge", "Merge shard folders of one study");
  merge->add_option("--out", o.mergeOut, "Merged output folder")->required();
  merge->add_option("folders", o.mergeInputs, "Shard folders")->required();
  merge->add_flag("--replace", o.replace,
                  "Replace the summaries in OUT even when dpsynth did not write them; without it "
                  "such a file is refused before the merge");
}

/// The progress line of a running study.
void printStudyProgress(const study::StudyProgress& p) {
  const double left = p.elapsedSeconds / p.done * (p.total - p.done);
  std::cerr << "  replicates " << p.done << "/" << p.total << "  elapsed " << hms(p.elapsedSeconds)
            << "  left ~" << hms(left) << "\n";
}

/// A study's replicates that the shard owns and the folder does not hold yet.
std::vector<int> replicatesToRun(int replicates, const study::Shard& shard,
                                 const study::StudyStore& store) {
  std::vector<int> todo;
  for (int r = 0; r < replicates; ++r)
    if (shard.owns(r) && !store.completed().count(r)) todo.push_back(r);
  return todo;
}

int finishStudy(study::StudyOutcome outcome, const study::StudyStore& store,
                const StudyOptions& o) {
  if (outcome == study::StudyOutcome::cancelled) {
    // Every kept replicate is on disk: its rows went in whole (an atomic replace of
    // replicates.csv under the folder's lock) before it counted as complete.
    exitCancelled("dpsynth: cancelled; " + std::to_string(store.completed().size()) +
                  " complete replicate(s) kept in " + o.out + " (run again to resume)\n");
  }
  if (!o.quiet) std::cerr << "wrote " << o.out << "\n";
  return kExitOk;
}

/// The coverage study of 004 (coverage_study.h): same folder, resume and shards as any study.
int runCoverage(const std::string& text, const StudyOptions& o, const study::Shard& shard) {
  const auto config = study::coverageConfigFromJson(text, o.config);
  const auto identity = study::coverageStoreIdentity(config);
  checkStudyFolder("--out", o.out, identity, study::coverageOutputNames(), {o.config}, o.replace);
  study::StudyStore store(o.out, identity);
  const std::vector<int> todo = replicatesToRun(config.replicates, shard, store);
  if (!o.quiet)
    std::cerr << "coverage study: " << config.epsilon.size() << " ε value(s), " << todo.size()
              << " replicate(s) to run"
              << (store.completed().empty()
                      ? ""
                      : " (" + std::to_string(store.completed().size()) + " kept)")
              << "; seeded noise: an internal simulation, never a release\n";
  const auto outcome = study::runCoverageStudy(
      config, todo, o.threads, [&](const study::ReplicateRows& rows) { store.append(rows); },
      [&](const study::StudyProgress& p) {
        if (!o.quiet) printStudyProgress(p);
      },
      interruptToken());
  // Under the folder's lock, from every row on disk (another process may share the folder).
  store.withAllRows([&](const auto& rows) { study::writeCoverageOutputs(o.out, config, rows); });
  return finishStudy(outcome, store, o);
}

int mergeCoverage(const std::string& storedText, const StudyOptions& o) {
  const auto config = study::coverageConfigFromJson(
      storedText, study::StudyStore::configPath(o.mergeInputs.front()));
  const auto identity = study::coverageStoreIdentity(config);
  checkStudyFolder("study merge --out", o.mergeOut, identity, study::coverageOutputNames(),
                   shardFiles(o.mergeInputs), o.replace);
  study::mergeStudies(o.mergeOut, o.mergeInputs, identity);
  study::StudyStore store(o.mergeOut, identity);
  store.withAllRows(
      [&](const auto& rows) { study::writeCoverageOutputs(o.mergeOut, config, rows); });
  std::cerr << "merged " << o.mergeInputs.size() << " folder(s): " << store.completed().size()
            << " of " << config.replicates << " replicates in " << o.mergeOut << "\n";
  return kExitOk;
}

int runStudy(const StudyOptions& o, const CLI::App& studyCommand) {
  if (studyCommand.got_subcommand("merge")) {
    if (o.mergeInputs.empty())
      throw std::invalid_argument("study merge: name at least one shard folder");
    // Every input must be a study folder before anything is compared or written.
    for (const auto& in : o.mergeInputs) study::loadStoredConfigText(in);
    const std::string stored = study::loadStoredConfigText(o.mergeInputs.front());
    if (study::isCoverageConfigText(stored)) return mergeCoverage(stored, o);
    const auto first = study::loadStoredConfig(o.mergeInputs.front());
    const auto identity = study::storeIdentity(first);
    checkStudyFolder("study merge --out", o.mergeOut, identity, study::studyOutputNames(first),
                     shardFiles(o.mergeInputs), o.replace);
    study::mergeStudies(o.mergeOut, o.mergeInputs, identity);
    const auto config = study::loadStoredConfig(o.mergeOut);
    study::StudyStore store(o.mergeOut, config);
    store.withAllRows(
        [&](const auto& rows) { study::writeStudyOutputs(o.mergeOut, config, rows); });
    std::cerr << "merged " << o.mergeInputs.size() << " folder(s): " << store.completed().size()
              << " of " << config.replicates << " replicates in " << o.mergeOut << "\n";
    return kExitOk;
  }
  if (o.config.empty()) throw std::invalid_argument("study: --config is required");
  if (o.out.empty()) throw std::invalid_argument("study: --out is required");
  const study::Shard shard = !o.shard ? study::Shard{} : [&] {
    try {
      return study::Shard::parse(*o.shard);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(std::string("--shard: ") + e.what());
    }
  }();
  const std::string text = study::readStudyConfigText(o.config);
  if (study::isCoverageConfigText(text)) return runCoverage(text, o, shard);
  const auto config = study::loadStudyConfig(o.config);
  checkStudyFolder("--out", o.out, study::storeIdentity(config), study::studyOutputNames(config),
                   {o.config, config.source.bootstrap ? config.source.bootstrap->file : ""},
                   o.replace);
  study::StudyStore store(o.out, config);
  const std::vector<int> todo = replicatesToRun(config.replicates, shard, store);
  if (!o.quiet) {
    std::cerr << "study: " << study::studyCells(config).size() << " cells, " << todo.size()
              << " replicate(s) to run";
    if (!store.completed().empty()) std::cerr << " (" << store.completed().size() << " kept)";
    if (config.source.bootstrap)
      std::cerr << "; an INTERNAL study of '" << config.source.bootstrap->file
                << "' (resampled), never a release";
    std::cerr << "\n";
  }
  const auto outcome = study::runStudy(
      config, todo, o.threads, [&](const study::ReplicateRows& rows) { store.append(rows); },
      [&](const study::StudyProgress& p) {
        if (!o.quiet) printStudyProgress(p);
      },
      interruptToken());
  store.withAllRows([&](const auto& rows) { study::writeStudyOutputs(o.out, config, rows); });
  return finishStudy(outcome, store, o);
}

}  // namespace dpsynth::cli
