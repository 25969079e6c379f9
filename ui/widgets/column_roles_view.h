#pragma once
/// Every input column and its role in a release (SPEC §0): the outcome (synthesized), a public
/// covariate (copied into the release as it is) or not released (the default: it never leaves).
/// A view of the Outcome and Covariates choosers, never a second source of truth: the data panel
/// calls setRoles() whenever they change. For an SPSS, Stata or SAS file each column's variable
/// label is shown beside it and its value labels in its tooltip; identifier-like columns are
/// flagged. A categorical public covariate shows its reference level (the level the design has
/// no dummy for) in a chooser; picking another one is asked for with referenceLevelChosen(),
/// which the data panel turns into a document edit.
#include <QWidget>
#include <map>
#include <string>
#include <vector>

#include "core/data/covariate_levels.h"
#include "core/data/csv_table.h"
#include "core/data/dataset.h"

class QComboBox;
class QLabel;
class QTableWidget;

namespace dpsynth::ui {

enum class ColumnRole { outcome, publicCovariate, notReleased };
QString columnRoleName(ColumnRole role);
/// A sentence on what the role means for the release (the role's tooltip).
QString columnRoleDescription(ColumnRole role);

class ColumnRolesView : public QWidget {
  Q_OBJECT

 public:
  /// The table's columns.
  enum Column { kName = 0, kRole = 1, kLabel = 2, kReference = 3 };

  explicit ColumnRolesView(QWidget* parent = nullptr);

  /// Shows `columns` (the input's header, in order) with the roles `spec` gives them.
  void setRoles(const std::vector<std::string>& columns, const core::data::DatasetSpec& spec);
  /// The same for a table: with its variable and value labels, and `idLike` flagged.
  void setRoles(const core::data::CsvTable& table, const core::data::DatasetSpec& spec,
                const std::vector<std::string>& idLike = {});
  void clear();
  /// Shows the reference level of each categorical covariate in `levels` (the dataset typed
  /// with the current choice) as a chooser. A level in `chosen` for a covariate not in `levels`
  /// (the choice does not make a dataset) is shown as text. Call after setRoles().
  void setReferenceLevels(const std::vector<core::data::CovariateLevels>& levels,
                          const std::map<std::string, std::string>& chosen);
  /// The chooser of a covariate's reference level (null: not a categorical covariate shown).
  QComboBox* referenceChooser(const QString& column) const;

  /// The role shown for a column (notReleased for a column that is not shown).
  ColumnRole role(const QString& column) const;
  /// The columns a synthetic file will hold, in the input's order.
  QStringList releasedColumns() const;
  QTableWidget* table() const { return table_; }
  QLabel* summary() const { return summary_; }

 signals:
  /// The analyst picked `level` as the reference of categorical covariate `column`.
  void referenceLevelChosen(const QString& column, const QString& level);

 private:
  QTableWidget* table_ = nullptr;
  QLabel* summary_ = nullptr;
  std::vector<std::pair<QString, ColumnRole>> roles_;
  int rowHeight_ = 0;
};

}  // namespace dpsynth::ui
