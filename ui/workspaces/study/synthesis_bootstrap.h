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

/// The Synthesis workspace's settings a study of its data repeats: the checked mechanisms, the
/// target ε, c, g and d as one-value grids, the neighbour relation and the histogram's bounds
/// and bins (the replicates, sampler and seed of `config` are kept).
void adoptSynthesisSettings(const StudioDocument& document, core::study::StudyConfig& config);

}  // namespace dpsynth::ui
