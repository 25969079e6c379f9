#include "core/study/study_runner.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "core/exec/cancellation.h"
#include "core/exec/parallel_for.h"
#include "core/pipeline/pipeline.h"
#include "core/random/rng.h"
#include "core/study/study_row.h"
#include "core/summary/run_summary.h"

namespace dpsynth::core::study {
namespace {

/// Sub-seed tag of a replicate's seed for its data draw (the sampler and the synthetic datasets
/// use the replicate's seed as any run uses its own, summary::synthesisSeed).
constexpr std::uint64_t kDataTag = 0x64617461;  // "data"

CellKeys cellKeys(const StudyCell& cell) {
  return {pipeline::mechanismName(cell.mechanism),
          cell.epsilon,
          cell.c,
          cell.g,
          cell.hasDownscale,
          cell.downscale};
}

/// Divergences and the largest finite R-hat of the final fit (none without one), and seconds.
void setDiagnostics(StudyRow& row, const pipeline::MechanismResult& result) {
  row.seconds = result.seconds;
  if (!result.final) return;
  row.divergences = result.final->sample->divergences();
  for (const auto& p : result.final->posterior)
    if (std::isfinite(p.rhat)) row.maxRhat = std::max(row.maxRhat.value_or(0.0), p.rhat);
}

}  // namespace

std::vector<std::string> studyHeader() { return studyRowHeader(); }

std::optional<ReplicateRows> runReplicate(const StudyConfig& config, const ReplicateSource& source,
                                          int replicate, std::stop_token stop) {
  const std::uint64_t seed = replicateSeed(config.seed, replicate);
  std::optional<data::Dataset> drawn;
  try {
    drawn = source.draw(random::deriveSeed(random::Seed(seed), kDataTag).lo, stop);
  } catch (const exec::Cancelled&) {
    return std::nullopt;
  }
  const data::Dataset& dataset = *drawn;
  const auto cells = studyCells(config);
  std::vector<pipeline::MechanismConfig> configs;
  for (const auto& cell : cells) configs.push_back(cell.mechanismConfig(config));

  pipeline::RunSettings settings;
  settings.model.family = config.family();
  settings.nuts.chains = config.sampler.chains;
  settings.nuts.warmup = config.sampler.warmup;
  settings.nuts.draws = config.sampler.draws;
  settings.nuts.seed = random::Seed(seed);
  settings.nuts.threads = 1;  // replicates are the parallel unit (study_runner.h)
  settings.lipschitzThreads = 1;
  settings.neighbours = config.neighbours;
  settings.release = false;
  settings.weightReference = source.weightReference();
  settings.referenceMayBeTheData = true;  // a replicate is no release (pipeline.h)

  pipeline::StageCache cache;
  const auto run = pipeline::runMechanisms(dataset, configs, settings, &cache, stop);
  if (run.outcome == pipeline::RunOutcome::cancelled || stop.stop_requested()) return std::nullopt;
  if (run.mechanisms.size() != cells.size())
    throw std::logic_error("study replicate: the pipeline returned fewer mechanisms than cells");

  // The run summary of every front end (summary/run_summary.h): the first synthetic dataset
  // drawn with the run's seed, as `dpsynth fit` and "Export all" draw it.
  std::vector<summary::ResultsRow> table;
  try {
    table = summary::summarizeRun(dataset, run, settings, stop).rows;
  } catch (const exec::Cancelled&) {
    return std::nullopt;
  }
  if (table.size() != cells.size() + 1)
    throw std::logic_error("study replicate: results rows do not match the cells");

  ReplicateRows out;
  out.replicate = replicate;
  StudyRow confidential;
  confidential.replicate = replicate;
  confidential.keys.mechanism = "confidential";
  confidential.results = table[0];
  out.rows.push_back(studyCsvFields(confidential));
  for (std::size_t j = 0; j < cells.size(); ++j) {
    StudyRow row;
    row.replicate = replicate;
    row.cell = static_cast<int>(j);
    row.keys = cellKeys(cells[j]);
    row.results = table[j + 1];
    setDiagnostics(row, run.mechanisms[j]);
    out.rows.push_back(studyCsvFields(row));
  }
  return out;
}

StudyOutcome runReplicates(
    const std::vector<int>& replicates, int threads,
    const std::function<std::optional<ReplicateRows>(int, std::stop_token)>& run,
    const std::function<void(const ReplicateRows&)>& onReplicate,
    const std::function<void(const StudyProgress&)>& onProgress, std::stop_token stop) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::optional<ReplicateRows>> landed(replicates.size());
  int done = 0;
  const std::size_t finished = exec::parallelFor(
      replicates.size(), threads,
      [&](std::size_t i, std::stop_token token) {
        landed[i] = run(replicates[i], token);
        return landed[i].has_value();
      },
      [&](std::size_t i) {
        onReplicate(*landed[i]);
        landed[i].reset();
        ++done;
        if (onProgress) {
          const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
          onProgress({done, static_cast<int>(replicates.size()), elapsed.count()});
        }
      },
      stop);
  return finished == replicates.size() ? StudyOutcome::completed : StudyOutcome::cancelled;
}

StudyOutcome runStudy(const StudyConfig& config, const std::vector<int>& replicates, int threads,
                      const std::function<void(const ReplicateRows&)>& onReplicate,
                      const std::function<void(const StudyProgress&)>& onProgress,
                      std::stop_token stop) {
  return runStudy(config, ReplicateSource(config), replicates, threads, onReplicate, onProgress,
                  stop);
}

StudyOutcome runStudy(const StudyConfig& config, const ReplicateSource& source,
                      const std::vector<int>& replicates, int threads,
                      const std::function<void(const ReplicateRows&)>& onReplicate,
                      const std::function<void(const StudyProgress&)>& onProgress,
                      std::stop_token stop) {
  return runReplicates(
      replicates, threads,
      [&](int r, std::stop_token token) { return runReplicate(config, source, r, token); },
      onReplicate, onProgress, stop);
}

}  // namespace dpsynth::core::study
