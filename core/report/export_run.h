#pragma once
/// "Export all": the one function behind both the studio's export and `dpsynth run`, so that
/// their folders are identical by construction.
#include <cstdint>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "core/data/dataset.h"
#include "core/pipeline/pipeline.h"
#include "core/random/seed.h"
#include "core/session/session.h"

namespace dpsynth::core::report {

struct ExportOptions {
  std::string outDir;
  int syntheticDatasets = 1;  ///< m synthetic datasets per mechanism
  /// Files the run read (data, session, reference): an export never moves, replaces or deletes
  /// them, wherever they are.
  std::vector<std::string> inputs;
  /// When true, refuses (std::invalid_argument, nothing written) to replace a release/ or
  /// internal/ folder that holds anything dpsynth did not write (ownership_manifest.h):
  /// `dpsynth run` without --replace. It checks before the run as well; this catches what was
  /// added while it ran.
  bool refuseForeignFiles = false;
  /// Ctrl-C / Cancel: checked between every step and inside the long ones (drawing, formatting
  /// and writing each synthetic dataset, the utility fits) until the folders are moved into
  /// place. A stopped export writes nothing and returns cancelled.
  std::stop_token stop;
  /// The mechanisms the analyst chose to release (the studio's per-mechanism choice): only
  /// these go to release/, and only when releasable (pipeline::releasable); the others'
  /// synthetic files go to internal/, and a refused mechanism blocks only itself (its
  /// synthetic data are not written; refusals says why). nullopt (`dpsynth run`): every
  /// releasable mechanism goes to release/; there too a refusal blocks only its own mechanism,
  /// since whether one mechanism's files appear must not rest on another's check of the
  /// confidential data (a regression's screen failing withheld a DP histogram).
  std::optional<std::vector<pipeline::Mechanism>> release;
};

struct ExportedFiles {
  std::vector<std::string> files;  ///< final paths, in the order of exportFileNames()
  /// One message per refused mechanism (SPEC §0: a DP stage failed its diagnostics): its
  /// synthetic files were not written. When no mechanism was left to release, only internal/
  /// was written (and an earlier release/ removed: removedFolders).
  std::vector<std::string> refusals;
  /// Folders of an earlier export that this one removed because it has no place for them: the
  /// release/ beside internal/ when this run has nothing releasable. Final paths.
  std::vector<std::string> removedFolders;
  /// options.stop was requested before the folders were moved into place: nothing was written
  /// (the staging folder is gone) and files is empty.
  bool cancelled = false;
};

inline constexpr const char* kReleaseFolder = "release";
inline constexpr const char* kInternalFolder = "internal";

/// Writes two folders inside outDir (created if missing), each replaced as a whole:
///   release/  (publishable) for each mechanism (label L from mechanismLabels) whose files state
///             a DP or aDP label (pipeline::releasable: not a seeded run, not unweighted):
///             synthetic_L.csv (m = 1) or synthetic_L_1.csv … synthetic_L_m.csv and the sidecar
///             synthetic_L.csv.json, for a ph mechanism its release file ph-release_L.json
///             (the noisy counts, for `dpsynth infer`); then release_note.html describing them;
///   internal/ (confidential) the same files of every other mechanism, report_L.json per
///             mechanism, results.csv, internal_report.html and session.dpsynth (data path made
///             absolute); release_note.html (NOT FOR RELEASE) when no mechanism is releasable.
/// release/ is written only when some mechanism is releasable (SPEC §0: seeded runs, the
/// unweighted fit and any run without a DP or aDP label never write into it); when none is, a
/// release/ already in outDir is removed in the same commit that replaces internal/ (the two
/// folders are one run's set; removedFolders names it), under the same rules as a replaced
/// folder (refuseForeignFiles).
/// Each folder also gets its ownership manifest (.dpsynth-manifest.json: names and SHA-256 of
/// its files, ownership_manifest.h), which is not among the paths returned or listed here.
/// Synthetic data come from summary::summarizeRun's synthesizers (the run's seed,
/// summary::synthesisSeed), drawn and written one dataset at a time (as pipeline::synthesize
/// would give them).
/// Nothing is written when anything fails: both folders are built in a hidden folder inside
/// outDir and moved into place together. When a mechanism's release is refused, only internal/
/// is written (refusals says why). Throws std::invalid_argument for a cancelled or empty run,
/// m < 1, m beyond pipeline::kMaxSyntheticRecords, when an input file lies inside a folder that
/// would be replaced, or (with refuseForeignFiles) when such a folder holds files dpsynth did
/// not write.
ExportedFiles exportRun(const session::Session& session, const data::Dataset& dataset,
                        const pipeline::RunResult& result, const pipeline::RunSettings& settings,
                        const ExportOptions& options);

/// The paths (relative to outDir, e.g. "release/synthetic_lw.csv") exportRun writes for this
/// run when nothing is refused (no I/O): lets a caller warn before replacing.
std::vector<std::string> exportFileNames(
    const pipeline::RunResult& result, int syntheticDatasets,
    const std::optional<std::vector<pipeline::Mechanism>>& release = std::nullopt);

}  // namespace dpsynth::core::report
