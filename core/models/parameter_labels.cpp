#include "core/models/parameter_labels.h"

#include <charconv>
#include <optional>
#include <string_view>

namespace dpsynth::core::models {

namespace {

/// j of "<prefix>[j]", if name has that form.
std::optional<std::size_t> indexOf(std::string_view name, std::string_view prefix) {
  if (name.size() < prefix.size() + 3 || name.substr(0, prefix.size()) != prefix ||
      name[prefix.size()] != '[' || name.back() != ']') {
    return std::nullopt;
  }
  const std::string_view digits = name.substr(prefix.size() + 1, name.size() - prefix.size() - 2);
  std::size_t j = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), j);
  if (ec != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  return j;
}

std::string columnLabel(const std::string& design) {
  return design == "(Intercept)" ? std::string("intercept") : design;
}

}  // namespace

std::vector<std::string> parameterLabels(const std::vector<std::string>& names,
                                         const std::vector<std::string>& designNames) {
  std::vector<std::string> out;
  out.reserve(names.size());
  for (const auto& name : names) {
    if (auto j = indexOf(name, "beta"); j && *j < designNames.size()) {
      out.push_back(columnLabel(designNames[*j]));
    } else if (auto s = indexOf(name, "sigma"); s && *s < designNames.size()) {
      out.push_back("sigma[" + columnLabel(designNames[*s]) + "]");
    } else {
      out.push_back(name);
    }
  }
  return out;
}

}  // namespace dpsynth::core::models
