#pragma once
/// The files a study folder gets besides its rows: summary.json, summary.md and lipschitz.svg
/// (violins of Δ per cell, with the ε/2 line for cells that have an ε), each written atomically.
#include <string>
#include <vector>

#include "core/study/study_config.h"
#include "core/study/study_row.h"

namespace dpsynth::core::study {

/// Violins of the "lipschitz" column per cell (cells without any Δ, e.g. ph, are left out).
std::string lipschitzViolins(const StudyConfig& config, const std::vector<StudyRow>& rows);
/// The same for rows as the study's CSV holds them (studyRowsFromCsv).
std::string lipschitzViolins(const StudyConfig& config,
                             const std::vector<std::vector<std::string>>& rows);

/// The file a bootstrap study's folder gets to mark itself internal (SPEC §0).
inline constexpr const char* kInternalMarkerFile = "INTERNAL.txt";

/// The files writeStudyOutputs writes: summary.json, summary.md, lipschitz.svg (and, for a
/// bootstrap source, INTERNAL.txt).
std::vector<std::string> studyOutputNames();

/// The files writeStudyOutputs writes for `config` (INTERNAL.txt only for a bootstrap source).
std::vector<std::string> studyOutputNames(const StudyConfig& config);

/// Writes summary.json, summary.md and lipschitz.svg into `folder` from its rows; for a
/// bootstrap source (confidential data) also INTERNAL.txt, and the first line of summary.md and
/// the chart's title say INTERNAL. Records them in the folder's ownership manifest
/// (report::recordOwnedFiles), so that a later run replaces them and nothing else of those names.
void writeStudyOutputs(const std::string& folder, const StudyConfig& config,
                       const std::vector<std::vector<std::string>>& rows);

}  // namespace dpsynth::core::study
