#pragma once
/// The studio window: menus, the workspace tabs and the status bar around one StudioDocument.
/// It creates the document and the services, builds each workspace from (document, services)
/// and shows what they report; workspaces never reach the window (none includes this header).
#include <QMainWindow>

#include "ui/app_settings.h"
#include "ui/dialogs/error_report.h"
#include "ui/dialogs/release_refused_dialog.h"
#include "ui/services/studio_services.h"

class QMenu;
class QTabWidget;

namespace dpsynth::ui {

class DocumentController;
class ExportActions;
class SessionController;
class StudioDocument;
class SynthesisWorkspace;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  StudioDocument* document() const { return document_; }
  const StudioServices& services() const { return services_; }
  /// The workspaces (tabs): "Synthesis" first, then Studies, Frontier and Analyze.
  QTabWidget* workspaces() const { return workspaces_; }
  SynthesisWorkspace* synthesis() const { return synthesis_; }
  /// Brings the synthesis workspace to the front.
  void showSynthesis();

  /// The start-up state: the NB-mixture sample, family negbin, lw-final checked.
  void loadDefaults();
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

  SessionController* sessionController() const { return session_; }
  DocumentController* documentController() const { return documentController_; }
  ExportActions* exportActions() const { return exports_; }

 protected:
  void closeEvent(QCloseEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

 private:
  /// Adds the workspaces beside synthesis (ui/main_window_workspaces.cpp), each built from
  /// (document, services) and living in ui/workspaces/<name>/.
  void addWorkspaces();
  void buildMenus();
  void buildHelpMenu();
  void rebuildRecentMenu();
  void updateTitle();
  void updateExportFolders();
  void showError(const ErrorReport& report);
  void openSessionWithDialog();

  AppSettings appSettings_;
  ErrorPresenter errorPresenter_;
  RefusalPresenter refusalPresenter_;
  StudioDocument* document_ = nullptr;
  StudioServices services_;
  QTabWidget* workspaces_ = nullptr;
  SynthesisWorkspace* synthesis_ = nullptr;
  QMenu* recentMenu_ = nullptr;
  SessionController* session_ = nullptr;
  DocumentController* documentController_ = nullptr;
  ExportActions* exports_ = nullptr;
};

}  // namespace dpsynth::ui
