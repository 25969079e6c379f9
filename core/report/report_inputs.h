#pragma once
/// Everything the HTML reports are made from, gathered once by exportRun so that the internal
/// report, the release note and the files on disk describe the same synthetic datasets.
#include <Eigen/Dense>
#include <cstdint>
#include <string>
#include <vector>

#include "core/data/dataset.h"
#include "core/pipeline/pipeline.h"
#include "core/report/results_table.h"
#include "core/session/session.h"

namespace dpsynth::core::report {

struct ReportInputs {
  const session::Session& session;
  const data::Dataset& dataset;
  const pipeline::RunResult& run;
  const pipeline::RunSettings& settings;
  random::Seed seed = 0;                                 ///< synthesis seed (a release's is never written)
  int datasets = 1;                                      ///< m synthetic datasets per mechanism
  std::vector<std::string> labels;                       ///< mechanismLabels(run)
  std::vector<ResultsRow> rows;                          ///< resultsTable(...)
  std::vector<std::vector<Eigen::VectorXd>> synthetic;   ///< per mechanism, m datasets each
  std::vector<std::vector<std::string>> syntheticFiles;  ///< file names, per mechanism
};

}  // namespace dpsynth::core::report
