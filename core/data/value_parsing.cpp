#include "core/data/value_parsing.h"

#include <charconv>
#include <cmath>

namespace dpsynth::core::data {
namespace {

bool isBlank(char c) { return c == ' ' || c == '\t'; }

bool equalsIgnoringCase(std::string_view text, std::string_view lowercase) {
  if (text.size() != lowercase.size()) return false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != lowercase[i]) return false;
  }
  return true;
}

}  // namespace

std::string_view trimBlanks(std::string_view text) {
  while (!text.empty() && isBlank(text.front())) text.remove_prefix(1);
  while (!text.empty() && isBlank(text.back())) text.remove_suffix(1);
  return text;
}

bool isMissingValue(std::string_view text) {
  text = trimBlanks(text);
  return text.empty() || text == "." || equalsIgnoringCase(text, "na") ||
         equalsIgnoringCase(text, "nan") || equalsIgnoringCase(text, "null");
}

namespace {

/// The cell as std::from_chars sees it: blanks trimmed and a leading '+' removed (from_chars
/// rejects it, but spreadsheets sometimes write it).
std::string_view numberText(std::string_view text) {
  text = trimBlanks(text);
  if (text.size() > 1 && text.front() == '+' && text[1] != '-' && text[1] != '+') {
    text.remove_prefix(1);
  }
  return text;
}

}  // namespace

std::optional<double> parseNumber(std::string_view text) {
  text = numberText(text);
  if (text.empty()) return std::nullopt;
  double value = 0.0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value, std::chars_format::general);
  if (ec != std::errc{} || ptr != end || !std::isfinite(value)) return std::nullopt;
  return value;
}

bool isOutOfRangeNumber(std::string_view text) {
  text = numberText(text);
  if (text.empty()) return false;
  double value = 0.0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value, std::chars_format::general);
  return ec == std::errc::result_out_of_range && ptr == end;
}

bool isInfiniteNumber(std::string_view text) {
  text = numberText(text);
  if (text.empty()) return false;
  double value = 0.0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value, std::chars_format::general);
  return ec == std::errc{} && ptr == end && std::isinf(value);
}

}  // namespace dpsynth::core::data
