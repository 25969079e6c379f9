#pragma once
/// Turns a finished run into what the window shows: the results table (core::report's, so the
/// studio, results.csv and the reports cannot disagree) and the plots' data.
#include <stop_token>

#include "ui/document/run_types.h"

namespace dpsynth::ui {

/// For each mechanism: its first synthetic dataset synthesize(dataset, result, model, 1, seed)
/// with the run seed (the one the CLI's report and "Export all" use), the results table of
/// core::report on them, and the plot data. Returns false if `stop` was requested meanwhile.
bool summarizeRun(const core::data::Dataset& dataset, const core::pipeline::RunSettings& settings,
                  const core::pipeline::RunResult& result, RunOutput& output,
                  std::stop_token stop = {});

/// Rows of `draws` (unconstrained) mapped through model.constrain and flattened draw-major.
std::vector<double> constrainDraws(const core::models::Model& model, const Eigen::MatrixXd& draws);

}  // namespace dpsynth::ui
