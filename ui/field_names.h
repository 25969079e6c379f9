#pragma once
/// Core's messages name command-line flags ("pass --lower and --upper"); the studio names its
/// own fields instead ("'PH lower' and 'PH upper'"). One mapping, applied wherever a core
/// message reaches the user.
#include <QString>
#include <string>

#include "core/pipeline/mechanism.h"
#include "core/pipeline/setting_problem.h"

namespace dpsynth::ui {

/// The label of the widget that sets `field`, quoted: "'ε'", "'PH lower'".
QString fieldLabel(core::pipeline::SettingField field);
/// A core problem in the studio's words: every field named by its widget's label.
QString describeProblem(const core::pipeline::SettingProblem& problem);

/// `message` with every known flag replaced by the studio field that sets it (for messages
/// that core still writes with command-line flags, such as the perturbed histogram's).
QString withFieldNames(const QString& message);
QString withFieldNames(const std::string& message);

/// core::pipeline::mechanismDescription with its ASCII maths in the studio's symbols
/// ("alpha_i" → "αᵢ", "Delta" → "Δ", "eps" → "ε", "<=" → "≤"), as the rest of the studio
/// writes them: the tooltips mixed both spellings.
QString mechanismTooltip(core::pipeline::Mechanism mechanism);

}  // namespace dpsynth::ui
