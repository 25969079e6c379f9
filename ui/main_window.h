#pragma once
/// The studio window. It only creates the panels and controllers and connects them (functor
/// connects only); each panel builds its own layout and each controller owns its logic.
#include <QMainWindow>
#include <memory>
#include <optional>

#include "core/session/session_results.h"
#include "ui/app_settings.h"
#include "ui/dialogs/error_report.h"
#include "ui/dialogs/release_refused_dialog.h"
#include "ui/workers/run_types.h"

class QCheckBox;
class QLabel;
class QMenu;
class QPushButton;
class QSplitter;
class QTabWidget;

namespace dpsynth::ui {

class ControlPane;
class DataFitCheck;
class DataPanel;
class DocumentController;
class ExportActions;
class GuaranteeBadge;
class MechanismPanel;
class PlotsView;
class ProgressPanel;
class ResultsPanel;
class RunController;
class RunPresenter;
class SamplerPanel;
class SessionController;
class SettingsCheck;
class SettingsController;
class TuningPanel;
class WarningsPanel;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  /// The workspaces (tabs): "Synthesis" first, then the ones addWorkspaces() adds.
  QTabWidget* workspaces() const { return workspaces_; }
  /// Brings the synthesis workspace to the front.
  void showSynthesis();

  /// The start-up state: the NB-mixture sample, family negbin, lw-final checked.
  void loadDefaults();
  /// Starts a run with the current settings; false (with a message) when they are not usable.
  /// interactive: problems are shown in a dialog (else only in the status bar).
  bool startRun(bool interactive = true);
  void cancelRun();
  /// Opens a session file (asks first when there is unsaved work; false on Cancel).
  bool openSession(const QString& path);
  /// Saves the settings and the last run's results (SessionResults) to path.
  bool saveSession(const QString& path);
  /// File > New session: asks about unsaved work, then default settings on the data loaded,
  /// no results, Untitled.
  bool newSession();
  /// Replaces the dialog that shows errors (tests record them instead).
  void setErrorPresenter(ErrorPresenter presenter);
  /// Replaces the "Release refused" dialog of runs and exports (tests record them instead).
  void setRefusalPresenter(RefusalPresenter presenter);

  const std::optional<RunOutput>& lastOutput() const { return lastOutput_; }

  DataPanel* dataPanel() const { return data_; }
  MechanismPanel* mechanismPanel() const { return mechanisms_; }
  TuningPanel* tuningPanel() const { return tuning_; }
  SamplerPanel* samplerPanel() const { return sampler_; }
  RunController* runController() const { return run_; }
  SettingsController* settingsController() const { return settings_; }
  SessionController* sessionController() const { return session_; }
  DocumentController* documentController() const { return document_; }
  /// Settings that do not fit the data or the family (warnings; the mechanisms still run).
  DataFitCheck* dataFitCheck() const { return fitCheck_; }
  /// What a session saved now keeps of the last run (none before a run).
  const std::optional<core::session::SessionResults>& storedResults() const {
    return storedResults_;
  }
  ExportActions* exportActions() const { return exports_; }
  ResultsPanel* resultsPanel() const { return results_; }
  ProgressPanel* progressPanel() const { return progress_; }
  PlotsView* plotsView() const { return plots_; }
  WarningsPanel* warningsPanel() const { return warnings_; }
  SettingsCheck* settingsCheck() const { return check_; }
  /// Progress and Warnings, beside the results table.
  QTabWidget* bottomTabs() const { return bottomTabs_; }
  GuaranteeBadge* guaranteeBadge() const { return badge_; }
  QPushButton* runButton() const { return runButton_; }
  QPushButton* cancelButton() const { return cancelButton_; }
  QCheckBox* autoRunBox() const { return autoRun_; }

 signals:
  /// A run ended: finished, cancelled or failed (ok is true only for finished).
  void runEnded(bool ok);

 protected:
  void closeEvent(QCloseEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

 private:
  void buildLeftPane();
  /// Adds the workspaces beside synthesis (ui/main_window_workspaces.cpp): one call and its
  /// connections per workspace, each workspace living in ui/workspaces/<name>/.
  void addWorkspaces();
  void buildMenus();
  void connectRun();
  void rebuildRecentMenu();
  void updateBadge();
  void followCurrentMechanism();
  void markResultsOutdated();
  void updateTitle();
  /// New data (a file, a sample, a session's data): per-dataset settings reset, nothing runs.
  void onDataLoaded(const DataSource& source);
  void showStoredResults(const std::optional<core::session::SessionResults>& results);
  void updateExportFolders();
  void onFinished(const RunOutput& output);
  void showError(const ErrorReport& report);
  void openSessionWithDialog();
  void buildHelpMenu();
  void saveSessionAs();

  AppSettings appSettings_;
  ErrorPresenter errorPresenter_;
  RefusalPresenter refusalPresenter_;
  DataPanel* data_ = nullptr;
  MechanismPanel* mechanisms_ = nullptr;
  TuningPanel* tuning_ = nullptr;
  SamplerPanel* sampler_ = nullptr;
  ControlPane* controls_ = nullptr;
  GuaranteeBadge* badge_ = nullptr;
  QPushButton* runButton_ = nullptr;
  QPushButton* cancelButton_ = nullptr;
  QCheckBox* autoRun_ = nullptr;
  PlotsView* plots_ = nullptr;
  ResultsPanel* results_ = nullptr;
  ProgressPanel* progress_ = nullptr;
  WarningsPanel* warnings_ = nullptr;
  QTabWidget* bottomTabs_ = nullptr;
  SettingsCheck* check_ = nullptr;
  QTabWidget* workspaces_ = nullptr;
  QSplitter* mainSplitter_ = nullptr;
  QSplitter* centreSplitter_ = nullptr;
  QMenu* recentMenu_ = nullptr;
  RunController* run_ = nullptr;
  SettingsController* settings_ = nullptr;
  SessionController* session_ = nullptr;
  DocumentController* document_ = nullptr;
  DataFitCheck* fitCheck_ = nullptr;
  RunPresenter* presenter_ = nullptr;
  ExportActions* exports_ = nullptr;
  std::optional<RunOutput> lastOutput_;
  std::optional<core::session::SessionResults> storedResults_;
  /// Data was just loaded: the settings changes that follow belong to the load (no auto-run,
  /// nothing unsaved) until its choiceChanged() has been handled.
  bool freshData_ = false;
  bool resultsCurrent_ = false;     ///< lastOutput_ was made with the settings on screen
  quint64 settingsGeneration_ = 0;  ///< counts settings changes
  quint64 runGeneration_ = 0;       ///< settingsGeneration_ when the current run started
};

}  // namespace dpsynth::ui
