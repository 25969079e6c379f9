/// libFuzzer harness: CSV text → parseCsv → buildDataset, plus the properties the reader and
/// writer promise. The first byte chooses the dataset spec; the rest is the file.
///  - every problem is a DataError (anything else escaping is a crash);
///  - every message is one line with no control character, and short whatever the input;
///  - a table that reads fine is written by formatCsv and read back to the same table.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "core/data/csv_table.h"
#include "core/data/csv_writer.h"
#include "core/data/data_error.h"
#include "core/data/dataset.h"

namespace data = dpsynth::core::data;

namespace {

void checkMessage(const data::DataError& error) {
  const std::string message = error.what();
  for (const char c : message) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7F) std::abort();  // a newline or an escape reached the user
  }
  // Values are quoted at most ~60 characters (a few bytes each when escaped); the file name and
  // the hint add a few hundred.
  if (message.size() > 4096) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* bytes, std::size_t size) {
  if (size < 1) return 0;
  const std::uint8_t options = bytes[0];
  const std::string text(reinterpret_cast<const char*>(bytes + 1), size - 1);

  data::CsvTable table;
  try {
    table = data::parseCsv(text, "fuzz.csv");
  } catch (const data::DataError& error) {
    checkMessage(error);
    return 0;
  }
  if (table.header.empty() || table.lineOfRow.size() != table.rows.size()) std::abort();
  for (const auto& row : table.rows) {
    if (row.size() != table.header.size()) std::abort();
  }

  // Write and read back: the same table (the writer must quote whatever the reader would split).
  const std::string written = data::formatCsv(table.header, table.rows, table.delimiter);
  const data::CsvTable back = data::parseCsv(written, "written.csv");
  if (back.header != table.header || back.rows != table.rows) std::abort();

  data::DatasetSpec spec;
  spec.outcome = table.header[options % table.header.size()];
  for (std::size_t j = 0; j < table.header.size() && spec.covariates.size() < 4; ++j) {
    if (table.header[j] != spec.outcome && (options >> 4) & (1u << (j % 4))) {
      spec.covariates.push_back(table.header[j]);
    }
  }
  spec.family = static_cast<dpsynth::core::models::Family>((options >> 2) & 3);
  spec.dropMissing = (options & 0x80) != 0;
  spec.countConfidential = (options & 0x02) != 0;
  try {
    (void)data::suggestFamily(table, spec.outcome);
    const data::Dataset dataset = data::buildDataset(table, spec);
    // Fewer than 2 records only where the count is confidential and there are no covariates
    // (DatasetSpec::countConfidential).
    const bool anyCount = (spec.dropMissing || spec.countConfidential) && spec.covariates.empty();
    if (dataset.X.rows() != dataset.y.size() || (dataset.size() < 2 && !anyCount)) std::abort();
    if (static_cast<std::size_t>(dataset.X.cols()) != dataset.designNames.size()) std::abort();
    if (!dataset.X.allFinite() || !dataset.y.allFinite()) std::abort();
  } catch (const data::DataError& error) {
    checkMessage(error);
  }
  return 0;
}
