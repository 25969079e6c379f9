#pragma once
/// What the numbers of a date or time column count in SPSS, Stata and SAS files, and their
/// conversion from one program's count to another's: SPSS counts seconds from 1582-10-14,
/// Stata days (%td) or milliseconds (%tc) from 1960-01-01, SAS days (dates) or seconds
/// (datetimes) from 1960-01-01. A date read from one format is thus written in another as the
/// same date, not as the same number.
#include <string_view>

#include "core/data/column_info.h"
#include "core/data/stat_format.h"

namespace dpsynth::core::data {

/// SPSS's count for 1960-01-01 00:00:00: 137775 days after 1582-10-14.
inline constexpr double kSpssSecondsAt1960 = 137775.0 * 86400.0;

/// What a column of `kind` with display format `displayFormat` counts in a file of `format`;
/// none for anything that is no date or time, and for Stata's business calendars (%tb) and
/// its clock with leap seconds (%tC).
TimeUnit timeUnitOf(StatFormat format, ValueKind kind, std::string_view displayFormat);

/// What a file of `format` (.sav, .dta or .xpt) holds a column of `kind` in: SPSS seconds
/// since 1582 for dates and datetimes, seconds for times; Stata days for dates, milliseconds
/// for datetimes and times; SAS days for dates, seconds for datetimes and times. none for a
/// kind that is no date or time.
TimeUnit writtenTimeUnit(StatFormat format, ValueKind kind);

/// `value` counted in `unit` as seconds since 1960-01-01 00:00:00 (a time: since midnight, a
/// time of day read as one of 1960-01-01). A Stata week, month, quarter, half year or year is
/// its first day. std::invalid_argument for TimeUnit::none.
double secondsSince1960(double value, TimeUnit unit);

/// The inverse of secondsSince1960 for the units files are written in (spssSeconds, seconds,
/// days, milliseconds); std::invalid_argument for the others.
double fromSecondsSince1960(double seconds, TimeUnit unit);

/// `value` counted in `from` as counted in `to`: the value itself when the units agree.
double convertTime(double value, TimeUnit from, TimeUnit to);

}  // namespace dpsynth::core::data
