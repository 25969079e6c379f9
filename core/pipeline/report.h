#pragma once
/// The report JSON of SPEC §7. Keys are a stable contract with outside scripts: add, never
/// rename. The report is internal (it carries the confidential summary statistics); the
/// synthetic-data sidecar written by export.h is what may travel with a release.
#include <Eigen/Dense>
#include <nlohmann/json.hpp>

#include "core/data/dataset.h"
#include "core/pipeline/pipeline.h"

namespace dpsynth::core::pipeline {

/// synthetic: one synthetic dataset (the first of synthesize(..., seed)) for the utility block.
/// Its utility measures take seconds on 10^6 records: `stop` ends them with exec::Cancelled.
nlohmann::json buildReport(const data::Dataset& dataset, const MechanismResult& result,
                           const RunSettings& settings, const Eigen::VectorXd& synthetic,
                           const std::stop_token& stop = {});

/// A stage as it appears in the report's "stages" list.
nlohmann::json stageJson(const StageResult& stage);

}  // namespace dpsynth::core::pipeline
