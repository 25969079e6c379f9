#include "ui/workers/load_jobs.h"

#include <QFileInfo>
#include <algorithm>

#include "core/data/data_error.h"
#include "core/data/data_file.h"
#include "core/data/regular_file.h"
#include "core/data/sha256.h"
#include "core/data/value_parsing.h"
#include "ui/document/column_guess.h"

namespace dpsynth::ui {

namespace data = core::data;

namespace {

void report(const LoadContext& context, double fraction) {
  if (context.progress) context.progress(fraction);
}

/// A ReadControl whose progress (reading then parsing, 0..1) lands in [from, to].
data::ReadControl readControl(const LoadContext& context, double from, double to) {
  data::ReadControl control;
  control.stop = context.stop;
  if (context.progress) {
    control.progress = [&context, from, to](const data::ReadProgress& p) {
      context.progress(from + (to - from) * p.fraction());
    };
  }
  return control;
}

/// SHA-256 of the text, in 4 MiB steps between which a stop is honoured.
std::optional<std::string> checksum(std::string_view text, const std::stop_token& stop) {
  constexpr std::size_t kStep = std::size_t{4} << 20;
  core::data::Sha256 hash;
  for (std::size_t at = 0; at < text.size(); at += kStep) {
    if (stop.stop_requested()) return std::nullopt;
    hash.update(text.substr(at, kStep));
  }
  return hash.hexDigest();
}

}  // namespace

std::string guessOutcome(const data::CsvTable& table) {
  for (std::size_t c = table.header.size(); c-- > 0;) {
    // An SPSS, Stata or SAS file says which columns are dates or categories: never outcomes.
    if (const data::ColumnInfo* info = table.info(c);
        info && (info->isDateOrTime() || info->labelsAreLevels))
      continue;
    std::size_t numbers = 0, present = 0;
    for (const data::CsvRow row : table.rows) {
      if (data::isMissingValue(row[c])) continue;
      ++present;
      if (data::parseNumber(row[c])) ++numbers;
    }
    if (present > 0 && 2 * numbers > present) return table.header[c];
  }
  return table.header.empty() ? std::string() : table.header.back();
}

std::optional<LoadedData> typeAutomatically(std::shared_ptr<const data::CsvTable> table,
                                            DataSource source, const LoadContext& context,
                                            double progressFrom) {
  // A header alone is a database of no records, typed like any other. Where its count is
  // confidential (add-remove) an intercept-only run goes on, as `dpsynth run` takes it:
  // refusing it here told it from its neighbour with one record (SPEC §0). The document says
  // why it cannot run under replace-one.
  LoadedData loaded;
  loaded.idLikeColumns = idLikeColumns(*table);
  // A user's file: an outcome only when one column can be it; with several, none until the
  // analyst chooses (the last numeric column was too often a postcode). A bundled sample's
  // outcome is known.
  if (source.sample.isEmpty()) {
    const auto candidates = outcomeCandidates(*table, loaded.idLikeColumns);
    if (candidates.size() != 1) {
      loaded.table = std::move(table);
      loaded.source = std::move(source);
      report(context, 1.0);
      return loaded;  // no outcome, no dataset: the data panel asks for one
    }
    loaded.spec.outcome = candidates.front();
  } else {
    loaded.spec.outcome = guessOutcome(*table);
  }
  loaded.spec.family = data::suggestFamily(*table, loaded.spec.outcome);
  // The relation is chosen after the load: type the data as under add-remove, where a count too
  // small to fit is no refusal; the document builds again for replace-one and shows why.
  loaded.spec.countConfidential = true;
  report(context, progressFrom + 0.3 * (1.0 - progressFrom));
  std::optional<data::Dataset> dataset;
  try {
    dataset = data::buildDataset(*table, loaded.spec, context.stop);
  } catch (const data::DataError&) {
    loaded.spec.dropMissing = true;  // a column with gaps is still usable once they are dropped
    try {
      dataset = data::buildDataset(*table, loaded.spec, context.stop);
    } catch (const data::DataError&) {
      loaded.spec.dropMissing = false;
      dataset = data::buildDataset(*table, loaded.spec, context.stop);  // rethrows the first
    }
  }
  if (!dataset) return std::nullopt;
  loaded.dataset = std::make_shared<const data::Dataset>(std::move(*dataset));
  loaded.table = std::move(table);
  loaded.source = std::move(source);
  report(context, 1.0);
  return loaded;
}

LoadJob dataFileJob(const QString& path) {
  return [path](const LoadContext& context) -> std::optional<LoadedData> {
    const std::string file = path.toStdString();
    // Read once: the checksum is of exactly the bytes that are parsed.
    const auto text = data::readRegularFile(file, readControl(context, 0.0, 0.85));
    if (!text) return std::nullopt;
    DataSource source;
    source.file = path;
    source.displayName = QFileInfo(path).fileName();
    auto sha256 = checksum(*text, context.stop);
    if (!sha256) return std::nullopt;
    source.sha256 = std::move(*sha256);
    auto table = data::parseDataFile(*text, file, readControl(context, 0.0, 0.85));
    if (!table) return std::nullopt;
    return typeAutomatically(std::make_shared<const data::CsvTable>(std::move(*table)),
                             std::move(source), context, 0.85);
  };
}

LoadJob tableJob(std::shared_ptr<const data::CsvTable> table, DataSource source) {
  return [table = std::move(table), source = std::move(source)](const LoadContext& context) {
    return typeAutomatically(table, source, context);
  };
}

LoadJob referenceFileJob(const QString& path, data::DatasetSpec spec) {
  return [path, spec = std::move(spec)](const LoadContext& context) -> std::optional<LoadedData> {
    auto table = data::readDataFile(path.toStdString(), readControl(context, 0.0, 0.85));
    if (!table) return std::nullopt;
    auto dataset = data::buildDataset(*table, spec, context.stop);
    if (!dataset) return std::nullopt;
    LoadedData loaded;
    loaded.table = std::make_shared<const data::CsvTable>(std::move(*table));
    loaded.dataset = std::make_shared<const data::Dataset>(std::move(*dataset));
    loaded.spec = spec;
    loaded.source.file = path;
    loaded.source.displayName = QFileInfo(path).fileName();
    report(context, 1.0);
    return loaded;
  };
}

}  // namespace dpsynth::ui
