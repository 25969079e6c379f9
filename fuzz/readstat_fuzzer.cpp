/// libFuzzer harness: bytes of an SPSS, Stata or SAS file → parseStatFile (ReadStat) →
/// buildDataset, then the table written back as .sav, .dta and .xpt. The first byte chooses the
/// format, the second the dataset spec; the rest is the file. Properties:
///  - every problem reading is a DataError (anything else escaping is a crash), one line with
///    no control character and short whatever the input;
///  - a table that reads has one name, one ColumnInfo and one case number per column and row,
///    and labels-as-levels columns hold only their labels (or missing);
///  - writing it back either works and reads back with the same names and number of records,
///    or is refused with a WriteError (a name the format does not accept).
/// ReadStat itself is a system library, so libFuzzer sees the coverage of dpsynth's side only;
/// ASan still checks every read and write ReadStat makes through dpsynth's memory.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <optional>
#include <string>

#include "core/data/csv_writer.h"
#include "core/data/data_error.h"
#include "core/data/dataset.h"
#include "core/data/readstat_reader.h"
#include "core/data/readstat_writer.h"
#include "core/data/value_parsing.h"

namespace data = dpsynth::core::data;

namespace {

void checkStatMessage(const std::string& message) {
  for (const char c : message) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7F) std::abort();  // a newline or an escape reached the user
  }
  if (message.size() > 4096) std::abort();
}

constexpr data::StatFormat kFormats[] = {data::StatFormat::sav,      data::StatFormat::zsav,
                                         data::StatFormat::por,      data::StatFormat::dta,
                                         data::StatFormat::sas7bdat, data::StatFormat::xpt};
constexpr const char* kExtensions[] = {"sav", "zsav", "por", "dta", "sas7bdat", "xpt"};

void checkTable(const data::CsvTable& table) {
  if (table.header.empty() || table.columns.size() != table.header.size()) std::abort();
  if (table.lineOfRow.size() != table.rows.size()) std::abort();
  for (std::size_t j = 0; j < table.header.size(); ++j) {
    const data::ColumnInfo& info = table.columns[j];
    if (!info.labelsAreLevels) continue;
    for (const auto& row : table.rows) {
      const std::string_view cell = row[j];
      if (!data::isMissingValue(cell) && !info.codeOf(data::trimBlanks(cell))) std::abort();
    }
  }
}

void writeBack(const data::CsvTable& table) {
  for (const auto format : {data::StatFormat::sav, data::StatFormat::dta, data::StatFormat::xpt}) {
    const std::string path = "back." + std::string(format == data::StatFormat::sav   ? "sav"
                                                   : format == data::StatFormat::dta ? "dta"
                                                                                     : "xpt");
    std::optional<std::string> bytes;
    try {
      bytes = data::formatStatFile(format, path, table.header, table.columns, table.rows);
    } catch (const data::WriteError& error) {
      checkStatMessage(error.what());
      continue;
    }
    if (!bytes) std::abort();
    const auto back = data::parseStatFile(*bytes, path, format, {});
    if (!back || back->header != table.header || back->rows.size() != table.rows.size())
      std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* bytes, std::size_t size) {
  if (size < 2) return 0;
  const std::size_t which = bytes[0] % std::size(kFormats);
  const std::uint8_t options = bytes[1];
  const std::string_view file(reinterpret_cast<const char*>(bytes + 2), size - 2);
  const std::string name = std::string("fuzz.") + kExtensions[which];

  data::CsvTable table;
  try {
    table = *data::parseStatFile(file, name, kFormats[which], {});
  } catch (const data::DataError& error) {
    checkStatMessage(error.what());
    return 0;
  }
  checkTable(table);
  // Writing is the slow part (three files); a quarter of the inputs that read try it.
  if ((options & 0x03) == 0 && table.rows.size() <= 1000) writeBack(table);

  data::DatasetSpec spec;
  spec.outcome = table.header[options % table.header.size()];
  for (std::size_t j = 0; j < table.header.size() && spec.covariates.size() < 3; ++j) {
    if (table.header[j] != spec.outcome && (options >> 4) & (1u << (j % 4)))
      spec.covariates.push_back(table.header[j]);
  }
  spec.family = static_cast<dpsynth::core::models::Family>((options >> 2) & 3);
  spec.dropMissing = (options & 0x80) != 0;
  try {
    (void)data::suggestFamily(table, spec.outcome);
    const data::Dataset dataset = data::buildDataset(table, spec);
    // Fewer than 2 records only where the count is confidential (here: complete records after
    // dropping missing values) and there are no covariates (DatasetSpec::countConfidential).
    const bool anyCount = spec.dropMissing && spec.covariates.empty();
    if (dataset.X.rows() != dataset.y.size() || (dataset.size() < 2 && !anyCount)) std::abort();
    if (static_cast<std::size_t>(dataset.X.cols()) != dataset.designNames.size()) std::abort();
    if (!dataset.X.allFinite() || !dataset.y.allFinite()) std::abort();
  } catch (const data::DataError& error) {
    checkStatMessage(error.what());
  }
  return 0;
}
