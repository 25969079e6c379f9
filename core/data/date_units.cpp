#include "core/data/date_units.h"

#include <cmath>
#include <stdexcept>

namespace dpsynth::core::data {
namespace {

constexpr double kSecondsPerDay = 86400.0;

/// Days from 1960-01-01 to the first of `month` (1–12) of `year` in the proleptic Gregorian
/// calendar (H. Hinnant's days_from_civil, in doubles so that no year a file holds overflows).
double daysSince1960(double year, int month) {
  const double y = month <= 2 ? year - 1 : year;
  const double era = std::floor(y / 400);
  const double yearOfEra = y - era * 400;                    // [0, 399]
  const int dayOfYear = (153 * ((month + 9) % 12) + 2) / 5;  // from March 1st
  const double dayOfEra =
      yearOfEra * 365 + std::floor(yearOfEra / 4) - std::floor(yearOfEra / 100) + dayOfYear;
  constexpr double k1960 = 715815;  // days from 0000-03-01 to 1960-01-01
  return era * 146097 + dayOfEra - k1960;
}

/// The first day of period `value` of a calendar of `perYear` periods a year from 1960.
double periodStartDays(double value, int perYear) {
  const double period = std::floor(value);
  const double years = std::floor(period / perYear);
  const int index = static_cast<int>(period - years * perYear);
  return daysSince1960(1960 + years, 1 + index * (12 / perYear));
}

/// Stata's weekly calendar: 52 weeks from January 1st of each year, the 52nd of 8 or 9 days.
double stataWeekStartDays(double value) {
  const double week = std::floor(value);
  const double years = std::floor(week / 52);
  return daysSince1960(1960 + years, 1) + 7 * (week - years * 52);
}

/// Stata's formats: "%td", "%-tdDD/NN/CCYY", "%tc", "%tcHH:MM:SS", the old "%d".
TimeUnit stataUnit(std::string_view format) {
  if (format.starts_with('%')) format.remove_prefix(1);
  while (format.starts_with('-')) format.remove_prefix(1);
  if (format.starts_with("tc")) return TimeUnit::milliseconds;
  if (format.starts_with("td") || format.starts_with('d')) return TimeUnit::days;
  if (format.starts_with("tw")) return TimeUnit::stataWeeks;
  if (format.starts_with("tm")) return TimeUnit::stataMonths;
  if (format.starts_with("tq")) return TimeUnit::stataQuarters;
  if (format.starts_with("th")) return TimeUnit::stataHalfYears;
  if (format.starts_with("ty")) return TimeUnit::stataYears;
  return TimeUnit::none;  // %tC counts leap seconds; %tb a business calendar of its own
}

}  // namespace

TimeUnit timeUnitOf(StatFormat format, ValueKind kind, std::string_view displayFormat) {
  if (kind != ValueKind::date && kind != ValueKind::time && kind != ValueKind::datetime)
    return TimeUnit::none;
  switch (format) {
    case StatFormat::sav:
    case StatFormat::zsav:
    case StatFormat::por:
      return kind == ValueKind::time ? TimeUnit::seconds : TimeUnit::spssSeconds;
    case StatFormat::sas7bdat:
    case StatFormat::xpt:
      return kind == ValueKind::date ? TimeUnit::days : TimeUnit::seconds;
    case StatFormat::dta:
      return stataUnit(displayFormat);
  }
  return TimeUnit::none;
}

TimeUnit writtenTimeUnit(StatFormat format, ValueKind kind) {
  if (kind != ValueKind::date && kind != ValueKind::time && kind != ValueKind::datetime)
    return TimeUnit::none;
  if (format == StatFormat::dta)
    return kind == ValueKind::date ? TimeUnit::days : TimeUnit::milliseconds;
  if (format == StatFormat::xpt || format == StatFormat::sas7bdat)
    return kind == ValueKind::date ? TimeUnit::days : TimeUnit::seconds;
  return kind == ValueKind::time ? TimeUnit::seconds : TimeUnit::spssSeconds;
}

double secondsSince1960(double value, TimeUnit unit) {
  switch (unit) {
    case TimeUnit::spssSeconds:
      return value - kSpssSecondsAt1960;
    case TimeUnit::seconds:
      return value;
    case TimeUnit::days:
      return value * kSecondsPerDay;
    case TimeUnit::milliseconds:
      return value / 1000.0;
    case TimeUnit::stataWeeks:
      return stataWeekStartDays(value) * kSecondsPerDay;
    case TimeUnit::stataMonths:
      return periodStartDays(value, 12) * kSecondsPerDay;
    case TimeUnit::stataQuarters:
      return periodStartDays(value, 4) * kSecondsPerDay;
    case TimeUnit::stataHalfYears:
      return periodStartDays(value, 2) * kSecondsPerDay;
    case TimeUnit::stataYears:
      return daysSince1960(std::floor(value), 1) * kSecondsPerDay;
    case TimeUnit::none:
      break;
  }
  throw std::invalid_argument("secondsSince1960: the value is no date or time");
}

double fromSecondsSince1960(double seconds, TimeUnit unit) {
  switch (unit) {
    case TimeUnit::spssSeconds:
      return seconds + kSpssSecondsAt1960;
    case TimeUnit::seconds:
      return seconds;
    case TimeUnit::days:
      return seconds / kSecondsPerDay;
    case TimeUnit::milliseconds:
      return seconds * 1000.0;
    default:
      break;
  }
  throw std::invalid_argument("fromSecondsSince1960: no file is written in this unit");
}

double convertTime(double value, TimeUnit from, TimeUnit to) {
  if (from == to) return value;
  return fromSecondsSince1960(secondsSince1960(value, from), to);
}

}  // namespace dpsynth::core::data
