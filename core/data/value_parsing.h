#pragma once
/// How dpsynth reads one CSV cell as a number or as "missing". Shared by the dataset builder and
/// by anything else that types CSV text, so that every part of the tool agrees on what a number
/// is: the C locale's decimal point, no thousands separators, independent of the user's locale.
#include <optional>
#include <string_view>

namespace dpsynth::core::data {

/// The cell without leading and trailing spaces and tabs.
std::string_view trimBlanks(std::string_view text);

/// True for the spellings of a missing value used by common tools: empty, "NA" (R), "NaN",
/// "." (Stata) and "null", ignoring case and surrounding blanks.
bool isMissingValue(std::string_view text);

/// A finite number written in the C locale ("12", "-0.5", "1e-3", "+4"), surrounding blanks
/// allowed; nullopt for anything else, including infinities, NaN, hex and partial matches
/// such as "12abc" or "1,5".
std::optional<double> parseNumber(std::string_view text);

/// True when `text` is written as a decimal number but its value cannot be held in a double
/// ("1e400", "-1e999", "1e-400"): parseNumber refuses it, yet it is no text level either.
bool isOutOfRangeNumber(std::string_view text);

/// True for "inf", "-Infinity" and the like: a number, but no finite one. parseNumber refuses
/// it; a numeric column holding one is refused rather than typed as text.
bool isInfiniteNumber(std::string_view text);

}  // namespace dpsynth::core::data
