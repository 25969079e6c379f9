#pragma once
/// The public reference dataset of "Weights from a reference dataset…" (SPEC §0): censor-w and
/// weighted-e take a weight function fitted on it instead of weights from the confidential
/// data, which is what makes censor-w strict DP. Read with the same reader and column choices
/// as the data (outcome, covariates, family), re-typed whenever those choices change.
#include <QObject>
#include <QString>
#include <memory>
#include <string>

#include "core/data/csv_table.h"
#include "core/data/dataset.h"
#include "ui/dialogs/error_report.h"
#include "ui/workers/load_worker.h"

namespace dpsynth::ui {

class DataLoader;

class ReferenceData : public QObject {
  Q_OBJECT

 public:
  explicit ReferenceData(QObject* parent = nullptr);

  /// Reads the CSV and types it with `spec`, on the calling thread (sessions, start-up). On
  /// failure emits errorOccurred() (a DataError names the file, line and column) and keeps the
  /// reference loaded before; returns false.
  bool load(const QString& path, const core::data::DatasetSpec& spec);
  /// The same on the loader's worker thread; returns at once. Ends in changed(),
  /// errorOccurred() or a cancel (the reference loaded before kept in both).
  void open(const QString& path, const core::data::DatasetSpec& spec);
  DataLoader* loader() const { return loader_; }
  void clear();
  bool isLoaded() const { return table_ != nullptr; }
  QString path() const { return path_; }

  /// The reference typed with `spec` (the data's current choices); null when none is loaded.
  /// When the choices do not fit the reference (a covariate it lacks, say) returns null and
  /// sets *problem.
  std::shared_ptr<const core::data::Dataset> datasetFor(const core::data::DatasetSpec& spec,
                                                        std::string* problem) const;

 signals:
  /// Loaded or cleared.
  void changed();
  void errorOccurred(const ErrorReport& report);

 private:
  void install(const LoadedData& loaded);

  DataLoader* loader_ = nullptr;
  std::shared_ptr<const core::data::CsvTable> table_;
  QString path_;
  // The last typed dataset and its spec, so that every settings read does not re-type the file.
  mutable std::string typedKey_;
  mutable std::shared_ptr<const core::data::Dataset> typed_;
  mutable std::string typedProblem_;
};

}  // namespace dpsynth::ui
