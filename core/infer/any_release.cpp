#include "core/infer/any_release.h"

#include <nlohmann/json.hpp>
#include <stdexcept>

namespace dpsynth::core::infer {

std::string releaseKind(const std::string& text, const std::string& file) {
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) throw std::invalid_argument(file + ": not a JSON object");
  const auto kind = j.find("kind");
  if (kind == j.end() || !kind->is_string()) {
    throw std::invalid_argument(file + ": missing or ill-typed key \"kind\"");
  }
  return kind->get<std::string>();
}

AnyRelease readAnyRelease(const std::string& text, const std::string& file) {
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) throw std::invalid_argument(file + ": not a JSON object");
  if (!j.contains("version") || j.at("version") != 1) {
    throw std::invalid_argument(file + ": unsupported release version (expected \"version\": 1)");
  }
  const std::string kind = releaseKind(text, file);
  if (kind == "ph") return phReleaseFromJson(text, file);
  if (kind == "linreg") return linregReleaseFromJson(text, file);
  // naive-bayes, and the message for unknown kinds
  return releaseFromJson(text, file);
}

}  // namespace dpsynth::core::infer
