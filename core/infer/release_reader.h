#pragma once
/// What every release file reader shares: the strict parse (no duplicate keys), the project's
/// key reader with messages "FILE: key problem", the version and kind check, and the largest
/// size a release may state (the DA sampler keeps every record in memory, so an edited "n" must
/// be refused before anything is allocated). Errors are std::invalid_argument (bad input).
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "core/io/json_reader.h"

namespace dpsynth::core::infer {

/// The most records a release file may state (about 1 GB of latent records for the sampler).
inline constexpr int kMaxReleaseRecords = 100'000'000;
/// The most histogram bins (as sessions and study configs allow).
inline constexpr int kMaxReleaseBins = 1'000'000;

[[noreturn]] inline void raiseReleaseError(const std::string& message) {
  throw std::invalid_argument(message);
}

/// Parses a release file's text: a JSON object without duplicate keys.
inline nlohmann::json parseReleaseJson(const std::string& text, const std::string& file) {
  nlohmann::json j = io::parseJson(text, file, raiseReleaseError);
  if (!j.is_object()) raiseReleaseError(file + ": not a JSON object");
  return j;
}

inline io::JsonReader releaseReader(const nlohmann::json& object, const std::string& file) {
  return io::JsonReader(object, file, "", raiseReleaseError);
}

inline void checkReleaseVersion(const io::JsonReader& r) {
  const nlohmann::json* version = r.find("version");
  if (!version || !version->is_number_integer() || *version != 1) {
    r.fail("", "unsupported release version (expected \"version\": 1)");
  }
}

/// Version 1 and the expected kind.
inline void checkReleaseHeader(const io::JsonReader& r, const std::string& kind) {
  checkReleaseVersion(r);
  const std::string found = r.string("kind");
  if (found != kind) r.fail("", "not a " + kind + " release (kind '" + found + "')");
}

}  // namespace dpsynth::core::infer
