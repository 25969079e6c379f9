#pragma once
/// The one way in for a data file: CSV, or a statistical file (SPSS, Stata, SAS) chosen by its
/// extension (stat_format.h), read into the same table. Front ends call these instead of
/// readCsv/parseCsv so that every place that takes data takes every format.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/data/csv_table.h"
#include "core/data/read_control.h"
#include "core/data/regular_file.h"

namespace dpsynth::core::data {

/// Parses the bytes of the file at `path`: with a statistical extension through ReadStat
/// (readstat_reader.h), otherwise as CSV (csv_table.h). Same errors (DataError naming `path`)
/// and the same stop and progress contract as parseCsv.
std::optional<CsvTable> parseDataFile(std::string_view bytes, const std::string& path,
                                      const ReadControl& control);
CsvTable parseDataFile(std::string_view bytes, const std::string& path);

/// readRegularFile (an ordinary file of at most maxBytes) and then parseDataFile.
std::optional<CsvTable> readDataFile(const std::string& path, const ReadControl& control,
                                     std::uint64_t maxBytes = kMaxInputBytes);
CsvTable readDataFile(const std::string& path, std::uint64_t maxBytes = kMaxInputBytes);

}  // namespace dpsynth::core::data
