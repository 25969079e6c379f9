#include "core/io/json_reader.h"

#include <set>

namespace dpsynth::core::io {

using nlohmann::json;

namespace {

[[noreturn]] void raiseWith(Raise raise, const std::string& message) {
  if (raise) raise(message);
  throw JsonError(message);  // a Raise that returned, or none given
}

}  // namespace

json parseJson(const std::string& text, const std::string& label, Raise raise) {
  // One set of keys per open object; a key seen twice in the same object is refused. The
  // callback sees every key as it is parsed, before the parser keeps the later value.
  std::vector<std::set<std::string>> open;
  std::string duplicate;
  const json::parser_callback_t noteKeys = [&](int, json::parse_event_t event, json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start:
        open.emplace_back();
        break;
      case json::parse_event_t::object_end:
        if (!open.empty()) open.pop_back();
        break;
      case json::parse_event_t::key:
        if (!open.empty() && !open.back().insert(parsed.get<std::string>()).second &&
            duplicate.empty()) {
          duplicate = parsed.get<std::string>();
        }
        break;
      default:
        break;
    }
    return true;
  };
  json doc;
  try {
    doc = json::parse(text, noteKeys);
  } catch (const json::exception& e) {
    // parse_error, and out_of_range for a number beyond double (1e999): both the file's fault.
    raiseWith(raise, label + ": not valid JSON (" + e.what() + ")");
  }
  if (!duplicate.empty()) {
    raiseWith(raise,
              label + ": key \"" + duplicate + "\" appears twice in one object; keep one of them");
  }
  return doc;
}

std::optional<json> tryParseJson(const std::string& text) {
  try {
    return parseJson(text, "");
  } catch (const JsonError&) {
    return std::nullopt;
  }
}

JsonReader::JsonReader(const json& object, std::string label, std::string where, Raise raise)
    : object_(object), label_(std::move(label)), where_(std::move(where)), raise_(raise) {
  if (!object_.is_object()) fail("", "must be a JSON object");
}

std::string JsonReader::where(const std::string& key) const {
  if (key.empty()) return where_;
  return where_.empty() ? key : where_ + "." + key;
}

void JsonReader::fail(const std::string& key, const std::string& problem) const {
  const std::string place = where(key);
  raiseWith(raise_, label_ + ": " + (place.empty() ? "" : place + " ") + problem);
}

void JsonReader::failRange(const std::string& key, bool whole, const std::string& low,
                           const std::string& high, bool noUpperBound) const {
  if (noUpperBound) fail(key, "must be a whole number >= " + low);
  fail(key, std::string(whole ? "must be" : "must be a whole number") + " between " + low +
                " and " + high);
}

const json* JsonReader::find(const std::string& key) const {
  const auto it = object_.find(key);
  return it == object_.end() ? nullptr : &*it;
}

const json& JsonReader::require(const std::string& key) const {
  const json* v = find(key);
  if (!v) fail(key, "is missing");
  return *v;
}

JsonReader JsonReader::object(const std::string& key) const {
  return JsonReader(require(key), label_, where(key), raise_);
}

JsonReader JsonReader::objectAt(const json& value, const std::string& key) const {
  return JsonReader(value, label_, where(key), raise_);
}

const json& JsonReader::array(const std::string& key) const {
  const json& v = require(key);
  if (!v.is_array()) fail(key, "must be a list");
  return v;
}

double JsonReader::number(const json& value, const std::string& key) const {
  if (!value.is_number()) fail(key, "must be a number");
  return value.get<double>();
}

std::optional<double> JsonReader::optionalNumber(const std::string& key) const {
  const json* v = find(key);
  if (!v || v->is_null()) return std::nullopt;
  if (!v->is_number()) fail(key, "must be a number or null");
  return v->get<double>();
}

std::optional<double> JsonReader::numberOrAuto(const std::string& key) const {
  const json& v = require(key);
  if (v.is_string() && v.get<std::string>() == "auto") return std::nullopt;
  if (!v.is_number()) fail(key, "must be a number or \"auto\"");
  return v.get<double>();
}

std::vector<double> JsonReader::numbers(const std::string& key) const {
  const json& v = require(key);
  if (v.is_number()) return {v.get<double>()};
  if (!v.is_array() || v.empty()) fail(key, "must be a number or a non-empty list of numbers");
  return numberList(key);
}

std::vector<double> JsonReader::numberList(const std::string& key) const {
  std::vector<double> out;
  for (const json& item : array(key)) {
    if (!item.is_number()) fail(key, "must be a list of numbers");
    out.push_back(item.get<double>());
  }
  return out;
}

std::vector<std::optional<double>> JsonReader::numbersOrAuto(const std::string& key) const {
  const json& v = require(key);
  const json list = v.is_array() ? v : json::array({v});
  if (list.empty()) fail(key, "must not be an empty list");
  std::vector<std::optional<double>> out;
  for (const json& item : list) {
    if (item.is_string() && item.get<std::string>() == "auto") {
      out.push_back(std::nullopt);
    } else if (item.is_number()) {
      out.push_back(item.get<double>());
    } else {
      fail(key, "must hold numbers or \"auto\"");
    }
  }
  return out;
}

bool JsonReader::boolean(const std::string& key) const {
  const json& v = require(key);
  if (!v.is_boolean()) fail(key, "must be true or false");
  return v.get<bool>();
}

bool JsonReader::boolean(const std::string& key, bool fallback) const {
  return has(key) ? boolean(key) : fallback;
}

std::string JsonReader::string(const std::string& key) const {
  const json& v = require(key);
  if (!v.is_string()) fail(key, "must be a string");
  return v.get<std::string>();
}

std::vector<std::string> JsonReader::strings(const std::string& key) const {
  const json& v = require(key);
  if (!v.is_array()) fail(key, "must be a list of strings");
  std::vector<std::string> out;
  for (const json& item : v) {
    if (!item.is_string()) fail(key, "must be a list of strings");
    out.push_back(item.get<std::string>());
  }
  return out;
}

void JsonReader::onlyKeys(std::initializer_list<const char*> known) const {
  for (auto it = object_.begin(); it != object_.end(); ++it) {
    bool ok = false;
    for (const char* k : known) ok = ok || it.key() == k;
    if (!ok) fail(it.key(), "is not a known key (a misspelling?)");
  }
}

}  // namespace dpsynth::core::io
