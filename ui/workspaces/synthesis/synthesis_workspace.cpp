#include "ui/workspaces/synthesis/synthesis_workspace.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <algorithm>

#include "core/pipeline/release_claim.h"
#include "core/privacy/size_release.h"
#include "ui/app_settings.h"
#include "ui/controllers/data_fit_check.h"
#include "ui/controllers/run_presenter.h"
#include "ui/controllers/settings_check.h"
#include "ui/document/stored_results.h"
#include "ui/field_names.h"
#include "ui/models/results_table_model.h"
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
#include "ui/services/data_loader.h"
#include "ui/services/data_service.h"
#include "ui/services/run_controller.h"
#include "ui/widgets/guarantee_badge.h"
#include "ui/workspaces/synthesis/stored_plots.h"

namespace dpsynth::ui {

namespace {

/// The strict mechanisms' Δ_i lie within their clamp: its max(|L|, |U|) is their line in the
/// Lipschitz plot (ε/4 for beta and normal under replace-one, whose ε rests on U − L: an ε/2
/// line there suggested room that the clamp does not give). 0 without a target ε.
double strictLine(const StudioSettings& settings) {
  const auto& epsilon = settings.tuning.epsilon;
  if (!epsilon || !(*epsilon > 0)) return 0.0;
  return core::privacy::clampBound(
      core::privacy::censorInterval(settings.dataset.family, settings.run.neighbours, *epsilon));
}

}  // namespace

namespace pipeline = core::pipeline;

SynthesisWorkspace::SynthesisWorkspace(StudioDocument* document, const StudioServices& services,
                                       QWidget* parent)
    : QWidget(parent), document_(document), services_(services) {
  setObjectName(QStringLiteral("synthesisWorkspace"));
  data_ = new DataPanel(document_);
  mechanisms_ = new MechanismPanel(document_);
  tuning_ = new TuningPanel(document_);
  sampler_ = new SamplerPanel(document_);
  plots_ = new PlotsView;
  results_ = new ResultsPanel;
  progress_ = new ProgressPanel;
  warnings_ = new WarningsPanel;
  presenter_ = new RunPresenter(services_.run, progress_, results_, plots_, this);
  check_ = new SettingsCheck(mechanisms_, tuning_, this);
  fitCheck_ = new DataFitCheck(document_, tuning_, mechanisms_, this);

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
  controls_ = new ControlPane(data_, mechanisms_, tuning_, sampler_);
  connect(centreSplitter_, &QSplitter::splitterMoved, this, [this] { centreSizedByUser_ = true; });
  mainSplitter_ = new QSplitter(Qt::Horizontal);
  mainSplitter_->addWidget(controls_);
  mainSplitter_->addWidget(centreSplitter_);
  mainSplitter_->setStretchFactor(1, 1);
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(mainSplitter_);

  // Loading is the data service's; the panels only ask for it and show its progress.
  DataService* dataService = services_.data;
  dataService->dataLoader()->showOn(data_->loadIndicator());
  dataService->referenceLoader()->showOn(tuning_->referenceIndicator());
  connect(data_, &DataPanel::fileChosen, this, [dataService](const QString& path) {
    if (dataService->mayLoad()) dataService->openFile(path);
  });
  connect(data_, &DataPanel::sampleChosen, this, [dataService](const QString& kind) {
    if (dataService->mayLoad()) dataService->loadSample(kind);
  });
  connect(tuning_, &TuningPanel::referenceChosen, this, [this](const QString& path) {
    services_.data->openReference(path, document_->settings().dataset);
  });
  connect(tuning_, &TuningPanel::referenceCleared, document_, &StudioDocument::clearReference);
  connect(
      dataService, &DataService::dataInstalled, this,
      [this](const DataSource& source, const QStringList& reset) {
        QString note = tr("New data: press Run.");
        QString status = document_->table()->rows.size() == 1
                             ? tr("Loaded %1: 1 row").arg(source.displayName)
                             : tr("Loaded %1: %2 rows")
                                   .arg(source.displayName)
                                   .arg(document_->table()->rows.size());
        if (!reset.isEmpty()) {
          const QString what = tr("reset to the defaults for the new data: %1")
                                   .arg(reset.join(QStringLiteral(", ")));
          note += QLatin1Char(' ') + what.at(0).toUpper() + what.mid(1) + QLatin1Char('.');
          status += QStringLiteral(" · ") + what;
        }
        results_->setNote(note);
        services_.notifier->message(status);
      });

  connect(controls_->runButton(), &QPushButton::clicked, this, [this] { startRun(true); });
  connect(controls_->cancelButton(), &QPushButton::clicked, this, [this] { cancelRun(); });
  connect(controls_->autoRunBox(), &QCheckBox::toggled, this, [this](bool on) {
    services_.run->setAutoRun(on);
    if (services_.appSettings) services_.appSettings->setAutoRun(on);
  });
  connect(results_, &ResultsPanel::message, this,
          [this](const QString& m) { services_.notifier->message(m); });
  connectRun();
  connect(document_, &StudioDocument::changed, this,
          [this](StudioDocument::Parts parts) { onDocumentChanged(parts); });
  // Auto-run follows the analyst's edits (and their undo), never a load or a session.
  connect(document_, &StudioDocument::edited, services_.run, &RunController::settingsChanged);

  controls_->autoRunBox()->setChecked(services_.appSettings && services_.appSettings->autoRun());
  services_.run->setAutoRun(controls_->autoRunBox()->isChecked());
  updateBadge();
  check_->check(document_->current());
}

GuaranteeBadge* SynthesisWorkspace::guaranteeBadge() const { return controls_->badge(); }
QPushButton* SynthesisWorkspace::runButton() const { return controls_->runButton(); }
QPushButton* SynthesisWorkspace::cancelButton() const { return controls_->cancelButton(); }
QCheckBox* SynthesisWorkspace::autoRunBox() const { return controls_->autoRunBox(); }

void SynthesisWorkspace::setExportFolder(const QString& folder) {
  results_->setExportFolder(folder);
  plots_->setExportFolder(folder);
}

void SynthesisWorkspace::restoreLayout() {
  if (!services_.appSettings) return;
  mainSplitter_->restoreState(services_.appSettings->splitterState(QStringLiteral("main")));
  centreSplitter_->restoreState(services_.appSettings->splitterState(QStringLiteral("centre")));
}

void SynthesisWorkspace::saveLayout() const {
  if (!services_.appSettings) return;
  services_.appSettings->setSplitterState(QStringLiteral("main"), mainSplitter_->saveState());
  services_.appSettings->setSplitterState(QStringLiteral("centre"), centreSplitter_->saveState());
}

void SynthesisWorkspace::fitHeight(int windowHeight) {
  if (windowHeight < 760)
    centreSplitter_->setSizes({windowHeight * 55 / 100, windowHeight * 45 / 100});
}

void SynthesisWorkspace::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  // On a short window (a 720-line screen, or any screen at a scale factor) the table needs
  // more than half the height for its rows; the splitter alone gives it a quarter (stretch),
  // two rows at 1.5x. A divider the analyst moved stays where it was put.
  if (!centreSizedByUser_ && height() < 700) {
    const int total = centreSplitter_->height();
    centreSplitter_->setSizes({total * 42 / 100, total - total * 42 / 100});
  }
}

void SynthesisWorkspace::connectRun() {
  RunController* run = services_.run;
  connect(run, &RunController::autoRunDue, this, [this] { startRun(false); });
  connect(run, &RunController::busyChanged, controls_, &ControlPane::setBusy);
  connect(run, &RunController::busyChanged, this, [this] { updateBadge(); });
  connect(run, &RunController::finished, this, [this](const RunOutput& o) { onFinished(o); });
  connect(run, &RunController::cancelled, this, [this] {
    showPreviousRun(tr("Run cancelled"));
    services_.notifier->message(tr("Run cancelled"));
    emit runEnded(false);
  });
  connect(run, &RunController::failed, this, [this](const QString& message) {
    showPreviousRun(tr("Run failed"));
    services_.notifier->error({tr("Run failed"), {}, 0, {}, withFieldNames(message), {}});
    emit runEnded(false);
  });
}

void SynthesisWorkspace::showPreviousRun(const QString& ended) {
  // The live plots held the unfinished run while the table kept the previous one: show the
  // previous run's plots again beside its table, with the progress pane's account of the end.
  if (!document_->lastOutput()) return;  // no draws to show (none, or a reopened session's)
  const bool current = document_->resultsCurrent();
  presenter_->showOutput(*document_->lastOutput(), true, warnings_->count(), false);
  shownResults_ = document_->resultsSerial();
  viewStale_ = !current;
  if (!current) presenter_->showOutdated(document_->resultsNote());
  results_->setNote(current ? tr("%1: the table and plots show the previous run, whose settings "
                                 "are the current ones.")
                                  .arg(ended)
                            : tr("%1: the table and plots show the previous run. %2")
                                  .arg(ended, document_->resultsNote()));
}

bool SynthesisWorkspace::startRun(bool interactive) {
  const auto dataset = document_->dataset();
  const StudioSettings settings = document_->current();
  QString problem;
  // A mechanism with a missing setting is marked in place and left out; the others run.
  const RunPlan plan = planRun(settings);
  check_->check(settings);
  if (!dataset) {
    problem =
        withFieldNames(document_->hasData() ? document_->dataProblem() : tr("load data first"));
  } else {
    problem = plan.blocking.join(QStringLiteral("; "));
    if (problem.isEmpty() && !settings.reproducible && !document_->familyDeclared())
      problem =
          tr("the family is not declared; pick it in the Family box to declare it (a release "
             "must not take it from the confidential values), or make the run reproducible for "
             "a study");
  }
  if (!problem.isEmpty()) {
    services_.notifier->message(tr("Cannot run: %1").arg(problem));
    if (interactive) services_.notifier->error({tr("Cannot run"), {}, 0, {}, problem, {}});
    return false;
  }
  presenter_->runStarting(settings.tuning.epsilon, strictLine(settings));
  document_->runStarting();
  services_.run->start(dataset, plan.settings, document_->source());
  services_.notifier->message(plan.skipped.isEmpty()
                                  ? tr("Running…")
                                  : tr("Running; left out: %1").arg(plan.skipped.join("; ")));
  return true;
}

void SynthesisWorkspace::cancelRun() {
  if (!services_.run->isRunning()) return;  // Esc closing a popup, or nothing to stop
  services_.run->cancel();
  services_.notifier->message(tr("Cancelling…"));
}

void SynthesisWorkspace::onFinished(const RunOutput& output) {
  document_->setRunOutput(output);
  services_.notifier->message(RunPresenter::summaryOf(output));
  // A DP mechanism that failed its diagnostics: say so now, not only at export time.
  const auto refused = refusalReportOf(*output.result, RefusalReport::When::run);
  if (!refused.empty()) services_.notifier->refusal(refused);
  emit runEnded(true);
}

void SynthesisWorkspace::onDocumentChanged(StudioDocument::Parts parts) {
  if (parts & StudioDocument::kData) {
    services_.run->cancel();  // a run on the previous data must not draw over the new data
    services_.run->resetCache();
    progress_->reset();  // the previous data's stages
    progress_->setSummary(tr("No run on these data yet."));
  } else if (parts & StudioDocument::kChoice) {
    services_.run->resetCache();  // a different dataset or model: no stage can be reused
  }
  if (parts & StudioDocument::kSettingsParts) check_->check(document_->current());
  if (parts & (StudioDocument::kSettingsParts | StudioDocument::kResults)) renderResults();
  if (parts &
      (StudioDocument::kSettingsParts | StudioDocument::kResults | StudioDocument::kFocus)) {
    updateBadge();
  }
  if (parts & (StudioDocument::kResults | StudioDocument::kFocus)) followCurrentMechanism();
}

void SynthesisWorkspace::renderResults() {
  const bool current = document_->resultsCurrent();
  const quint64 serial = document_->resultsSerial();
  const bool fresh = serial != shownResults_;
  shownResults_ = serial;
  // Only a reopened session's table is shown without its draws: its empty plots say why.
  plots_->setEmptyText(!document_->lastOutput() && document_->storedResults()
                           ? tr("The session keeps the results table, not the draws this plot "
                                "needs: press Run to draw it.")
                           : QString());
  if (const auto& output = document_->lastOutput()) {
    // Undo back to the run's settings makes it current again: its table and plots lose the
    // outdated mark (they kept it before).
    if (fresh || (current && viewStale_)) {
      if (fresh) warnings_->setRun(*output);
      // Shown again (not fresh): the progress pane keeps its account of the last run started
      // (a cancel's bars stayed under the restored run's summary).
      presenter_->showOutput(*output, true, warnings_->count(), fresh);
      viewStale_ = false;
    }
  } else if (const auto& stored = document_->storedResults()) {
    if (fresh) {
      results_->model()->setResults(storedRows(*stored), storedWarnings(*stored));
      plots_->clearAll();
      drawStoredLipschitz(*stored, plots_, strictLine(document_->settings()));
      plots_->plot(PlotsView::kLipschitz)
          ->setRunLabel(tr("session results · run finished %1").arg(storedResultsTime(*stored)));
      warnings_->setStored(*stored);
      progress_->reset();
      progress_->setSummary(tr("The results shown come from the session file (run finished %1). "
                               "Its stages were not kept: the next Run samples them again.")
                                .arg(storedResultsTime(*stored)));
    }
    results_->model()->setStale(!current);
    results_->setNote(document_->resultsNote());
  } else if (fresh) {
    results_->model()->clear();
    plots_->clearAll();
    warnings_->clear();
  }
  if (!current && (document_->lastOutput() || document_->storedResults())) {
    presenter_->showOutdated(document_->resultsNote());
    viewStale_ = true;
    warnings_->setStale(true);
  } else {
    warnings_->setStale(false);
  }
}

void SynthesisWorkspace::updateBadge() {
  // The badge states the guarantee of what will run: the highlighted mechanism when it is
  // checked, else the first checked one (it described a highlighted but unchecked censor-uw
  // beside a run of lw and sw).
  auto current = document_->currentMechanism();
  const auto& checked = document_->settings().mechanisms;
  if (current && std::find(checked.begin(), checked.end(), *current) == checked.end())
    current = checked.empty() ? std::nullopt : std::optional(checked.front());
  const StudioSettings settings = document_->current();
  GuaranteeContext context;
  context.datasets = settings.syntheticDatasets;
  context.referenceWeights = settings.run.weightReference != nullptr;
  context.notForRelease = settings.reproducible;
  if (!settings.run.size.declaredRows &&
      core::privacy::sizeIsConfidential(settings.run.neighbours, settings.dataset.dropMissing))
    context.sizeEpsilon = settings.run.size.epsilon;
  context.tunedOnConfidential = settings.run.tunedOnConfidential;
  const auto& output = document_->lastOutput();
  const auto& stored = document_->storedResults();
  if (current && !output && stored && document_->resultsCurrent() && !services_.run->isRunning()) {
    // A reopened session's table: its ε_x, as the table shows it (rows[0] is the data's row).
    const std::string name = pipeline::mechanismName(*current);
    for (std::size_t i = 1; i < stored->rows.size(); ++i) {
      if (stored->rows[i].mechanism == name) context.epsilon = stored->rows[i].epsilon;
    }
  }
  if (current && output && document_->resultsCurrent() && !services_.run->isRunning()) {
    for (const auto& m : output->result->mechanisms) {
      if (m.config.mechanism != *current) continue;
      context.epsilon = m.epsilon;
      context.sizeEpsilon = pipeline::sizeEpsilon(m);
      context.referenceWeights = m.referenceWeights;
      context.notForRelease = m.notForRelease;
      context.refused = !m.refusals.empty();
    }
  }
  controls_->badge()->setGuarantee(current, settings.tuning, context);
}

void SynthesisWorkspace::followCurrentMechanism() {
  // The per-mechanism plots show the mechanism selected in the list, when it has results.
  const auto current = document_->currentMechanism();
  if (!current) return;
  QComboBox* selector = plots_->lipschitzWeightPlot()->mechanismSelector();
  const int index = selector->findText(QString::fromStdString(pipeline::mechanismName(*current)));
  if (index >= 0) plots_->lipschitzWeightPlot()->setCurrentMechanism(index);
}

}  // namespace dpsynth::ui
