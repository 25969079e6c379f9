#include "ui/main_window.h"

#include <QApplication>
#include <QCheckBox>
#include <QCloseEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QIcon>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QStatusBar>
#include <QTabWidget>
#include <QUndoStack>

#include "ui/controllers/document_controller.h"
#include "ui/controllers/export_actions.h"
#include "ui/controllers/files_read.h"
#include "ui/controllers/session_controller.h"
#include "ui/dialogs/data_error_dialog.h"
#include "ui/dialogs/help_dialog.h"
#include "ui/document/studio_document.h"
#include "ui/panels/data_panel.h"
#include "ui/panels/results_panel.h"
#include "ui/services/data_service.h"
#include "ui/services/run_controller.h"
#include "ui/studio_resources.h"
#include "ui/widgets/input_guard.h"
#include "ui/widgets/screen_fit.h"
#include "ui/workspaces/synthesis/synthesis_workspace.h"

namespace dpsynth::ui {

namespace pipeline = core::pipeline;

namespace {
/// The window whose files filesTheStudioReads() lists (the last one made: tests make several).
const MainWindow*& filesReadOwner() {
  static const MainWindow* owner = nullptr;
  return owner;
}
}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
  ensureStudioResources();
  InputGuard::install();  // wheel and undo keys behave in every settings field
  setObjectName(QStringLiteral("studioWindow"));
  setWindowIcon(QIcon(QStringLiteral(":/dpsynth/icons/dpsynth.svg")));
  setAcceptDrops(true);
  errorPresenter_ = dialogPresenter(this);
  refusalPresenter_ = refusalDialogPresenter(this);

  document_ = new StudioDocument(this);
  services_.data = new DataService(document_, this);
  services_.run = new RunController(this);
  services_.notifier = new StudioNotifier(this);
  services_.appSettings = &appSettings_;
  session_ = new SessionController(document_, services_.data, this);
  // What a plot's own export, which is told nothing of the document, must never replace.
  setFilesTheStudioReads([this] {
    return QStringList{document_->source().file, document_->reference().path(),
                       session_->currentPath()};
  });
  filesReadOwner() = this;
  documentController_ = new DocumentController(
      document_, session_, [this](const QString& path) { return saveSession(path); }, this, this);
  exports_ = new ExportActions(this);
  exports_->setStoredResultsOnly(
      [this] { return !document_->lastOutput() && document_->sessionResults().has_value(); });
  services_.data->setLoadGuard(
      [this] { return documentController_->maybeSave(tr("loading other data")); });

  workspaces_ = new QTabWidget;
  workspaces_->setObjectName(QStringLiteral("workspaces"));
  workspaces_->setDocumentMode(true);
  synthesis_ = new SynthesisWorkspace(document_, services_);
  workspaces_->addTab(synthesis_, tr("Synthesis"));
  setCentralWidget(workspaces_);
  addWorkspaces();
  buildMenus();

  StudioNotifier* notifier = services_.notifier;
  connect(notifier, &StudioNotifier::messageShown, this,
          [this](const QString& m, int timeout) { statusBar()->showMessage(m, timeout); });
  connect(notifier, &StudioNotifier::errorShown, this,
          [this](const ErrorReport& r) { showError(r); });
  connect(notifier, &StudioNotifier::refusalShown, this, [this](const RefusalReport& r) {
    if (refusalPresenter_) refusalPresenter_(r);
  });
  connect(services_.data, &DataService::errorOccurred, this,
          [this](const ErrorReport& r) { showError(r); });
  connect(services_.data, &DataService::dataInstalled, this, [this](const DataSource& source) {
    if (!source.file.isEmpty() && source.sample.isEmpty()) {
      appSettings_.addRecentFile(source.file);
      rebuildRecentMenu();
    }
    updateTitle();
    updateExportFolders();
  });
  connect(services_.data, &DataService::loadEnded, this, [this](const QString& file, bool loaded) {
    // A recent file that is gone leaves the menu.
    if (!loaded && !file.isEmpty() && !QFileInfo::exists(file) &&
        appSettings_.recentFiles().contains(file)) {
      appSettings_.removeRecentFile(file);
      rebuildRecentMenu();
    }
  });
  connect(documentController_, &DocumentController::changed, this, [this] { updateTitle(); });
  connect(session_, &SessionController::errorOccurred, this,
          [this](const ErrorReport& r) { showError(r); });
  connect(session_, &SessionController::message, this,
          [notifier](const QString& m) { notifier->message(m); });
  connect(session_, &SessionController::dataChanged, this, [this](const QString& why) {
    showError({tr("Data changed since the session was saved"),
               document_->source().file,
               0,
               {},
               why,
               tr("Check that this is the data you meant; results will not reproduce the "
                  "saved analysis.")});
  });
  connect(session_, &SessionController::pathChanged, this, [this](const QString& path) {
    // Sessions are recent files too (Open recent listed data files only).
    if (!path.isEmpty()) {
      appSettings_.addRecentFile(path);
      rebuildRecentMenu();
    }
    exports_->setSessionPath(path);
    updateTitle();
    updateExportFolders();
  });
  connect(session_, &SessionController::opened, this, [this] {
    services_.run->autoRunTimer()->stop();  // the session's settings are not an edit
  });
  connect(exports_, &ExportActions::message, this,
          [notifier](const QString& m) { notifier->message(m); });
  connect(exports_, &ExportActions::errorOccurred, this,
          [this](const ErrorReport& r) { showError(r); });

  resize(1500, 950);
  restoreGeometry(appSettings_.windowGeometry());
  synthesis_->restoreLayout();
  fitToScreen(this);  // a restored or default size may not fit a small or scaled screen
  synthesis_->fitHeight(height());
  document_->setClean();
  updateTitle();
  updateExportFolders();
  statusBar()->showMessage(tr("Ready"));
}

MainWindow::~MainWindow() {
  if (filesReadOwner() == this) {
    setFilesTheStudioReads({});
    filesReadOwner() = nullptr;
  }
}

void MainWindow::buildMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addAction(QIcon(QStringLiteral(":/dpsynth/icons/open.svg")), tr("&Open data…"),
                  QKeySequence::Open, this, [this] { synthesis_->dataPanel()->openWithDialog(); });
  QMenu* samples =
      file->addMenu(QIcon(QStringLiteral(":/dpsynth/icons/sample.svg")), tr("Open &sample"));
  for (const QString& kind : DataService::sampleKinds()) {
    samples->addAction(kind, this, [this, kind] {
      if (services_.data->mayLoad()) services_.data->loadSample(kind);
    });
  }
  recentMenu_ = file->addMenu(tr("Open &recent"));
  rebuildRecentMenu();
  file->addSeparator();
  file->addAction(tr("&New session"), QKeySequence::New, this, [this] { newSession(); });
  file->addAction(tr("Open session…"), this, [this] { openSessionWithDialog(); });
  file->addAction(tr("&Save session"), QKeySequence::Save, this,
                  [this] { documentController_->save(); });
  file->addAction(tr("Save session &as…"), QKeySequence::SaveAs, this,
                  [this] { documentController_->saveAs(); });
  file->addSeparator();
  const auto lastOutput = [this]() -> const RunOutput* {
    return document_->lastOutput() ? &*document_->lastOutput() : nullptr;
  };
  file->addAction(tr("Export &all…"), QKeySequence(Qt::CTRL | Qt::Key_E), this,
                  [this, lastOutput] { exports_->exportAllWithDialog(lastOutput()); });
  file->addAction(tr("Export results CSV…"), this,
                  [this] { synthesis_->resultsPanel()->exportWithDialog(); });
  file->addAction(tr("Export synthetic data…"), this, [this, lastOutput] {
    exports_->exportSyntheticWithDialog(lastOutput(), document_->currentMechanism(),
                                        document_->settings().syntheticDatasets);
  });
  file->addAction(tr("Export plots…"), this, [this] {
    exports_->exportPlotsWithDialog(synthesis_->plotsView(), document_->source(),
                                    document_->reference().path());
  });
  file->addSeparator();
  // Explicit: QKeySequence::Quit is empty on some platforms. close() asks about unsaved work.
  file->addAction(tr("&Quit"), QKeySequence(Qt::CTRL | Qt::Key_Q), this, [this] { close(); });

  QMenu* edit = menuBar()->addMenu(tr("&Edit"));
  QAction* undo = document_->undoStack()->createUndoAction(this, tr("&Undo"));
  undo->setShortcut(QKeySequence::Undo);
  QAction* redo = document_->undoStack()->createRedoAction(this, tr("&Redo"));
  // Each key once: the platform's Redo keys already hold Ctrl+Shift+Z on some desktops, and a
  // key listed twice is an ambiguous shortcut that never fires.
  QList<QKeySequence> redoKeys{QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z),
                               QKeySequence(Qt::CTRL | Qt::Key_Y)};
  for (const QKeySequence& key : QKeySequence::keyBindings(QKeySequence::Redo)) {
    if (!redoKeys.contains(key)) redoKeys << key;
  }
  redo->setShortcuts(redoKeys);
  edit->addAction(undo);
  edit->addAction(redo);
  edit->addSeparator();
  edit->addAction(tr("&Copy results"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C), this,
                  [this] { synthesis_->resultsPanel()->copyToClipboard(); });

  QMenu* runMenu = menuBar()->addMenu(tr("&Run"));
  runMenu->addAction(tr("&Run"), QKeySequence(Qt::CTRL | Qt::Key_R), this,
                     [this] { synthesis_->startRun(true); });
  QAction* cancel = runMenu->addAction(tr("&Cancel"), QKeySequence(Qt::Key_Escape), this,
                                       [this] { synthesis_->cancelRun(); });
  cancel->setEnabled(services_.run->isRunning());  // like the Cancel button
  connect(services_.run, &RunController::busyChanged, cancel, &QAction::setEnabled);
  QAction* autoRun = runMenu->addAction(tr("&Auto-run"));
  autoRun->setCheckable(true);
  autoRun->setChecked(synthesis_->autoRunBox()->isChecked());
  connect(autoRun, &QAction::toggled, synthesis_->autoRunBox(), &QCheckBox::setChecked);
  connect(synthesis_->autoRunBox(), &QCheckBox::toggled, autoRun, &QAction::setChecked);

  buildHelpMenu();
}

void MainWindow::buildHelpMenu() {
  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("dpsynth &help"), QKeySequence::HelpContents, this, [this] {
    auto* dialog = new HelpDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
  });
  help->addAction(tr("&About"), this, [this] {
    QMessageBox::about(this, tr("About dpsynth studio"), HelpDialog::aboutText());
  });
}

void MainWindow::rebuildRecentMenu() {
  recentMenu_->clear();
  const QStringList files = appSettings_.recentFiles();
  for (const QString& path : files) {
    const bool session = path.endsWith(QStringLiteral(".dpsynth"), Qt::CaseInsensitive);
    recentMenu_
        ->addAction(QFileInfo(path).fileName(), this,
                    [this, path, session] {
                      if (session) {
                        if (!documentController_->maybeSave(tr("opening another session"))) return;
                        services_.run->cancel();
                        session_->openInBackground(path);
                      } else if (services_.data->mayLoad()) {
                        services_.data->openFile(path);
                      }
                    })
        ->setToolTip(path);
  }
  recentMenu_->setEnabled(!files.isEmpty());
}

void MainWindow::showSynthesis() { workspaces_->setCurrentWidget(synthesis_); }

void MainWindow::updateExportFolders() {
  // The session's folder, else the data's: never the read-only bundled samples' folder.
  synthesis_->setExportFolder(
      ExportActions::defaultFolder(session_->currentPath(), document_->source()));
}

void MainWindow::updateTitle() {
  // "analysis.dpsynth[*] — sample: nbmix — dpsynth studio"; Qt shows [*] as * when modified.
  QString title = documentController_->displayName() + QStringLiteral("[*]");
  if (document_->hasData()) title += QStringLiteral(" — ") + document_->source().displayName;
  title += QStringLiteral(" — ") + tr("dpsynth studio");
  setWindowTitle(title);
  setWindowModified(document_->isModified());
}

void MainWindow::setErrorPresenter(ErrorPresenter presenter) {
  errorPresenter_ = std::move(presenter);
}

void MainWindow::setRefusalPresenter(RefusalPresenter presenter) {
  refusalPresenter_ = presenter;
  exports_->setRefusalPresenter(std::move(presenter));
}

void MainWindow::showError(const ErrorReport& report) {
  statusBar()->showMessage(report.oneLine(), StudioNotifier::kStatusTimeoutMs);
  if (errorPresenter_) errorPresenter_(report);
}

void MainWindow::loadDefaults() {
  if (!services_.data->loadSample(QStringLiteral("nbmix"))) return;
  StudioSettings settings = document_->settings();
  settings.dataset.family = core::models::Family::negbin;
  settings.familyDeclared = true;
  settings.mechanisms = {pipeline::Mechanism::lwFinal};
  document_->replaceSettings(settings);
  document_->setCurrentMechanism(pipeline::Mechanism::lwFinal);
  services_.run->autoRunTimer()->stop();
  document_->setClean();
}

bool MainWindow::openSession(const QString& path) {
  if (!documentController_->maybeSave(tr("opening another session"))) return false;
  services_.run->cancel();
  return session_->open(path);
}

bool MainWindow::saveSession(const QString& path) { return session_->save(path); }

bool MainWindow::newSession() {
  if (!documentController_->maybeSave(tr("starting a new session"))) return false;
  services_.run->cancel();
  StudioSettings defaults;
  defaults.dataset = document_->settings().dataset;
  defaults.familyDeclared = document_->settings().familyDeclared;
  defaults.tuning = defaultTuning();
  defaults.run = defaultRunSettings();
  defaults.mechanisms = {pipeline::Mechanism::lwFinal};
  document_->replaceSettings(defaults);
  document_->clearReference();
  document_->setCurrentMechanism(pipeline::Mechanism::lwFinal);
  document_->clearResults();
  synthesis_->resultsPanel()->setNote(tr("New session: press Run."));
  services_.run->autoRunTimer()->stop();
  session_->detach();  // Untitled, nothing unsaved
  document_->setClean();
  statusBar()->showMessage(tr("New session on %1").arg(document_->source().displayName),
                           StudioNotifier::kStatusTimeoutMs);
  return true;
}

void MainWindow::openSessionWithDialog() {
  if (!documentController_->maybeSave(tr("opening another session"))) return;
  const QString path = QFileDialog::getOpenFileName(this, tr("Open session"), {},
                                                    tr("dpsynth sessions (*.dpsynth)"));
  if (path.isEmpty()) return;
  services_.run->cancel();
  session_->openInBackground(path);  // the data file is read on the worker thread
}

void MainWindow::closeEvent(QCloseEvent* event) {
  // A run's results exist only once it ends: quitting in the middle loses them, so ask.
  if (services_.run->isRunning() &&
      QMessageBox::question(this, tr("A run is in progress"),
                            tr("The sampler is still running. Quit anyway? The run stops and "
                               "its results are lost."),
                            QMessageBox::Yes | QMessageBox::No,
                            QMessageBox::No) != QMessageBox::Yes) {
    event->ignore();
    return;
  }
  if (!documentController_->maybeSave(tr("quitting"))) {
    event->ignore();  // Cancel: everything stays as it was
    return;
  }
  services_.run->cancel();
  appSettings_.setWindowGeometry(saveGeometry());
  synthesis_->saveLayout();
  QMainWindow::closeEvent(event);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  const auto urls = event->mimeData()->urls();
  if (!urls.isEmpty() && urls.front().isLocalFile()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  const auto urls = event->mimeData()->urls();
  if (urls.isEmpty() || !urls.front().isLocalFile()) return;
  const QString path = urls.front().toLocalFile();
  if (path.endsWith(QStringLiteral(".dpsynth"), Qt::CaseInsensitive)) {
    if (!documentController_->maybeSave(tr("opening another session"))) return;
    services_.run->cancel();
    session_->openInBackground(path);
  } else if (services_.data->mayLoad()) {
    services_.data->openFile(path);
  }
  event->acceptProposedAction();
}

}  // namespace dpsynth::ui
