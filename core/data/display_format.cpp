#include "core/data/display_format.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

namespace dpsynth::core::data {

void ValueSpan::add(double value) {
  // The shortest fixed-point text that reads back as the value: 1e308 is 309 digits, the
  // smallest subnormal "0." and 324 more.
  char buffer[400];
  const auto [end, error] =
      std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed);
  if (error != std::errc()) return;  // not finite: not a value any file holds
  const std::string_view text(buffer, static_cast<std::size_t>(end - buffer));
  const std::size_t point = text.find('.');
  const int integerWidth = static_cast<int>(point == std::string_view::npos ? text.size() : point);
  const int decimals =
      point == std::string_view::npos ? 0 : static_cast<int>(text.size() - point - 1);
  // Past 17 digits the fixed text spells the double's exact binary value (1e40 is
  // 10000000000000000303786028427003666890752): the significant digits come from the shortest
  // scientific text ("1e+40") then.
  std::string_view digits = text;
  char scientific[32];
  if (integerWidth > 17) {
    const auto shortest = std::to_chars(scientific, scientific + sizeof scientific, value,
                                        std::chars_format::scientific);
    digits = std::string_view(scientific, static_cast<std::size_t>(shortest.ptr - scientific));
    digits = digits.substr(0, digits.find('e'));
  }
  if (digits.starts_with('-')) digits.remove_prefix(1);
  int significant = 0, trailingZeros = 0;
  bool leading = true;
  for (const char c : digits) {
    if (c == '.' || (leading && c == '0')) continue;
    leading = false;
    ++significant;
    trailingZeros = c == '0' ? trailingZeros + 1 : 0;
  }
  min_ = count_ == 0 ? value : std::min(min_, value);
  max_ = count_ == 0 ? value : std::max(max_, value);
  ++count_;
  integerWidth_ = std::max(integerWidth_, integerWidth);
  decimals_ = std::max(decimals_, decimals);
  significant_ = std::max(significant_, std::max(1, significant - trailingZeros));
}

std::string spssNumberFormat(const ValueSpan& values) {
  if (values.empty()) return "";
  // Rounding to fewer decimals than a value has can carry into a new integer digit (9.96 → 10.0).
  const auto integerWidth = [&](int d) { return values.integerWidth() + (d < values.decimals()); };
  int d = std::min(kSpssMaxDecimals, values.decimals());
  while (d > 0 && integerWidth(d) + 1 + d > kSpssMaxWidth) --d;
  if (integerWidth(d) > kSpssMaxWidth) {
    // Sign, one digit, point, decimals and an exponent of up to three digits ("E+100").
    const int e = std::min(kSpssMaxDecimals, values.significantDigits() - 1);
    return "E" + std::to_string(std::min(kSpssMaxWidth, e + 8)) + "." + std::to_string(e);
  }
  return "F" + std::to_string(integerWidth(d) + (d > 0 ? d + 1 : 0)) + "." + std::to_string(d);
}

int formatWidth(std::string_view format) {
  if (format.starts_with('%')) return 0;  // Stata's formats give a width in other ways
  std::size_t begin = 0;
  while (begin < format.size() && !std::isdigit(static_cast<unsigned char>(format[begin]))) ++begin;
  int width = 0;
  std::from_chars(format.data() + begin, format.data() + format.size(), width);
  return width;
}

}  // namespace dpsynth::core::data
