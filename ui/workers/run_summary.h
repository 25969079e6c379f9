#pragma once
/// Turns a finished run into what the window shows: core::summary::summarizeRun's first
/// synthetic datasets and results rows (so the studio, results.csv, the reports and `dpsynth
/// fit` cannot disagree) and the plots' data.
#include <stop_token>

#include "ui/document/run_types.h"

namespace dpsynth::ui {

/// core::summary::summarizeRun (each mechanism's first synthetic dataset with the run's seed
/// rule, the results rows), with the plot data and warnings of each mechanism. Returns false
/// if `stop` was requested meanwhile.
bool summarizeRun(const core::data::Dataset& dataset, const core::pipeline::RunSettings& settings,
                  const core::pipeline::RunResult& result, RunOutput& output,
                  std::stop_token stop = {});

/// Rows of `draws` (unconstrained) mapped through model.constrain and flattened draw-major.
std::vector<double> constrainDraws(const core::models::Model& model, const Eigen::MatrixXd& draws);

}  // namespace dpsynth::ui
