#pragma once
/// A table read and typed off the GUI thread, as it is handed to the document to install.
#include <QMetaType>
#include <memory>
#include <optional>

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
  /// A bundled sample's public prior sd scale (the normal family's priors assume values of
  /// about ±10·s): the salary sample's outcome is in the tens of thousands, and at s = 1 its
  /// fit was unusable out of the box. Unset for a user's file (s is the analyst's to declare).
  std::optional<double> sdScale;
};

}  // namespace dpsynth::ui

Q_DECLARE_METATYPE(dpsynth::ui::LoadedData)
