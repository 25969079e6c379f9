#pragma once
/// What the files of a mechanism run claim (SPEC §0), in one place for the sidecar, the report,
/// the release note and the export's choice of folder:
///   - a seeded run claims nothing: its stated guarantee is none, whatever the mechanism would
///     give with secret randomness (guaranteeIfReleased);
///   - only a stated DP or aDP label may enter release/;
///   - the published ε adds the ε_n of a noisy size to the mechanism's ε, once per release
///     (every synthetic dataset of a run has the same size).
#include <optional>
#include <string>

#include "core/pipeline/stage.h"

namespace dpsynth::core::pipeline {

/// The guarantee the run's files state: none for a seeded (not-for-release) run, otherwise the
/// guarantee that holds as executed (result.guarantee).
Guarantee statedGuarantee(const MechanismResult& result);

/// The label the mechanism would carry had the run used secret randomness: result.guarantee.
inline Guarantee guaranteeIfReleased(const MechanismResult& result) { return result.guarantee; }

/// True when the result's files may enter release/: a stated DP or aDP label, nothing refused.
bool releasable(const MechanismResult& result);

/// True when `path` (a file to write) lies directly in a folder named "release" (SPEC §0: only
/// releasable results may be written there, whatever the front end).
bool inReleaseFolder(const std::string& path);

/// ε_n of the run's noisy size; 0 when the size is public or declared.
double sizeEpsilon(const MechanismResult& result);

/// ε of one synthetic dataset from the mechanism alone: the asked ε for DP, ε_x rounded up to
/// two decimals for aDP (roundUpEpsilon); nullopt without a guarantee. Uses guaranteeIfReleased:
/// writers that state none for a seeded run decide themselves whether to show it.
std::optional<double> mechanismEpsilon(const MechanismResult& result);

/// The published ε of one released dataset: mechanismEpsilon + sizeEpsilon; nullopt without a
/// guarantee.
std::optional<double> publishedEpsilon(const MechanismResult& result);

/// The ε of releasing all `datasets` synthetic datasets of the run: m · mechanismEpsilon (basic
/// composition; once for ph, whose datasets all come from one noisy histogram) + ε_n once (the
/// datasets share one size). nullopt without a guarantee.
std::optional<double> totalEpsilon(const MechanismResult& result, int datasets);

}  // namespace dpsynth::core::pipeline
