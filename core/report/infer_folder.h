#pragma once
/// Writes an inference run's draws.csv, summary.json and trace.csv into a folder, all together
/// or not at all (StagedFolder), for `dpsynth infer` and the studio alike.
#include <string>
#include <vector>

#include "core/infer/infer_outputs.h"

namespace dpsynth::core::report {

/// The files writeInferFolder writes into its folder: draws.csv, summary.json, trace.csv.
std::vector<std::string> inferFileNames();

/// Creates `folder` if needed. Throws data::WriteError naming the folder or file (or
/// std::invalid_argument when `folder` is a file) and leaves no partial output when a file
/// cannot be written.
void writeInferFolder(const std::string& folder, const infer::InferOutputs& outputs);

}  // namespace dpsynth::core::report
