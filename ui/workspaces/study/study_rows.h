#pragma once
/// The rows of a study as they land, decoded once into core's typed StudyRow
/// (core/study/study_row.h) and grouped by cell for the views: the values of one column per
/// cell in order of first appearance, and each cell's label.
#include <QString>
#include <QStringList>
#include <optional>
#include <string>
#include <vector>

#include "core/study/study_row.h"

namespace dpsynth::ui {

struct StudyCellValues {
  std::optional<int> cell;  ///< the cell's index; none for the replicates' confidential rows
  QString mechanism;        ///< cell_mechanism ("confidential" for the confidential rows)
  QString epsilon, c, g, downscale;  ///< the cell keys as text ("" when the cell has none)
  core::study::CellKeys keys;        ///< the same keys, typed
  bool marginalOnly = false;  ///< a row of the cell says its mechanism ignores the covariates
  bool isConfidential() const { return !cell.has_value(); }
  QString label() const;  ///< "censor-w\nε=4 d=auto"
};

class StudyRowSet {
 public:
  void clear();
  /// Rows as the study runner and replicates.csv give them (studyHeader() layout). A row the
  /// codec refuses is left out and counted (skipped()).
  void add(const std::vector<std::vector<std::string>>& rows);
  void add(const std::vector<core::study::StudyRow>& rows);
  std::size_t rowCount() const { return rows_.size(); }
  const std::vector<core::study::StudyRow>& rows() const { return rows_; }
  /// Rows left out because they could not be decoded.
  std::size_t skipped() const { return skipped_; }
  /// Distinct cells in order of first appearance (the confidential rows first when present).
  const std::vector<StudyCellValues>& cells() const { return cells_; }
  /// The values of numeric `column` (a name of studyHeader()) in the rows of cell `index`
  /// (rows without a value left out). Throws std::invalid_argument for an unknown column.
  std::vector<double> values(std::size_t index, const std::string& column) const;

 private:
  std::vector<core::study::StudyRow> rows_;
  std::vector<StudyCellValues> cells_;
  std::vector<std::vector<std::size_t>> rowsOfCell_;
  std::size_t skipped_ = 0;
};

}  // namespace dpsynth::ui
