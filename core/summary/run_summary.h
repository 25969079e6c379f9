#pragma once
/// The one run summary: each mechanism's first synthetic dataset and the results rows, as
/// `dpsynth fit`, "Export all" / `dpsynth run`, the studio and studies show them. One seed rule
/// (synthesisSeed), so the dataset a report describes is the first one in the files, whichever
/// front end made it.
#include <Eigen/Dense>
#include <memory>
#include <stop_token>
#include <vector>

#include "core/data/dataset.h"
#include "core/pipeline/pipeline.h"
#include "core/pipeline/synthesis.h"
#include "core/summary/results_rows.h"

namespace dpsynth::core::summary {

/// The seed every synthetic dataset of a run is drawn with: the run's own seed
/// (settings.nuts.seed; a release's from the OS, never written). The sampler's streams are
/// derived from it by stage kind, the synthetic datasets use its streams 1000 + j
/// (pipeline::Synthesizer), so the two never share random numbers.
random::Seed synthesisSeed(const pipeline::RunSettings& settings);

struct RunSummary {
  /// Per mechanism (run.mechanisms order): the synthesizer of its datasets,
  /// pipeline::Synthesizer(dataset, mechanism, settings.model, synthesisSeed(settings)). It
  /// refers to the dataset and the run result: valid while they live. Draw dataset k ≥ 1 from
  /// it; dataset 0 is firstSynthetic.
  std::vector<std::unique_ptr<pipeline::Synthesizer>> synthesizers;
  /// Per mechanism: its first synthetic dataset, synthesizers[j]->draw(0).
  std::vector<Eigen::VectorXd> firstSynthetic;
  /// The "confidential" row, then one row per mechanism (resultsTable on firstSynthetic).
  std::vector<ResultsRow> rows;
};

/// The synthesizers and first datasets alone, rows left empty: for a caller that computes its
/// own measures of them (`dpsynth fit`'s report), without the results rows' cost.
RunSummary firstDatasets(const data::Dataset& dataset, const pipeline::RunResult& run,
                         const pipeline::RunSettings& settings, const std::stop_token& stop = {});

/// The summary of a finished run: firstDatasets, then the results rows. Throws exec::Cancelled when
/// `stop` is requested (building a synthesizer, drawing and the utility measures take seconds on
/// 10^6 records), and std::invalid_argument for a result without a final fit where one is needed.
RunSummary summarizeRun(const data::Dataset& dataset, const pipeline::RunResult& run,
                        const pipeline::RunSettings& settings, const std::stop_token& stop = {});

}  // namespace dpsynth::core::summary
