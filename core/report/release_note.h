#pragma once
/// The release note (release_note.html): what may accompany a release of the synthetic data.
/// Only public or privatised facts appear: the mechanism and its guarantee, ε and the budget of
/// m datasets, the tuning settings as the analyst chose them, and summaries computed on the
/// synthetic data alone. Nothing computed from the confidential data beyond the reported ε
/// (no confidential statistics, weights, Δᵢ, ECDF distances, data-chosen k or downscale).
#include <string>

#include "core/report/report_inputs.h"

namespace dpsynth::core::report {

/// What the note says when RunSettings::tunedOnConfidential is set (SPEC §0: a choice made on
/// the confidential data is stated as not covered by ε).
inline constexpr const char* kTunedOnConfidentialSentence =
    "The choice of mechanism and ε (and the tuning settings below) was tuned on the "
    "confidential data and is not covered by ε.";

/// What the note says when the analyst left mechanisms with a DP or aDP label out of release/
/// (the studio leaves out those whose verdict on the confidential data was unusable, unless
/// chosen): which ones to release was then a choice taken from the confidential data.
inline constexpr const char* kLeftOutSentence =
    "Which mechanisms to release was chosen after the run, possibly from their results on the "
    "confidential data, and that choice is not covered by ε. Left out:";

/// A self-contained HTML document (inline CSS; no scripts, no external files). releasableOnly:
/// describe only the mechanisms whose files enter release/ (pipeline::releasable); otherwise
/// every mechanism (a note kept in internal/, e.g. of a seeded run: NOT FOR RELEASE).
std::string releaseNoteHtml(const ReportInputs& inputs, bool releasableOnly = false);

}  // namespace dpsynth::core::report
