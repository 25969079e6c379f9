#include "ui/main_window.h"

#include <QApplication>
#include <QCheckBox>
#include <QCloseEvent>
#include <QComboBox>
#include <QDateTime>
#include <QFileDialog>
#include <QFileInfo>
#include <QIcon>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QUndoStack>
#include <QVBoxLayout>

#include "core/pipeline/release_claim.h"
#include "core/privacy/size_release.h"
#include "ui/controllers/document_controller.h"
#include "ui/controllers/export_actions.h"
#include "ui/controllers/run_controller.h"
#include "ui/controllers/run_presenter.h"
#include "ui/controllers/data_fit_check.h"
#include "ui/controllers/session_controller.h"
#include "ui/controllers/settings_check.h"
#include "ui/controllers/settings_controller.h"
#include "ui/controllers/stored_results.h"
#include "ui/dialogs/data_error_dialog.h"
#include "ui/dialogs/help_dialog.h"
#include "ui/field_names.h"
#include "ui/models/csv_preview_model.h"
#include "ui/panels/control_pane.h"
#include "ui/panels/data_panel.h"
#include "ui/panels/mechanism_panel.h"
#include "ui/panels/progress_panel.h"
#include "ui/panels/results_panel.h"
#include "ui/panels/sampler_panel.h"
#include "ui/panels/tuning_panel.h"
#include "ui/panels/warnings_panel.h"
#include "ui/plots/lipschitz_weight_plot.h"
#include "ui/plots/plots_view.h"
#include "ui/studio_resources.h"
#include "ui/widgets/guarantee_badge.h"
#include "ui/widgets/input_guard.h"
#include "ui/widgets/screen_fit.h"

namespace dpsynth::ui {

namespace pipeline = core::pipeline;

namespace {

constexpr int kStatusTimeoutMs = 8000;

}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
  ensureStudioResources();
  InputGuard::install();  // wheel and undo keys behave in every settings field
  setObjectName(QStringLiteral("studioWindow"));
  setWindowIcon(QIcon(QStringLiteral(":/dpsynth/icons/dpsynth.svg")));
  setAcceptDrops(true);
  errorPresenter_ = dialogPresenter(this);
  refusalPresenter_ = refusalDialogPresenter(this);

  data_ = new DataPanel;
  mechanisms_ = new MechanismPanel;
  tuning_ = new TuningPanel;
  sampler_ = new SamplerPanel;
  plots_ = new PlotsView;
  results_ = new ResultsPanel;
  progress_ = new ProgressPanel;
  warnings_ = new WarningsPanel;
  run_ = new RunController(this);
  settings_ = new SettingsController(data_, mechanisms_, tuning_, sampler_, this);
  session_ = new SessionController(data_, settings_, this);
  document_ = new DocumentController(
      session_, [this](const QString& path) { return saveSession(path); }, this, this);
  fitCheck_ = new DataFitCheck(data_, settings_, tuning_, mechanisms_, this);
  data_->setLoadGuard([this] { return document_->maybeSave(tr("loading other data")); });
  presenter_ = new RunPresenter(
      run_, progress_, results_, plots_, [this] { return tuning_->tuning().epsilon; }, this);
  exports_ = new ExportActions(this);
  check_ = new SettingsCheck(mechanisms_, tuning_, this);

  bottomTabs_ = new QTabWidget;
  bottomTabs_->setDocumentMode(true);
  bottomTabs_->addTab(progress_, tr("Progress"));
  bottomTabs_->addTab(warnings_, tr("Warnings"));
  connect(warnings_, &WarningsPanel::countChanged, this, [this](int n) {
    bottomTabs_->setTabText(1, n > 0 ? tr("Warnings (%1)").arg(n) : tr("Warnings"));
  });
  auto* bottom = new QSplitter(Qt::Horizontal);
  bottom->addWidget(results_);
  bottom->addWidget(bottomTabs_);
  bottom->setStretchFactor(0, 3);
  bottom->setStretchFactor(1, 2);
  bottom->setSizes({880, 540});
  bottom->setChildrenCollapsible(false);
  centreSplitter_ = new QSplitter(Qt::Vertical);
  centreSplitter_->addWidget(plots_);
  centreSplitter_->addWidget(bottom);
  centreSplitter_->setStretchFactor(0, 3);
  centreSplitter_->setStretchFactor(1, 1);
  centreSplitter_->setSizes({650, 250});
  buildLeftPane();
  mainSplitter_ = new QSplitter(Qt::Horizontal);
  mainSplitter_->addWidget(controls_);
  mainSplitter_->addWidget(centreSplitter_);
  mainSplitter_->setStretchFactor(1, 1);
  workspaces_ = new QTabWidget;
  workspaces_->setObjectName(QStringLiteral("workspaces"));
  workspaces_->setDocumentMode(true);
  workspaces_->addTab(mainSplitter_, tr("Synthesis"));
  setCentralWidget(workspaces_);
  addWorkspaces();
  buildMenus();
  connectRun();

  connect(data_, &DataPanel::errorOccurred, this, [this](const ErrorReport& r) { showError(r); });
  connect(data_, &DataPanel::loaded, this, [this](const DataSource& s) { onDataLoaded(s); });
  connect(data_, &DataPanel::loadEnded, this, [this](const QString& file, bool loaded) {
    // A recent file that is gone leaves the menu.
    if (!loaded && !file.isEmpty() && !QFileInfo::exists(file) &&
        appSettings_.recentFiles().contains(file)) {
      appSettings_.removeRecentFile(file);
      rebuildRecentMenu();
    }
  });
  connect(data_, &DataPanel::choiceChanged, this, [this] {
    run_->resetCache();  // a different dataset or model: no stage can be reused
    markResultsOutdated();
    check_->check(settings_->current());
    if (freshData_) {
      // The end of a load: nothing runs on data the analyst has not looked at yet.
      freshData_ = false;
      run_->autoRunTimer()->stop();
      return;
    }
    run_->settingsChanged();
    if (!session_->isOpening()) document_->setModified();
  });
  connect(settings_->undoStack(), &QUndoStack::indexChanged, this, [this] {
    if (!freshData_ && !session_->isOpening()) document_->setModified();
  });
  connect(document_, &DocumentController::changed, this, [this] { updateTitle(); });
  connect(settings_, &SettingsController::settingsChanged, this, [this] {
    run_->settingsChanged();
    markResultsOutdated();
    check_->check(settings_->current());
  });
  connect(mechanisms_, &MechanismPanel::currentChanged, this, [this] {
    updateBadge();
    followCurrentMechanism();
  });
  connect(session_, &SessionController::errorOccurred, this,
          [this](const ErrorReport& r) { showError(r); });
  connect(session_, &SessionController::message, this,
          [this](const QString& m) { statusBar()->showMessage(m, kStatusTimeoutMs); });
  connect(session_, &SessionController::dataChanged, this, [this](const QString& why) {
    showError({tr("Data changed since the session was saved"),
               data_->source().file,
               0,
               {},
               why,
               tr("Check that this is the data you meant; results will not reproduce the "
                  "saved analysis.")});
  });
  connect(session_, &SessionController::pathChanged, this, [this](const QString& path) {
    exports_->setSessionPath(path);
    updateTitle();
    updateExportFolders();
  });
  connect(session_, &SessionController::opened, this,
          [this](const std::optional<core::session::SessionResults>& results) {
            run_->autoRunTimer()->stop();  // the session's settings are not an edit
            showStoredResults(results);
          });
  connect(settings_, &SettingsController::errorOccurred, this,
          [this](const ErrorReport& r) { showError(r); });
  const auto status = [this](const QString& m) { statusBar()->showMessage(m, kStatusTimeoutMs); };
  connect(results_, &ResultsPanel::message, this, status);
  connect(exports_, &ExportActions::message, this, status);
  connect(exports_, &ExportActions::errorOccurred, this,
          [this](const ErrorReport& r) { showError(r); });

  mechanisms_->setChecked({pipeline::Mechanism::lwFinal});
  mechanisms_->setCurrent(pipeline::Mechanism::lwFinal);
  settings_->undoStack()->clear();
  autoRun_->setChecked(appSettings_.autoRun());

  resize(1500, 950);
  restoreGeometry(appSettings_.windowGeometry());
  mainSplitter_->restoreState(appSettings_.splitterState(QStringLiteral("main")));
  centreSplitter_->restoreState(appSettings_.splitterState(QStringLiteral("centre")));
  fitToScreen(this);  // a restored or default size may not fit a small or scaled screen
  // On a short screen the results table needs more than a quarter of the height to show rows.
  if (height() < 760) centreSplitter_->setSizes({height() * 55 / 100, height() * 45 / 100});
  updateBadge();
  document_->setClean();
  updateTitle();
  updateExportFolders();
  check_->check(settings_->current());
  statusBar()->showMessage(tr("Ready"));
}

MainWindow::~MainWindow() = default;

void MainWindow::buildLeftPane() {
  controls_ = new ControlPane(data_, mechanisms_, tuning_, sampler_);
  badge_ = controls_->badge();
  runButton_ = controls_->runButton();
  cancelButton_ = controls_->cancelButton();
  autoRun_ = controls_->autoRunBox();
  connect(runButton_, &QPushButton::clicked, this, [this] { startRun(true); });
  connect(cancelButton_, &QPushButton::clicked, this, [this] { cancelRun(); });
  connect(autoRun_, &QCheckBox::toggled, this, [this](bool on) {
    run_->setAutoRun(on);
    appSettings_.setAutoRun(on);
  });
}

void MainWindow::buildMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addAction(QIcon(QStringLiteral(":/dpsynth/icons/open.svg")), tr("&Open CSV…"),
                  QKeySequence::Open, this, [this] { data_->openWithDialog(); });
  QMenu* samples =
      file->addMenu(QIcon(QStringLiteral(":/dpsynth/icons/sample.svg")), tr("Open &sample"));
  for (const QString& kind : DataPanel::sampleKinds()) {
    samples->addAction(kind, this, [this, kind] {
      if (data_->mayLoad()) data_->loadSample(kind);
    });
  }
  recentMenu_ = file->addMenu(tr("Open &recent"));
  rebuildRecentMenu();
  file->addSeparator();
  file->addAction(tr("&New session"), QKeySequence::New, this, [this] { newSession(); });
  file->addAction(tr("Open session…"), this, [this] { openSessionWithDialog(); });
  file->addAction(tr("&Save session"), QKeySequence::Save, this, [this] { document_->save(); });
  file->addAction(tr("Save session &as…"), QKeySequence::SaveAs, this, [this] { saveSessionAs(); });
  file->addSeparator();
  file->addAction(tr("Export &all…"), QKeySequence(Qt::CTRL | Qt::Key_E), this,
                  [this] { exports_->exportAllWithDialog(lastOutput_ ? &*lastOutput_ : nullptr); });
  file->addAction(tr("Export results CSV…"), this, [this] { results_->exportWithDialog(); });
  file->addAction(tr("Export synthetic data…"), this, [this] {
    exports_->exportSyntheticWithDialog(lastOutput_ ? &*lastOutput_ : nullptr,
                                        mechanisms_->current(), sampler_->syntheticDatasets());
  });
  file->addAction(tr("Export plots…"), this,
                  [this] { exports_->exportPlotsWithDialog(plots_, data_->source()); });
  file->addSeparator();
  // Explicit: QKeySequence::Quit is empty on some platforms. close() asks about unsaved work.
  file->addAction(tr("&Quit"), QKeySequence(Qt::CTRL | Qt::Key_Q), this, [this] { close(); });

  QMenu* edit = menuBar()->addMenu(tr("&Edit"));
  QAction* undo = settings_->undoStack()->createUndoAction(this, tr("&Undo"));
  undo->setShortcut(QKeySequence::Undo);
  QAction* redo = settings_->undoStack()->createRedoAction(this, tr("&Redo"));
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
                  [this] { results_->copyToClipboard(); });

  QMenu* runMenu = menuBar()->addMenu(tr("&Run"));
  runMenu->addAction(tr("&Run"), QKeySequence(Qt::CTRL | Qt::Key_R), this,
                     [this] { startRun(true); });
  runMenu->addAction(tr("&Cancel"), QKeySequence(Qt::Key_Escape), this, [this] { cancelRun(); });
  QAction* auto_ = runMenu->addAction(tr("&Auto-run"));
  auto_->setCheckable(true);
  connect(auto_, &QAction::toggled, autoRun_, &QCheckBox::setChecked);
  connect(autoRun_, &QCheckBox::toggled, auto_, &QAction::setChecked);

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
    recentMenu_
        ->addAction(QFileInfo(path).fileName(), this,
                    [this, path] {
                      if (data_->mayLoad()) data_->openFile(path);
                    })
        ->setToolTip(path);
  }
  recentMenu_->setEnabled(!files.isEmpty());
}

void MainWindow::connectRun() {
  connect(run_, &RunController::autoRunDue, this, [this] { startRun(false); });
  connect(run_, &RunController::busyChanged, controls_, &ControlPane::setBusy);
  connect(run_, &RunController::finished, this, [this](const RunOutput& o) { onFinished(o); });
  connect(run_, &RunController::cancelled, this, [this] {
    statusBar()->showMessage(tr("Run cancelled"), kStatusTimeoutMs);
    emit runEnded(false);
  });
  connect(run_, &RunController::failed, this, [this](const QString& message) {
    showError({tr("Run failed"), {}, 0, {}, withFieldNames(message), {}});
    emit runEnded(false);
  });
}

bool MainWindow::startRun(bool interactive) {
  const auto dataset = data_->dataset();
  QString problem;
  // A mechanism with a missing setting is marked in place and left out; the others run.
  const RunPlan plan = planRun(settings_->current());
  check_->check(settings_->current());
  if (!dataset) {
    problem = withFieldNames(data_->hasData() ? data_->problem() : tr("load data first"));
  } else {
    problem = plan.blocking.join(QStringLiteral("; "));
    if (problem.isEmpty() && !settings_->current().reproducible && !data_->familyDeclared())
      problem = tr("the family was suggested from the data being released; pick it in the Family "
                   "box to declare it (a release must not take it from the confidential values), "
                   "or make the run reproducible for a study");
  }
  if (!problem.isEmpty()) {
    statusBar()->showMessage(tr("Cannot run: %1").arg(problem), kStatusTimeoutMs);
    if (interactive) showError({tr("Cannot run"), {}, 0, {}, problem, {}});
    return false;
  }
  presenter_->runStarting();
  runGeneration_ = settingsGeneration_;
  run_->start(dataset, plan.settings, data_->source());
  statusBar()->showMessage(plan.skipped.isEmpty()
                               ? tr("Running…")
                               : tr("Running; left out: %1").arg(plan.skipped.join("; ")));
  return true;
}

void MainWindow::cancelRun() {
  run_->cancel();
  statusBar()->showMessage(tr("Cancelling…"));
}

void MainWindow::onFinished(const RunOutput& output) {
  lastOutput_ = output;
  storedResults_ = storedResultsOf(output, QDateTime::currentDateTimeUtc());
  document_->setModified();  // results worth keeping in the session
  resultsCurrent_ = runGeneration_ == settingsGeneration_;
  presenter_->showOutput(output, resultsCurrent_);
  warnings_->setRun(output);
  if (!resultsCurrent_) warnings_->setStale(true);
  updateBadge();
  followCurrentMechanism();
  statusBar()->showMessage(RunPresenter::summaryOf(output), kStatusTimeoutMs);
  // A DP mechanism that failed its diagnostics: say so now, not only at export time.
  const auto refused = refusalReportOf(*output.result, RefusalReport::When::run);
  if (!refused.empty() && refusalPresenter_) refusalPresenter_(refused);
  emit runEnded(true);
}

void MainWindow::markResultsOutdated() {
  // Never show a guarantee or utility for settings other than the ones on screen.
  if (resultsCurrent_) {
    presenter_->showOutdated(
        lastOutput_ || !storedResults_
            ? tr("Settings changed since this run: press Run to update.")
            : storedResultsNote(*storedResults_, data_->source().sha256, true));
    warnings_->setStale(true);
  }
  resultsCurrent_ = false;
  ++settingsGeneration_;
  updateBadge();
}

void MainWindow::updateBadge() {
  const auto current = mechanisms_->current();
  const StudioSettings settings = settings_->current();
  GuaranteeContext context;
  context.datasets = settings.syntheticDatasets;
  context.referenceWeights = settings.run.weightReference != nullptr;
  context.notForRelease = settings.reproducible;
  if (!settings.run.size.declaredRows &&
      core::privacy::sizeIsConfidential(settings.run.neighbours, settings.dataset.dropMissing))
    context.sizeEpsilon = settings.run.size.epsilon;
  context.tunedOnConfidential = settings.run.tunedOnConfidential;
  if (current && lastOutput_ && resultsCurrent_ && !run_->isRunning()) {
    for (const auto& m : lastOutput_->result->mechanisms) {
      if (m.config.mechanism != *current) continue;
      context.epsilon = m.epsilon;
      context.sizeEpsilon = core::pipeline::sizeEpsilon(m);
      context.referenceWeights = m.referenceWeights;
      context.notForRelease = m.notForRelease;
      context.refused = !m.refusals.empty();
    }
  }
  badge_->setGuarantee(current, settings.tuning, context);
}

void MainWindow::followCurrentMechanism() {
  // The per-mechanism plots show the mechanism selected in the list, when it has results.
  const auto current = mechanisms_->current();
  if (!current) return;
  QComboBox* selector = plots_->lipschitzWeightPlot()->mechanismSelector();
  const int index =
      selector->findText(QString::fromStdString(core::pipeline::mechanismName(*current)));
  if (index >= 0) plots_->lipschitzWeightPlot()->setCurrentMechanism(index);
}

void MainWindow::updateExportFolders() {
  // The session's folder, else the data's: never the read-only bundled samples' folder.
  const QString folder = ExportActions::defaultFolder(session_->currentPath(), data_->source());
  results_->setExportFolder(folder);
  plots_->setExportFolder(folder);
}

void MainWindow::updateTitle() {
  // "analysis.dpsynth[*] — sample: nbmix — dpsynth studio"; Qt shows [*] as * when modified.
  QString title = document_->displayName() + QStringLiteral("[*]");
  if (data_->hasData()) title += QStringLiteral(" — ") + data_->source().displayName;
  title += QStringLiteral(" — ") + tr("dpsynth studio");
  setWindowTitle(title);
  setWindowModified(document_->isModified());
}

void MainWindow::onDataLoaded(const DataSource& source) {
  if (!source.file.isEmpty() && source.sample.isEmpty()) {
    appSettings_.addRecentFile(source.file);
    rebuildRecentMenu();
  }
  freshData_ = true;  // until this load's choiceChanged(): see there
  run_->cancel();  // a run on the previous data must not draw over the new data's plots
  lastOutput_.reset();
  storedResults_.reset();
  resultsCurrent_ = false;
  results_->model()->clear();
  plots_->clearAll();
  warnings_->clear();
  // Settings on the old data's scale would silently misfit the new data.
  const QStringList reset = settings_->resetForNewData();
  QString note = tr("New data: press Run.");
  QString status = tr("Loaded %1: %2 rows")
                       .arg(source.displayName)
                       .arg(data_->previewModel()->table()->rows.size());
  if (!reset.isEmpty()) {
    const QString what = tr("reset to the family's defaults for the new data: %1")
                             .arg(reset.join(QStringLiteral(", ")));
    note += QLatin1Char(' ') + what.at(0).toUpper() + what.mid(1) + QLatin1Char('.');
    status += QStringLiteral(" · ") + what;
  }
  results_->setNote(note);
  updateTitle();
  updateExportFolders();
  statusBar()->showMessage(status, kStatusTimeoutMs);
}

void MainWindow::showStoredResults(const std::optional<core::session::SessionResults>& results) {
  storedResults_ = results;
  if (!results) return;
  const std::string& loaded = data_->source().sha256;
  const bool stale = storedResultsStale(*results, loaded);
  results_->model()->setResults(storedRows(*results), storedWarnings(*results));
  results_->model()->setStale(stale);
  results_->setNote(storedResultsNote(*results, loaded));
  drawStoredLipschitz(*results, plots_);
  resultsCurrent_ = !stale;  // a later settings change marks them outdated
}

void MainWindow::setErrorPresenter(ErrorPresenter presenter) {
  errorPresenter_ = std::move(presenter);
}

void MainWindow::setRefusalPresenter(RefusalPresenter presenter) {
  refusalPresenter_ = presenter;
  exports_->setRefusalPresenter(std::move(presenter));
}

void MainWindow::showError(const ErrorReport& report) {
  statusBar()->showMessage(report.oneLine(), kStatusTimeoutMs);
  if (errorPresenter_) errorPresenter_(report);
}

void MainWindow::loadDefaults() {
  if (!data_->loadSample(QStringLiteral("nbmix"))) return;
  auto spec = data_->choice();
  spec.family = core::models::Family::negbin;
  data_->setChoice(spec, data_->sdScale());
  mechanisms_->setChecked({pipeline::Mechanism::lwFinal});
  mechanisms_->setCurrent(pipeline::Mechanism::lwFinal);
  settings_->undoStack()->clear();
  run_->autoRunTimer()->stop();
  document_->setClean();
}

bool MainWindow::openSession(const QString& path) {
  if (!document_->maybeSave(tr("opening another session"))) return false;
  run_->cancel();
  return session_->open(path);
}

bool MainWindow::saveSession(const QString& path) {
  std::optional<core::session::SessionResults> results = storedResults_;
  // Results of settings other than the ones saved: stored, but marked stale on reopening.
  if (results && !resultsCurrent_) results->settingsChanged = true;
  return session_->save(path, results);
}

bool MainWindow::newSession() {
  if (!document_->maybeSave(tr("starting a new session"))) return false;
  run_->cancel();
  StudioSettings defaults;
  defaults.dataset = data_->choice();
  defaults.tuning = defaultTuning();
  defaults.run = defaultRunSettings();
  defaults.mechanisms = {pipeline::Mechanism::lwFinal};
  settings_->apply(defaults);
  mechanisms_->setCurrent(pipeline::Mechanism::lwFinal);
  lastOutput_.reset();
  storedResults_.reset();
  resultsCurrent_ = false;
  results_->model()->clear();
  results_->setNote(tr("New session: press Run."));
  plots_->clearAll();
  run_->autoRunTimer()->stop();
  session_->detach();  // Untitled, nothing unsaved
  document_->setClean();
  statusBar()->showMessage(tr("New session on %1").arg(data_->source().displayName),
                           kStatusTimeoutMs);
  return true;
}

void MainWindow::openSessionWithDialog() {
  if (!document_->maybeSave(tr("opening another session"))) return;
  const QString path = QFileDialog::getOpenFileName(this, tr("Open session"), {},
                                                    tr("dpsynth sessions (*.dpsynth)"));
  if (path.isEmpty()) return;
  run_->cancel();
  session_->openInBackground(path);  // the data file is read on the worker thread
}

void MainWindow::saveSessionAs() { document_->saveAs(); }

void MainWindow::closeEvent(QCloseEvent* event) {
  if (!document_->maybeSave(tr("quitting"))) {
    event->ignore();  // Cancel: everything stays as it was
    return;
  }
  run_->cancel();
  appSettings_.setWindowGeometry(saveGeometry());
  appSettings_.setSplitterState(QStringLiteral("main"), mainSplitter_->saveState());
  appSettings_.setSplitterState(QStringLiteral("centre"), centreSplitter_->saveState());
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
    if (!document_->maybeSave(tr("opening another session"))) return;
    run_->cancel();
    session_->openInBackground(path);
  } else if (data_->mayLoad()) {
    data_->openFile(path);
  }
  event->acceptProposedAction();
}

}  // namespace dpsynth::ui
