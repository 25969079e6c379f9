/// dpsynth study: Monte Carlo studies (SPEC §8) and the merge of shard folders.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>

#include "app/cli/cli_common.h"
#include "app/cli/commands.h"
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

}  // namespace

void addStudyCommand(CLI::App& app, StudyOptions& o) {
  auto* cmd = app.add_subcommand("study", "Run a Monte Carlo study (or merge its shards)");
  cmd->add_option("--config", o.config, "Study config (JSON, SPEC §8)");
  cmd->add_option("--out", o.out, "Output folder (resumed when it holds the same study)");
  cmd->add_option("--shard", o.shard, "Run only shard i/N (replicates r with r mod N == i)");
  cmd->add_option("--threads", o.threads, "Replicates run at once (default: all cores)")
      ->check(unsignedDecimal(0, 1024));
  cmd->add_flag("--quiet", o.quiet, "No progress on stderr");
  cmd->require_subcommand(0, 1);
  auto* merge = cmd->add_subcommand("merge", "Merge shard folders of one study");
  merge->add_option("--out", o.mergeOut, "Merged output folder")->required();
  merge->add_option("folders", o.mergeInputs, "Shard folders")->required();
}

int runStudy(const StudyOptions& o, const CLI::App& studyCommand) {
  if (studyCommand.got_subcommand("merge")) {
    study::mergeStudies(o.mergeOut, o.mergeInputs);
    const auto config = study::loadStoredConfig(o.mergeOut);
    const study::StudyStore store(o.mergeOut, config);
    study::writeStudyOutputs(o.mergeOut, config, store.rows());
    std::cerr << "merged " << o.mergeInputs.size() << " folder(s): " << store.completed().size()
              << " of " << config.replicates << " replicates in " << o.mergeOut << "\n";
    return kExitOk;
  }
  if (o.config.empty()) throw std::invalid_argument("study: --config is required");
  if (o.out.empty()) throw std::invalid_argument("study: --out is required");
  const study::Shard shard = o.shard.empty() ? study::Shard{} : [&] {
    try {
      return study::Shard::parse(o.shard);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(std::string("--shard: ") + e.what());
    }
  }();
  std::stop_token stop = interruptToken();
  const auto config = study::loadStudyConfig(o.config);
  study::StudyStore store(o.out, config);
  std::vector<int> todo;
  for (int r : study::shardReplicates(config, shard))
    if (!store.completed().count(r)) todo.push_back(r);
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
      config, todo, o.threads,
      [&](const study::ReplicateRows& rows) { store.append(rows); },
      [&](const study::StudyProgress& p) {
        if (o.quiet) return;
        const double left = p.elapsedSeconds / p.done * (p.total - p.done);
        std::cerr << "  replicates " << p.done << "/" << p.total << "  elapsed "
                  << hms(p.elapsedSeconds) << "  left ~" << hms(left) << "\n";
      },
      stop);
  study::writeStudyOutputs(o.out, config, store.rows());
  if (outcome == study::StudyOutcome::cancelled) {
    std::cerr << "dpsynth: cancelled; " << store.completed().size()
              << " complete replicate(s) kept in " << o.out << " (run again to resume)\n";
    return kExitCancelled;
  }
  if (!o.quiet) std::cerr << "wrote " << o.out << "\n";
  return kExitOk;
}

}  // namespace dpsynth::cli
