#pragma once
/// The studio's loads as jobs for a DataLoader (or for runLoad in place): everything heavy that
/// loading a file involves — reading, checksum, parsing, guessing the outcome and typing — so
/// that the GUI thread only installs the result.
#include <QString>
#include <memory>
#include <string>

#include "core/data/csv_table.h"
#include "core/data/dataset.h"
#include "ui/studio_settings.h"
#include "ui/workers/load_worker.h"

namespace dpsynth::ui {

/// The CSV at `path` (absolute), typed with the automatic choices (typeAutomatically). Its
/// SHA-256 is of exactly the bytes parsed. Progress: reading 0–42 %, parsing to 85 %, typing
/// to 100 %.
LoadJob dataFileJob(const QString& path);

/// A table already in memory (a bundled sample), typed with the automatic choices.
LoadJob tableJob(std::shared_ptr<const core::data::CsvTable> table, DataSource source);

/// The public reference dataset of censor-w / weighted-e: the CSV at `path` (absolute), typed
/// with the data's choices.
LoadJob referenceFileJob(const QString& path, core::data::DatasetSpec spec);

/// The automatic choices for a freshly read table: for a user's file the outcome only when one
/// column can be it (outcomeCandidates; else none, and no dataset; a header alone is data of
/// no records, with none), for a bundled sample the guessed one; its suggested family, and rows
/// with missing values dropped when they would stop the build. Throws the DataError of the first
/// attempt when even that does not type; nullopt when stopped.
std::optional<LoadedData> typeAutomatically(std::shared_ptr<const core::data::CsvTable> table,
                                            DataSource source, const LoadContext& context,
                                            double progressFrom = 0.0);

/// The last column whose non-missing cells are mostly numbers (the usual place of an outcome
/// in survey extracts), skipping the dates and labelled categories of an SPSS, Stata or SAS
/// file; the last column when none is.
std::string guessOutcome(const core::data::CsvTable& table);

}  // namespace dpsynth::ui
