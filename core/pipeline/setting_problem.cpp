#include "core/pipeline/setting_problem.h"

namespace dpsynth::core::pipeline {

std::string settingKey(SettingField field) {
  switch (field) {
    case SettingField::epsilon:
      return "epsilon";
    case SettingField::c:
      return "c";
    case SettingField::g:
      return "g";
    case SettingField::k:
      return "k";
    case SettingField::radius:
      return "radius";
    case SettingField::downscale:
      return "downscale";
    case SettingField::bins:
      return "bins";
    case SettingField::lower:
      return "lower";
    case SettingField::upper:
      return "upper";
  }
  return {};
}

const std::vector<SettingField>& allSettingFields() {
  static const std::vector<SettingField> fields = {
      SettingField::epsilon, SettingField::c,      SettingField::g,
      SettingField::k,       SettingField::radius, SettingField::downscale,
      SettingField::bins,    SettingField::lower,  SettingField::upper};
  return fields;
}

std::string describe(const SettingProblem& problem,
                     const std::function<std::string(SettingField)>& nameOf) {
  std::string out = problem.text;
  for (SettingField field : allSettingFields()) {
    // Appended piece by piece: GCC 12 warns falsely on "{" + std::string (stringop-overflow).
    std::string placeholder = "{";
    placeholder += settingKey(field);
    placeholder += '}';
    const std::string name = nameOf(field);
    for (auto at = out.find(placeholder); at != std::string::npos;
         at = out.find(placeholder, at + name.size())) {
      out.replace(at, placeholder.size(), name);
    }
  }
  return out;
}

std::string describe(const SettingProblem& problem) {
  return describe(problem, [](SettingField f) { return settingKey(f); });
}

}  // namespace dpsynth::core::pipeline
