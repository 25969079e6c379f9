#pragma once
/// A problem with a mechanism's settings, naming the settings by field rather than by a front
/// end's spelling: the command line shows a field as its flag ("--lower"), the studio as the
/// label of the widget that sets it ("PH lower"), and both can point at the field itself.
#include <functional>
#include <string>
#include <vector>

namespace dpsynth::core::pipeline {

enum class SettingField { epsilon, c, g, k, radius, downscale, bins, lower, upper };

/// The field's key, also its placeholder in SettingProblem::text: "epsilon", "c", "g", "k",
/// "radius", "downscale", "bins", "lower", "upper".
std::string settingKey(SettingField field);
const std::vector<SettingField>& allSettingFields();

struct SettingProblem {
  std::vector<SettingField> fields;  ///< the settings at fault (may be empty)
  /// Plain words; "{key}" stands for a field's name as the front end spells it, e.g.
  /// "needs public bounds: set {lower} and {upper}".
  std::string text;
};

/// text with every "{key}" replaced by nameOf(field).
std::string describe(const SettingProblem& problem,
                     const std::function<std::string(SettingField)>& nameOf);
/// describe() with the plain keys ("set lower and upper").
std::string describe(const SettingProblem& problem);

}  // namespace dpsynth::core::pipeline
