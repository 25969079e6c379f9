#include "core/data/data_file.h"

#include "core/data/readstat_reader.h"
#include "core/data/stat_format.h"

namespace dpsynth::core::data {

std::optional<CsvTable> parseDataFile(std::string_view bytes, const std::string& path,
                                      const ReadControl& control) {
  if (const auto format = statFormatOf(path)) return parseStatFile(bytes, path, *format, control);
  return parseCsv(bytes, path, control);
}

CsvTable parseDataFile(std::string_view bytes, const std::string& path) {
  return *parseDataFile(bytes, path, ReadControl{});  // without a stop token: never empty
}

std::optional<CsvTable> readDataFile(const std::string& path, const ReadControl& control,
                                     std::uint64_t maxBytes) {
  const std::optional<std::string> bytes = readRegularFile(path, control, maxBytes);
  if (!bytes) return std::nullopt;
  return parseDataFile(*bytes, path, control);
}

CsvTable readDataFile(const std::string& path, std::uint64_t maxBytes) {
  return *readDataFile(path, ReadControl{}, maxBytes);
}

}  // namespace dpsynth::core::data
