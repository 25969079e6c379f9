#pragma once
/// Reads a JSON object of a config file key by key, so that every message names the file and the
/// key ("study config 'f.json': sampler.chains must be between 1 and 64") and every failure is a
/// ConfigError (bad input). Shared by the study kinds' config readers.
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/study/study_config.h"

namespace dpsynth::core::study {

class ConfigReader {
 public:
  ConfigReader(const nlohmann::json& object, std::string file, std::string where)
      : object_(object), file_(std::move(file)), where_(std::move(where)) {
    if (!object_.is_object()) fail("", "must be a JSON object");
  }
  [[noreturn]] void fail(const std::string& key, const std::string& problem) const {
    std::string place = where_;
    if (!key.empty()) place += (place.empty() ? "" : ".") + key;
    throw ConfigError("study config '" + file_ + "': " + (place.empty() ? "" : place + " ") +
                      problem);
  }
  const nlohmann::json* find(const std::string& key) const {
    auto it = object_.find(key);
    return it == object_.end() ? nullptr : &*it;
  }
  const nlohmann::json& require(const std::string& key) const {
    const nlohmann::json* v = find(key);
    if (!v) fail(key, "is missing");
    return *v;
  }
  double number(const nlohmann::json& v, const std::string& key) const {
    if (!v.is_number()) fail(key, "must be a number");
    return v.get<double>();
  }
  long long integer(const std::string& key, long long low, long long high) const {
    const nlohmann::json& v = require(key);
    if (!v.is_number_integer()) fail(key, "must be a whole number");
    const long long x = v.get<long long>();
    if (x < low || x > high)
      fail(key, "must be between " + std::to_string(low) + " and " + std::to_string(high));
    return x;
  }
  std::string string(const std::string& key) const {
    const nlohmann::json& v = require(key);
    if (!v.is_string()) fail(key, "must be a string");
    return v.get<std::string>();
  }
  std::vector<std::string> strings(const std::string& key) const {
    const nlohmann::json& v = require(key);
    if (!v.is_array()) fail(key, "must be a list of strings");
    std::vector<std::string> out;
    for (const nlohmann::json& item : v) {
      if (!item.is_string()) fail(key, "must be a list of strings");
      out.push_back(item.get<std::string>());
    }
    return out;
  }
  /// A number or a list of numbers (a one-point grid may be written as a number).
  std::vector<double> numbers(const std::string& key) const {
    const nlohmann::json& v = require(key);
    if (v.is_number()) return {v.get<double>()};
    if (!v.is_array() || v.empty()) fail(key, "must be a number or a non-empty list of numbers");
    std::vector<double> out;
    for (const nlohmann::json& item : v) out.push_back(number(item, key));
    return out;
  }
  std::vector<std::optional<double>> numbersOrAuto(const std::string& key) const {
    const nlohmann::json& v = require(key);
    const nlohmann::json list = v.is_array() ? v : nlohmann::json::array({v});
    if (list.empty()) fail(key, "must not be an empty list");
    std::vector<std::optional<double>> out;
    for (const nlohmann::json& item : list) {
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
  void onlyKeys(std::initializer_list<const char*> known) const {
    for (auto it = object_.begin(); it != object_.end(); ++it) {
      bool ok = false;
      for (const char* k : known) ok = ok || it.key() == k;
      if (!ok) fail(it.key(), "is not a known key (a misspelling?)");
    }
  }

 private:
  const nlohmann::json& object_;
  std::string file_;
  std::string where_;
};

}  // namespace dpsynth::core::study
