#pragma once
/// Everything the HTML reports are made from, gathered once by exportRun so that the internal
/// report, the release note and the files on disk describe the same synthetic datasets.
#include <Eigen/Dense>
#include <cstdint>
#include <stop_token>
#include <string>
#include <vector>

#include "core/data/dataset.h"
#include "core/pipeline/pipeline.h"
#include "core/report/results_table.h"
#include "core/session/session.h"
#include "core/utility/utility.h"

namespace dpsynth::core::report {

struct ReportInputs {
  const session::Session& session;
  const data::Dataset& dataset;
  const pipeline::RunResult& run;
  const pipeline::RunSettings& settings;
  random::Seed seed = 0;            ///< synthesis seed (a release's is never written)
  int datasets = 1;                 ///< m synthetic datasets per mechanism
  std::vector<std::string> labels;  ///< mechanismLabels(run)
  std::vector<ResultsRow> rows;     ///< resultsTable(...)
  /// Per mechanism: its first synthetic dataset (the one the utility measures describe). The
  /// others are written one at a time and only summarised: m datasets of 10^6 records would
  /// not fit in memory.
  std::vector<Eigen::VectorXd> firstSynthetic;
  /// Per mechanism, per dataset (m each): the synthetic outcome's mean, median, q15 and q90.
  std::vector<std::vector<utility::DistributionSummary>> syntheticSummaries;
  std::vector<std::vector<std::string>> syntheticFiles;  ///< file names, per mechanism
  std::stop_token stop;  ///< the reports' charts sort 10^6 values: checked (exec::Cancelled)
  /// Per mechanism: its files go to release/ (empty: every releasable one does).
  std::vector<bool> inRelease;
};

}  // namespace dpsynth::core::report
