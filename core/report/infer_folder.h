#pragma once
/// Writes an inference run's draws.csv, summary.json and trace.csv into a folder, all together
/// or not at all (StagedFolder), for `dpsynth infer` and the studio alike.
#include <string>
#include <vector>

#include "core/infer/infer_outputs.h"

namespace dpsynth::core::report {

/// The files writeInferFolder writes into its folder: draws.csv, summary.json, trace.csv.
std::vector<std::string> inferFileNames();

/// Creates `folder` if needed. The three files are recorded in the folder's ownership manifest
/// (ownership_manifest.h: foreignFiles), written with them, so that a later run replaces them
/// and nothing else of those names. Throws data::WriteError naming the folder or file (or
/// std::invalid_argument when `folder` is a file) and leaves no partial output when a file
/// cannot be written. With `refuseForeignFiles` (`dpsynth infer` without --replace; it checks
/// before sampling too, this catches what appeared meanwhile) a file of those names that dpsynth
/// did not write is refused (std::invalid_argument naming it), nothing written.
void writeInferFolder(const std::string& folder, const infer::InferOutputs& outputs,
                      bool refuseForeignFiles = false);

}  // namespace dpsynth::core::report
