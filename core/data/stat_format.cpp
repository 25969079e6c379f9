#include "core/data/stat_format.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <filesystem>

namespace dpsynth::core::data {
namespace {

std::string upperCase(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

bool startsWithAny(std::string_view text, std::initializer_list<std::string_view> prefixes) {
  return std::any_of(prefixes.begin(), prefixes.end(),
                     [&](std::string_view p) { return text.starts_with(p); });
}

/// Whether the details of a %tc format ("HH:MM:SS" in "%tcHH:MM:SS") show the clock only: no
/// century, year, day, week, month (Mon, month, NN) or day of the year, escapes (!x) aside.
bool showsClockOnly(std::string_view details) {
  if (details.empty()) return false;  // plain %tc shows the date too
  for (std::size_t i = 0; i < details.size(); ++i) {
    const char c = details[i];
    if (c == '!') {
      ++i;
    } else if (std::string_view("CcYyDdWwNnJj").find(c) != std::string_view::npos ||
               ((c == 'M' || c == 'm') && details.substr(i + 1).starts_with("on"))) {
      return false;
    }
  }
  return true;
}

/// Stata's formats start with '%' ("%td", "%-tcCCYY", "%9.0g").
ValueKind stataKind(std::string_view format) {
  format.remove_prefix(1);
  while (!format.empty() && format.front() == '-') format.remove_prefix(1);
  if (startsWithAny(format, {"tc", "tC"}))
    return showsClockOnly(format.substr(2)) ? ValueKind::time : ValueKind::datetime;
  // %td (and the old %d): days; %tw %tm %tq %th %ty %tb: weeks, months, ... also dates.
  if (startsWithAny(format, {"td", "d", "tw", "tm", "tq", "th", "ty", "tb"}))
    return ValueKind::date;
  return ValueKind::number;
}

}  // namespace

std::optional<StatFormat> statFormatOf(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (ext == ".sav") return StatFormat::sav;
  if (ext == ".zsav") return StatFormat::zsav;
  if (ext == ".por") return StatFormat::por;
  if (ext == ".dta") return StatFormat::dta;
  if (ext == ".sas7bdat") return StatFormat::sas7bdat;
  if (ext == ".xpt") return StatFormat::xpt;
  return std::nullopt;
}

std::string statFormatName(StatFormat format) {
  switch (format) {
    case StatFormat::sav:
      return "SPSS .sav";
    case StatFormat::zsav:
      return "SPSS .zsav";
    case StatFormat::por:
      return "SPSS .por";
    case StatFormat::dta:
      return "Stata .dta";
    case StatFormat::sas7bdat:
      return "SAS .sas7bdat";
    case StatFormat::xpt:
      return "SAS .xpt";
  }
  return "unknown";
}

bool isWritableStatFormat(StatFormat format) {
  return format == StatFormat::sav || format == StatFormat::dta || format == StatFormat::xpt;
}

ValueKind kindOfDisplayFormat(std::string_view format) {
  if (format.empty()) return ValueKind::number;
  if (format.front() == '%') return stataKind(format);
  // SPSS and SAS spell their formats in capitals followed by a width ("DATE11", "MMDDYY10.").
  const std::string f = upperCase(format);
  if (startsWithAny(f, {"DATETIME", "DATEAMPM", "YMDHMS", "DTDATE", "E8601DT", "B8601DT", "E8601DZ",
                        "B8601DZ", "NLDATM", "MDYAMPM"}))
    return ValueKind::datetime;
  if (startsWithAny(f, {"TIME", "DTIME", "MTIME", "HHMM", "TOD", "HOUR", "MMSS", "E8601TM",
                        "B8601TM", "NLTIME"}))
    return ValueKind::time;
  if (startsWithAny(
          f, {"DATE",     "ADATE",  "EDATE",   "SDATE",   "JDATE",  "QYR",   "MOYR",   "WKYR",
              "DDMMYY",   "MMDDYY", "YYMMDD",  "YYMMN",   "YYMON",  "MONYY", "YYQ",    "WEEKDATE",
              "WORDDATE", "JULIAN", "E8601DA", "B8601DA", "NLDATE", "EURDF", "MINGUO", "NENGO"}))
    return ValueKind::date;
  return ValueKind::number;
}

}  // namespace dpsynth::core::data
