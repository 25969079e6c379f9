#pragma once
/// What a statistical file says about a column beyond its cells: SPSS, Stata and SAS keep a
/// variable label, value labels and a display format; a CSV keeps none of it. Kept beside the
/// cells (CsvTable::columns) so that the dataset builder can use the labels as levels and a
/// synthetic file in the same format can carry them again.
#include <string>
#include <string_view>
#include <vector>

namespace dpsynth::core::data {

/// What the numbers of a column mean, from its display format: a date, a time of day (or a
/// duration), a date with a time, or anything else.
enum class ValueKind { number, text, date, time, datetime };

/// What the numbers of a date or time column count, which differs from program to program: a
/// date read from one format is written in another as the same date (date_units.h).
enum class TimeUnit {
  none,            ///< not a date or time, or one dpsynth cannot convert (Stata's %tb and %tC)
  spssSeconds,     ///< SPSS dates and datetimes: seconds since 1582-10-14 00:00:00
  seconds,         ///< SAS datetimes: seconds since 1960-01-01 00:00:00; SPSS and SAS times
  days,            ///< Stata's %td and SAS dates: days since 1960-01-01
  milliseconds,    ///< Stata's %tc: milliseconds since 1960-01-01 00:00:00
  stataWeeks,      ///< Stata's %tw: weeks since 1960w1 (52 a year, the last one longer)
  stataMonths,     ///< Stata's %tm: months since 1960m1
  stataQuarters,   ///< Stata's %tq: quarters since 1960q1
  stataHalfYears,  ///< Stata's %th: half years since 1960h1
  stataYears,      ///< Stata's %ty: the year itself
};

/// One value label: the code as the file holds it (a number as data::formatNumber writes it, or
/// a string) and its text.
struct ValueLabel {
  std::string code;
  std::string label;
};

struct ColumnInfo {
  std::string description;  ///< the variable label ("" when the file has none)
  ValueKind kind = ValueKind::number;
  std::string format;  ///< the file's display format ("F8.2", "%td", "DATE9"), for messages
  /// For a date or time: what its numbers count in the file it came from (none for a CSV).
  TimeUnit unit = TimeUnit::none;
  /// The value labels of the column, in the order the file lists them (its label order).
  std::vector<ValueLabel> valueLabels;
  /// True when every value present in the file has a label: the cells then hold the label text
  /// (missing stays empty) and the labels, in label order, are the column's levels. Otherwise
  /// the cells hold the codes and the labels are only carried along to be written again.
  bool labelsAreLevels = false;

  /// The code whose label is `label` (nullptr when none).
  const std::string* codeOf(std::string_view label) const {
    for (const auto& v : valueLabels)
      if (v.label == label) return &v.code;
    return nullptr;
  }
  bool isDateOrTime() const {
    return kind == ValueKind::date || kind == ValueKind::time || kind == ValueKind::datetime;
  }
};

/// "dates", "times" or "dates with times", for messages.
inline const char* valueKindWords(ValueKind kind) {
  switch (kind) {
    case ValueKind::date:
      return "dates";
    case ValueKind::time:
      return "times";
    case ValueKind::datetime:
      return "dates with times";
    case ValueKind::text:
      return "text";
    case ValueKind::number:
      break;
  }
  return "numbers";
}

}  // namespace dpsynth::core::data
