#pragma once
/// The data of the document and what to model from it, as a view: the file (or bundled
/// sample), a preview of the first rows, the outcome, family, covariates, missing-value handling
/// and prior scale, the roles every column gets in a release (with the reference level of each
/// categorical covariate), and the outcome's summary. Every
/// choice is sent to the StudioDocument as a typed edit and shown back from it; loading is
/// asked for (fileChosen, sampleChosen) and done by the data service.
#include <QWidget>

#include "ui/document/studio_document.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QToolButton;
class QListWidget;
class QTableView;

namespace dpsynth::ui {

class ColumnRolesView;
class CsvPreviewModel;
class LoadIndicator;
class OutcomeSummary;

class DataPanel : public QWidget {
  Q_OBJECT

 public:
  explicit DataPanel(StudioDocument* document, QWidget* parent = nullptr);

  /// Asks for a data file with a dialog (opening in the current data's folder), then
  /// fileChosen().
  void openWithDialog();

  CsvPreviewModel* previewModel() const { return preview_; }
  QTableView* previewView() const { return previewView_; }
  QComboBox* outcomeBox() const { return outcome_; }
  QComboBox* familyBox() const { return family_; }
  QListWidget* covariateList() const { return covariates_; }
  /// Shows only the covariates whose name contains its text (for files of many columns).
  QLineEdit* covariateFilter() const { return covariateFilter_; }
  /// What the normal family's prior scale means here, and a suggestion from public bounds.
  QLabel* sdScaleHint() const { return sdScaleHint_; }
  QCheckBox* dropMissingBox() const { return dropMissing_; }
  QDoubleSpinBox* sdScaleBox() const { return sdScale_; }
  OutcomeSummary* summary() const { return summary_; }
  /// Every input column with its role (outcome / public covariate / not released).
  ColumnRolesView* columnRoles() const { return roles_; }
  /// Progress and Cancel of a data file being read (the data service drives it).
  LoadIndicator* loadIndicator() const { return loadIndicator_; }

 signals:
  /// The user picked a data file to load (Open…).
  void fileChosen(const QString& path);
  /// The user picked a bundled sample.
  void sampleChosen(const QString& kind);

 private:
  /// Shows the document's data and choice.
  void render();
  void fillChoosers();
  void showSummary();
  void applyCovariateFilter();
  /// The analyst picked `level` as the reference of `column` in the column roles: one edit.
  void chooseReference(const QString& column, const QString& level);
  /// The hint under the prior scale: a suggestion from the public PH bounds, or why there is
  /// none (the confidential values must not set it).
  void showScaleHint();
  /// The covariates ticked in the list, in the input's column order.
  std::vector<std::string> tickedCovariates() const;

  StudioDocument* document_;
  bool rendering_ = false;  ///< widgets are being set from the document: no edits

  QLabel* fileLabel_ = nullptr;
  LoadIndicator* loadIndicator_ = nullptr;
  CsvPreviewModel* preview_ = nullptr;
  QTableView* previewView_ = nullptr;
  QComboBox* outcome_ = nullptr;
  QComboBox* family_ = nullptr;
  QLabel* suggestion_ = nullptr;
  QListWidget* covariates_ = nullptr;
  QLineEdit* covariateFilter_ = nullptr;
  QLabel* sdScaleHint_ = nullptr;
  QToolButton* sdScaleFromBounds_ = nullptr;
  QCheckBox* dropMissing_ = nullptr;
  QDoubleSpinBox* sdScale_ = nullptr;
  QLabel* problemLabel_ = nullptr;
  OutcomeSummary* summary_ = nullptr;
  ColumnRolesView* roles_ = nullptr;
  const core::data::CsvTable* shownTable_ = nullptr;  ///< the table the choosers list
};

}  // namespace dpsynth::ui
