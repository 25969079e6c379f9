#pragma once
/// The bootstrap source of a study from the document's data (loaded in Synthesis): its CSV
/// (a bundled sample is taken from the resource folder or the installed samples), outcome,
/// covariates and family as chosen there.
#include <QString>
#include <optional>

#include "core/study/study_config.h"

namespace dpsynth::ui {

class StudioDocument;

/// nullopt with `why` set when nothing usable is loaded.
std::optional<core::study::Bootstrap> studyBootstrapOf(const StudioDocument& document,
                                                       QString& why);

}  // namespace dpsynth::ui
