#include "core/data/display_format.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

namespace dpsynth::core::data {
namespace {

std::string widthAndDecimals(const char* name, int width, int decimals) {
  std::string out = name + std::to_string(width);
  if (decimals > 0) out += "." + std::to_string(decimals);
  return out;
}

/// Digits of the whole hours of `seconds` (at least 2: "hh:mm:ss").
int hourDigits(double seconds) {
  const double hours = std::floor(std::fabs(seconds) / 3600);
  int digits = 2;
  for (double limit = 100; hours >= limit && digits < 20; limit *= 10) ++digits;
  return digits;
}

}  // namespace

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

std::string dateTimeFormat(StatFormat format, ValueKind kind, const ValueSpan& seconds) {
  const int d = std::min(3, seconds.decimals());
  const bool negative = !seconds.empty() && seconds.min() < 0;
  // "hh:mm:ss" with wider hours where needed, a sign, and the fraction of a second.
  const int timeWidth = hourDigits(std::max(std::fabs(seconds.min()), std::fabs(seconds.max()))) +
                        6 + negative + (d > 0 ? d + 1 : 0);
  switch (format) {
    case StatFormat::dta:
      if (kind == ValueKind::date) return "%td";
      if (kind == ValueKind::time && (seconds.empty() || (!negative && seconds.max() < 86400)))
        return d > 0 ? "%tcHH:MM:SS.sss" : "%tcHH:MM:SS";
      return d > 0 ? "%tcDDmonCCYY_HH:MM:SS.sss" : "%tc";
    case StatFormat::xpt:
    case StatFormat::sas7bdat:
      // SAS writes "01MAY2024:13:45:00" (18 characters) right-aligned in DATETIME20.
      if (kind == ValueKind::date) return "DATE9";
      if (kind == ValueKind::time) return widthAndDecimals("TIME", std::min(20, timeWidth), d);
      return widthAndDecimals("DATETIME", std::max(20, 19 + d), d);
    default:
      // SPSS writes "01-MAY-2024 13:45:00", 20 characters.
      if (kind == ValueKind::date) return "DATE11";
      if (kind == ValueKind::time) return widthAndDecimals("TIME", timeWidth, d);
      return widthAndDecimals("DATETIME", 20 + (d > 0 ? d + 1 : 0), d);
  }
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
