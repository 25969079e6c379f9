#include "core/study/study_runner.h"

#include "core/exec/cancellation.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "core/data/csv_writer.h"
#include "core/exec/parallel_for.h"
#include "core/pipeline/pipeline.h"
#include "core/random/rng.h"
#include "core/report/results_table.h"

namespace dpsynth::core::study {
namespace {

/// Sub-seed tags of a replicate's seed: the data draw and the synthetic datasets of the rows.
constexpr std::uint64_t kDataTag = 0x64617461;   // "data"
constexpr std::uint64_t kSynthTag = 0x73796e74;  // "synt"

std::string optionalField(const std::optional<double>& v) {
  return v ? data::formatNumber(*v) : std::string();
}

std::vector<std::string> cellFields(int index, const StudyCell& cell) {
  std::string downscale;
  if (cell.hasDownscale) downscale = cell.downscale ? data::formatNumber(*cell.downscale) : "auto";
  return {std::to_string(index),       pipeline::mechanismName(cell.mechanism),
          optionalField(cell.epsilon), optionalField(cell.c),
          optionalField(cell.g),       downscale};
}

std::vector<std::string> diagnosticFields(const pipeline::MechanismResult& result) {
  if (!result.final) return {"", "", data::formatNumber(result.seconds)};
  double maxRhat = 0;
  bool any = false;
  for (const auto& p : result.final->posterior)
    if (std::isfinite(p.rhat)) {
      maxRhat = std::max(maxRhat, p.rhat);
      any = true;
    }
  return {std::to_string(result.final->sample.divergences()),
          any ? data::formatNumber(maxRhat) : std::string(),
          data::formatNumber(result.seconds)};
}

}  // namespace

std::vector<std::string> studyHeader() {
  std::vector<std::string> header{"replicate", "cell",  "cell_mechanism", "cell_epsilon",
                                  "cell_c",    "cell_g", "cell_downscale"};
  for (const auto& h : report::resultsHeader()) header.push_back(h);
  for (const char* h : {"divergences", "max_rhat", "seconds"}) header.push_back(h);
  return header;
}

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

  pipeline::StageCache cache;
  const auto run = pipeline::runMechanisms(dataset, configs, settings, &cache, stop);
  if (run.outcome == pipeline::RunOutcome::cancelled || stop.stop_requested()) return std::nullopt;
  if (run.mechanisms.size() != cells.size())
    throw std::logic_error("study replicate: the pipeline returned fewer mechanisms than cells");

  std::vector<report::ResultsRow> table;
  try {
    table = report::resultsTable(dataset, run, settings.model,
                                 random::deriveSeed(random::Seed(seed), kSynthTag).lo, stop);
  } catch (const exec::Cancelled&) {
    return std::nullopt;
  }
  const auto fields = report::resultsCsvRows(table);
  if (fields.size() != cells.size() + 1)
    throw std::logic_error("study replicate: results rows do not match the cells");

  ReplicateRows out;
  out.replicate = replicate;
  const std::string r = std::to_string(replicate);
  std::vector<std::string> confidential{r, "", "confidential", "", "", "", ""};
  confidential.insert(confidential.end(), fields[0].begin(), fields[0].end());
  confidential.insert(confidential.end(), {"", "", ""});
  out.rows.push_back(std::move(confidential));
  for (std::size_t j = 0; j < cells.size(); ++j) {
    std::vector<std::string> row{r};
    const auto keys = cellFields(static_cast<int>(j), cells[j]);
    row.insert(row.end(), keys.begin(), keys.end());
    row.insert(row.end(), fields[j + 1].begin(), fields[j + 1].end());
    const auto diagnostics = diagnosticFields(run.mechanisms[j]);
    row.insert(row.end(), diagnostics.begin(), diagnostics.end());
    out.rows.push_back(std::move(row));
  }
  return out;
}

StudyOutcome runReplicates(const std::vector<int>& replicates, int threads,
                           const std::function<std::optional<ReplicateRows>(int, std::stop_token)>& run,
                           const std::function<void(const ReplicateRows&)>& onReplicate,
                           const std::function<void(const StudyProgress&)>& onProgress,
                           std::stop_token stop) {
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
