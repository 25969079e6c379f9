#pragma once
/// The public reference dataset of "Weights from a reference dataset…" (SPEC §0): censor-w and
/// weighted-e take a weight function fitted on it instead of weights from the confidential
/// data, which is what makes censor-w strict DP. The table as read, and the same table typed
/// with the data's current choices (outcome, covariates, family), re-typed when they change.
/// Loading it is a service's job (ui/services/data_service.h); the document only holds it.
#include <QString>
#include <memory>
#include <optional>
#include <string>

#include "core/data/csv_table.h"
#include "core/data/dataset.h"

namespace dpsynth::ui {

class ReferenceDataset {
 public:
  /// Installs a table read from `path`; `typed` is the table typed with `spec` when the loader
  /// already did it (else null: typed on first use).
  void set(std::shared_ptr<const core::data::CsvTable> table, const QString& path,
           const core::data::DatasetSpec& spec = {},
           std::shared_ptr<const core::data::Dataset> typed = nullptr);
  void clear();
  bool isLoaded() const { return table_ != nullptr; }
  QString path() const { return path_; }
  std::shared_ptr<const core::data::CsvTable> table() const { return table_; }

  /// The reference typed with `spec`; null when none is loaded, or when the choices do not fit
  /// the reference (a covariate it lacks, say): then *problem says why. Given the data's
  /// dataset, the reference's design is matched to it by level names: the same covariates with
  /// the same levels make the same design columns in the data's order, whichever level each
  /// file happens to list first; different levels are a problem that names them.
  std::shared_ptr<const core::data::Dataset> datasetFor(
      const core::data::DatasetSpec& spec, std::string* problem,
      std::shared_ptr<const core::data::Dataset> data = nullptr) const;

 private:
  std::shared_ptr<const core::data::CsvTable> table_;
  QString path_;
  // The last typed dataset and its spec, so that every settings read does not re-type the file.
  mutable std::string typedKey_;
  mutable std::shared_ptr<const core::data::Dataset> typed_;
  mutable std::string typedProblem_;
  // The typed reference matched to a dataset's design (the dataset's identity and digest).
  mutable std::shared_ptr<const core::data::Dataset> alignedFor_;
  mutable std::shared_ptr<const core::data::Dataset> alignedTo_;
  mutable std::shared_ptr<const core::data::Dataset> aligned_;
  mutable std::string alignedProblem_;
};

}  // namespace dpsynth::ui
