#pragma once
/// The display formats of the numeric columns of a written SPSS, Stata or SAS file, fitted to
/// the values: SPSS shows a value too wide for its F format as asterisks, and a date written
/// without a date format as a count of seconds or days.
#include <string>
#include <string_view>

#include "core/data/column_info.h"
#include "core/data/stat_format.h"

namespace dpsynth::core::data {

/// What a display format must make room for, gathered value by value (missing values are not
/// added): the widest integer part, the most decimals and significant digits any value needs
/// in its shortest exact decimal form ("0.1" needs 1 decimal, 1e20 none), and the range.
class ValueSpan {
 public:
  void add(double value);

  bool empty() const { return count_ == 0; }
  double min() const { return min_; }
  double max() const { return max_; }
  int integerWidth() const { return integerWidth_; }  ///< sign and integer digits
  int decimals() const { return decimals_; }
  int significantDigits() const { return significant_; }

 private:
  std::size_t count_ = 0;
  double min_ = 0;
  double max_ = 0;
  int integerWidth_ = 0;
  int decimals_ = 0;
  int significant_ = 0;
};

/// SPSS's limits: formats at most 40 wide, with at most 16 decimals.
inline constexpr int kSpssMaxWidth = 40;
inline constexpr int kSpssMaxDecimals = 16;

/// An SPSS format for a numeric column holding `values`: F{w}.{d} with d the decimals the
/// values need (at most 16; fewer where the width would pass 40) and w room for the sign, the
/// widest integer part, the point and the decimals (one more where rounding to d decimals can
/// carry); E{w}.{d} when the integer part alone is wider than 40 (|x| of 10^40 and more).
/// "" for no values (the writer's default, F8.2).
std::string spssNumberFormat(const ValueSpan& values);

/// The display format of a date, datetime or time column in a file of `format` (.sav, .dta or
/// .xpt), for values spanning `seconds` (secondsSince1960, date_units.h): SPSS DATE11,
/// DATETIME20, TIME8; Stata %td, %tc, and %tcHH:MM:SS for times within a day (%tc otherwise,
/// which shows a longer duration as a date); SAS DATE9, DATETIME20, TIME8. Seconds get up to
/// 3 decimals where a value has a fraction of a second; a time of 100 hours or more, or a
/// negative one, a wider field.
std::string dateTimeFormat(StatFormat format, ValueKind kind, const ValueSpan& seconds);

/// The width of a format such as "F12.2", "DATETIME23.3" or "TIME8" (the number after its
/// name); 0 when it has none ("%td").
int formatWidth(std::string_view format);

}  // namespace dpsynth::core::data
