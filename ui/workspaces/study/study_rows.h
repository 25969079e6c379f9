#pragma once
/// The rows of a study as they land (studyHeader() layout), grouped by cell for the views: the
/// values of one column per cell in order of first appearance, and each cell's label.
#include <QString>
#include <QStringList>
#include <optional>
#include <string>
#include <vector>

namespace dpsynth::ui {

struct StudyCellValues {
  QString cell;       ///< the "cell" field; "" for the replicates' confidential rows
  QString mechanism;  ///< cell_mechanism ("confidential" for the confidential rows)
  QString epsilon, c, g, downscale;  ///< the cell keys as text ("" when the cell has none)
  QString label() const;             ///< "censor-w\nε=4 d=auto"
};

class StudyRowSet {
 public:
  void clear();
  void add(const std::vector<std::vector<std::string>>& rows);
  std::size_t rowCount() const { return rows_.size(); }
  const std::vector<std::vector<std::string>>& rows() const { return rows_; }
  /// Distinct cells in order of first appearance (the confidential rows first when present).
  const std::vector<StudyCellValues>& cells() const { return cells_; }
  /// The numeric values of `column` in the rows of cell `index` (empty fields left out).
  std::vector<double> values(std::size_t index, const std::string& column) const;
  /// Index of a column of studyHeader() (std::out_of_range for an unknown name).
  static std::size_t column(const std::string& name);

 private:
  std::vector<std::vector<std::string>> rows_;
  std::vector<StudyCellValues> cells_;
  std::vector<std::vector<std::size_t>> rowsOfCell_;
};

}  // namespace dpsynth::ui
