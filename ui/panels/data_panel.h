#pragma once
/// Loading the confidential data and choosing what to model: open a CSV or a bundled sample,
/// preview the first rows, choose outcome, covariates and family (suggested from the data), and
/// see the outcome's summary. A file that cannot be read or typed is reported through
/// errorOccurred() and the data loaded before stays loaded. Files chosen in the window are read
/// on a worker thread (openFile), with a progress bar and Cancel after a moment.
#include <QWidget>
#include <functional>
#include <memory>

#include "core/data/dataset.h"
#include "ui/dialogs/error_report.h"
#include "ui/studio_settings.h"
#include "ui/workers/load_worker.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QListWidget;
class QTableView;

namespace dpsynth::ui {

class ColumnRolesView;
class CsvPreviewModel;
class DataLoader;
class LoadIndicator;
class OutcomeSummary;

class DataPanel : public QWidget {
  Q_OBJECT

 public:
  explicit DataPanel(QWidget* parent = nullptr);

  /// Starts reading a CSV on the worker thread and returns at once (stopping a load in
  /// progress). It ends in loaded() with the new data, errorOccurred() or a cancel (the current
  /// data kept in both), and then loadEnded().
  void openFile(const QString& path);
  /// Stops the load in progress at its next check; the current data stays.
  void cancelLoad();
  bool isLoading() const;
  /// Reads a CSV on the calling thread, blocking it (start-up, sessions, scripts, tests; a load
  /// in progress is stopped first). On failure emits errorOccurred() and keeps the current
  /// data; returns false.
  bool loadFile(const QString& path);
  /// Loads a bundled sample ("nbmix", "beta", "poisson", "salary"): small, so in place.
  bool loadSample(const QString& kind);
  /// Asks for a file with a dialog, then openFile().
  void openWithDialog();
  /// Asked before the user loads other data from the window (Open, Sample): false stops the
  /// load (the window asks whether to save unsaved work there).
  void setLoadGuard(std::function<bool()> guard) { loadGuard_ = std::move(guard); }
  /// True when there is no guard or it lets the load go on.
  bool mayLoad() const { return !loadGuard_ || loadGuard_(); }
  /// The bundled sample kinds.
  static QStringList sampleKinds();

  /// Applies stored choices (session load). Returns false (and emits errorOccurred) when the
  /// dataset cannot be built with them; the choosers still show them.
  bool setChoice(const core::data::DatasetSpec& spec, double sdScale);
  core::data::DatasetSpec choice() const;
  double sdScale() const;

  bool hasData() const { return table_ != nullptr; }
  /// The table as read (all columns, as text); null before any load.
  std::shared_ptr<const core::data::CsvTable> table() const { return table_; }
  /// The typed dataset for the current choice; null when the choice does not make one (see
  /// problem()).
  std::shared_ptr<const core::data::Dataset> dataset() const { return dataset_; }
  QString problem() const { return problem_; }
  const DataSource& source() const { return source_; }
  /// The family suggested for the current outcome.
  core::models::Family suggestedFamily() const { return suggested_; }
  /// True when the family in the Family box was declared, not taken from the confidential
  /// values: picked by the user (even the suggested one), restored from a session, or given by
  /// a bundled sample (public data). SPEC §0: a release needs a declared family.
  bool familyDeclared() const { return familyChosen_ || !source_.sample.isEmpty(); }

  CsvPreviewModel* previewModel() const { return preview_; }
  QTableView* previewView() const { return previewView_; }
  QComboBox* outcomeBox() const { return outcome_; }
  QComboBox* familyBox() const { return family_; }
  QListWidget* covariateList() const { return covariates_; }
  OutcomeSummary* summary() const { return summary_; }
  /// Every input column with its role (outcome / public covariate / not released), following
  /// the Outcome and Covariates choosers.
  ColumnRolesView* columnRoles() const { return roles_; }
  DataLoader* loader() const { return loader_; }
  LoadIndicator* loadIndicator() const { return loadIndicator_; }

 signals:
  /// New data was loaded (also emits choiceChanged()).
  void loaded(const DataSource& source);
  /// Outcome, covariates, family, missing-value handling or sd scale changed: the dataset or
  /// model is different (stage caches must be dropped).
  void choiceChanged();
  void errorOccurred(const ErrorReport& report);
  /// An openFile() load ended: `loaded` is true when its data is now installed.
  void loadEnded(const QString& file, bool loaded);

 private:
  /// Installs a table read and typed with the automatic choices (cheap: widgets only).
  void install(const LoadedData& result);
  void fillChoosers();
  void rebuild(bool suggestFamily);
  void showSummary();

  DataLoader* loader_ = nullptr;
  LoadIndicator* loadIndicator_ = nullptr;
  std::shared_ptr<const core::data::CsvTable> table_;
  std::shared_ptr<const core::data::Dataset> dataset_;
  DataSource source_;
  QString problem_;
  core::models::Family suggested_ = core::models::Family::normal;
  bool familyChosen_ = false;
  bool silent_ = false;
  std::function<bool()> loadGuard_;

  QLabel* fileLabel_ = nullptr;
  CsvPreviewModel* preview_ = nullptr;
  QTableView* previewView_ = nullptr;
  QComboBox* outcome_ = nullptr;
  QComboBox* family_ = nullptr;
  QLabel* suggestion_ = nullptr;
  QListWidget* covariates_ = nullptr;
  QCheckBox* dropMissing_ = nullptr;
  QDoubleSpinBox* sdScale_ = nullptr;
  QLabel* problemLabel_ = nullptr;
  OutcomeSummary* summary_ = nullptr;
  ColumnRolesView* roles_ = nullptr;
};

}  // namespace dpsynth::ui
