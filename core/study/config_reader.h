#pragma once
/// The study configs' JSON key reader: the project's one reader (core/io/json_reader.h) with
/// messages that begin "study config 'f.json':" and fail with a ConfigError (bad input).
/// Shared by the study kinds' config readers.
#include <nlohmann/json.hpp>
#include <string>

#include "core/io/json_reader.h"
#include "core/study/study_config.h"

namespace dpsynth::core::study {

[[noreturn]] inline void raiseConfigError(const std::string& message) {
  throw ConfigError(message);
}

/// Parses a config's text, refusing invalid JSON and duplicate keys.
inline nlohmann::json parseConfigJson(const std::string& text, const std::string& file) {
  return io::parseJson(text, "study config '" + file + "'", raiseConfigError);
}

class ConfigReader : public io::JsonReader {
 public:
  ConfigReader(const nlohmann::json& object, const std::string& file, std::string where)
      : io::JsonReader(object, "study config '" + file + "'", std::move(where), raiseConfigError) {}
};

}  // namespace dpsynth::core::study
