#pragma once
/// "Export all": the one function behind both the studio's export and `dpsynth run`, so that
/// their folders are identical by construction.
#include <cstdint>
#include <string>
#include <vector>

#include "core/data/dataset.h"
#include "core/pipeline/pipeline.h"
#include "core/session/session.h"

namespace dpsynth::core::report {

struct ExportOptions {
  std::string outDir;
  int syntheticDatasets = 1;  ///< m synthetic datasets per mechanism
  std::uint64_t seed = 1;     ///< synthesis seed (the CLI passes the session's sampler seed)
};

struct ExportedFiles {
  std::vector<std::string> files;  ///< final paths, in the order of exportFileNames()
};

/// Writes into outDir (created if missing), for each mechanism (label L from mechanismLabels):
///   synthetic_L.csv (m = 1) or synthetic_L_1.csv … synthetic_L_m.csv, the sidecar
///   synthetic_L.csv.json, and report_L.json (report of the first synthetic dataset);
/// then results.csv, internal_report.html, release_note.html and session.dpsynth (the session,
/// with its data path made absolute). Synthetic data come from pipeline::synthesize(dataset,
/// result, settings.model, m, seed). Nothing is written when anything fails: the files are
/// produced in a hidden folder inside outDir and moved into place together (existing files of
/// the same names are replaced only on success). Throws std::invalid_argument for a cancelled
/// or empty run, m < 1, or an output that would overwrite the input data file.
ExportedFiles exportRun(const session::Session& session, const data::Dataset& dataset,
                        const pipeline::RunResult& result, const pipeline::RunSettings& settings,
                        const ExportOptions& options);

/// The file names exportRun writes for this run (no I/O): lets a caller warn before replacing.
std::vector<std::string> exportFileNames(const pipeline::RunResult& result, int syntheticDatasets);

}  // namespace dpsynth::core::report
