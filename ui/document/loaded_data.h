#pragma once
/// A table read and typed off the GUI thread, as it is handed to the document to install.
#include <QMetaType>
#include <memory>

#include "core/data/csv_table.h"
#include "core/data/dataset.h"
#include "ui/studio_settings.h"

namespace dpsynth::ui {

/// What a load hands to the GUI thread: nothing there needs more than installing.
struct LoadedData {
  quint64 loadId = 0;
  std::shared_ptr<const core::data::CsvTable> table;
  /// The table typed with `spec` (the automatic choices for data, the data's choices for a
  /// reference).
  std::shared_ptr<const core::data::Dataset> dataset;
  core::data::DatasetSpec spec;
  DataSource source;
  /// Columns that look like identifiers (column_guess.h), flagged in the column roles.
  std::vector<std::string> idLikeColumns;
};

}  // namespace dpsynth::ui

Q_DECLARE_METATYPE(dpsynth::ui::LoadedData)
