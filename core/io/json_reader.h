#pragma once
/// The one reader for the JSON files dpsynth takes from users (sessions, study configs, release
/// files): parsing that refuses duplicate keys, and key access whose every failure is bad input
/// with one line naming the file and the key ("session file 'a.dpsynth': run.chains must be a
/// whole number"). Integers are read through one checked conversion: a JSON float, a negative
/// number for an unsigned field or a value beyond the type's range is refused, never converted
/// (a float beyond 2^64 converted to uint64_t is undefined behaviour).
#include <concepts>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"

namespace dpsynth::core::io {

/// Bad input in a JSON file; the message names the file and the key.
class JsonError : public Error {
 public:
  explicit JsonError(const std::string& message) : Error(Kind::badInput, message) {}
};

/// How a file kind turns a message into its own error type (SessionError, ConfigError, ...).
/// Must throw; when null, JsonError is thrown.
using Raise = void (*)(const std::string& message);

/// Parses `text` as JSON. Refuses text that is not JSON (including numbers beyond double, such
/// as 1e999) and any object holding the same key twice (at any depth): with duplicates, which
/// value is read depends on the parser, and the file does not say one thing. `label` names the
/// file in messages ("session file 'a.dpsynth'").
nlohmann::json parseJson(const std::string& text, const std::string& label, Raise raise = nullptr);

/// parseJson for a probe ("is this a file dpsynth wrote?"): nullopt instead of an error for text
/// that is not JSON or holds a key twice (a file that says two things vouches for nothing).
std::optional<nlohmann::json> tryParseJson(const std::string& text);

class JsonReader {
 public:
  /// Reads the keys of `object` (refused unless it is a JSON object). `where` is the key path
  /// of the object inside the file ("" at the top, "run", "mechanisms[2]").
  JsonReader(const nlohmann::json& object, std::string label, std::string where = "",
             Raise raise = nullptr);

  [[noreturn]] void fail(const std::string& key, const std::string& problem) const;
  /// "run.chains" for key "chains" of the object at "run".
  std::string where(const std::string& key) const;
  const std::string& label() const { return label_; }

  bool has(const std::string& key) const { return object_.contains(key); }
  const nlohmann::json* find(const std::string& key) const;
  const nlohmann::json& require(const std::string& key) const;
  /// The object under `key`, as a reader.
  JsonReader object(const std::string& key) const;
  /// A reader for `value`, an object found under `key` (an array element, say).
  JsonReader objectAt(const nlohmann::json& value, const std::string& key) const;
  const nlohmann::json& array(const std::string& key) const;

  double number(const std::string& key) const { return number(require(key), key); }
  double number(const nlohmann::json& value, const std::string& key) const;
  /// Missing or null: no value.
  std::optional<double> optionalNumber(const std::string& key) const;
  /// A number, or the string "auto" (no value).
  std::optional<double> numberOrAuto(const std::string& key) const;
  /// A number or a non-empty list of numbers (a one-point grid may be written as a number).
  std::vector<double> numbers(const std::string& key) const;
  /// A list of numbers, possibly empty.
  std::vector<double> numberList(const std::string& key) const;
  /// Numbers or "auto", as a list or one value.
  std::vector<std::optional<double>> numbersOrAuto(const std::string& key) const;

  template <std::integral T = long long>
  T integer(const std::string& key, T low = std::numeric_limits<T>::min(),
            T high = std::numeric_limits<T>::max()) const {
    return integerValue<T>(require(key), key, low, high);
  }
  /// The checked conversion every integer read goes through.
  template <std::integral T = long long>
  T integerValue(const nlohmann::json& value, const std::string& key,
                 T low = std::numeric_limits<T>::min(),
                 T high = std::numeric_limits<T>::max()) const {
    const bool whole = value.is_number_integer();
    if (whole && value.is_number_unsigned()) {
      const auto u = value.get<std::uint64_t>();
      if (!std::cmp_less(u, low) && !std::cmp_greater(u, high)) return static_cast<T>(u);
    } else if (whole) {
      const auto s = value.get<std::int64_t>();
      if (!std::cmp_less(s, low) && !std::cmp_greater(s, high)) return static_cast<T>(s);
    }
    failRange(key, whole, std::to_string(low), std::to_string(high),
              high == std::numeric_limits<T>::max());
  }
  /// Missing or null: no value.
  template <std::integral T = long long>
  std::optional<T> optionalInteger(const std::string& key, T low = std::numeric_limits<T>::min(),
                                   T high = std::numeric_limits<T>::max()) const {
    const nlohmann::json* v = find(key);
    if (!v || v->is_null()) return std::nullopt;
    return integerValue<T>(*v, key, low, high);
  }
  /// A list of integers, each checked.
  template <std::integral T = long long>
  std::vector<T> integers(const std::string& key, T low = std::numeric_limits<T>::min(),
                          T high = std::numeric_limits<T>::max()) const {
    std::vector<T> out;
    for (const nlohmann::json& item : array(key))
      out.push_back(integerValue<T>(item, key, low, high));
    return out;
  }

  bool boolean(const std::string& key) const;
  /// Missing: `fallback`.
  bool boolean(const std::string& key, bool fallback) const;
  std::string string(const std::string& key) const;
  std::vector<std::string> strings(const std::string& key) const;
  /// Refuses keys outside `known` (a misspelt key is a setting silently ignored otherwise).
  void onlyKeys(std::initializer_list<const char*> known) const;

 private:
  /// "must be a whole number >= 0", "must be between 1 and 64", "must be a whole number
  /// between 1 and 64" (for a float or a non-number).
  [[noreturn]] void failRange(const std::string& key, bool whole, const std::string& low,
                              const std::string& high, bool noUpperBound) const;

  const nlohmann::json& object_;
  std::string label_;
  std::string where_;
  Raise raise_;
};

}  // namespace dpsynth::core::io
