#pragma once
/// The statistical file formats dpsynth reads and writes besides CSV (through ReadStat), told
/// apart by the file name's extension as SPSS, Stata and SAS themselves do.
#include <optional>
#include <string>
#include <string_view>

#include "core/data/column_info.h"

namespace dpsynth::core::data {

enum class StatFormat {
  sav,       ///< SPSS system file
  zsav,      ///< SPSS system file, compressed
  por,       ///< SPSS portable file
  dta,       ///< Stata
  sas7bdat,  ///< SAS data set
  xpt,       ///< SAS transport (XPORT)
};

/// The format named by the path's extension (case ignored), or nullopt for anything else
/// (a CSV, or a name without a known extension).
std::optional<StatFormat> statFormatOf(const std::string& path);

/// "SPSS", "Stata" or "SAS" and the extension, for messages ("SPSS .sav").
std::string statFormatName(StatFormat format);

/// Whether dpsynth writes synthetic data in this format (.sav, .dta, .xpt): the others are read
/// only (ReadStat's SAS7BDAT files do not open in SAS; .zsav and .por are rarely asked for).
bool isWritableStatFormat(StatFormat format);

/// One line listing the formats read, for help texts and messages.
inline constexpr std::string_view kReadableFormats =
    "CSV, SPSS (.sav, .zsav, .por), Stata (.dta) and SAS (.sas7bdat, .xpt)";

/// What a display format says the numbers are: SPSS's DATE11 and ADATE10 are dates, DATETIME20
/// a date with a time, TIME8 a time; Stata's %td a date and %tc a date with a time (a time when
/// its details show the clock only, as in %tcHH:MM:SS); SAS's DATE9,
/// MMDDYY10, DATETIME20 and TIME8 alike. Anything else is a number (strings are typed by the
/// reader from the variable's type).
ValueKind kindOfDisplayFormat(std::string_view format);

}  // namespace dpsynth::core::data
