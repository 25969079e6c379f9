#pragma once
/// JSON codec of SessionResults, used by session.cpp for the optional "results" key.
#include <nlohmann/json.hpp>
#include <string>

#include "core/session/session_results.h"

namespace dpsynth::core::session::detail {

nlohmann::json resultsToJson(const SessionResults& results);
/// Throws SessionError naming `file` and the key at fault.
SessionResults resultsFromJson(const nlohmann::json& value, const std::string& file);

}  // namespace dpsynth::core::session::detail
