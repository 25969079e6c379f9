#include "ui/controllers/run_presenter.h"

#include <QTime>

#include "ui/panels/progress_panel.h"
#include "ui/panels/results_panel.h"
#include "ui/plots/plot_widget.h"
#include "ui/plots/plots_view.h"
#include "ui/plots/trace_plot.h"
#include "ui/services/run_controller.h"

namespace dpsynth::ui {

namespace pipeline = core::pipeline;

RunPresenter::RunPresenter(RunController* run, ProgressPanel* progress, ResultsPanel* results,
                           PlotsView* plots, QObject* parent)
    : QObject(parent), progress_(progress), results_(results), plots_(plots) {
  connect(run, &RunController::runStarted, this, [this](const RunStart& start) {
    traceParameters_ = start.parameterNames;
    traceChains_ = start.chains;
  });
  connect(run, &RunController::stageStarted, this, [this](const StageEvent& e) {
    progress_->stageStarted(e);
    if (!e.fromCache) {
      plots_->clearTraces(traceParameters_, traceChains_);
      plots_->setLiveTraceSource(e.mechanism, e.stage);
    }
  });
  connect(run, &RunController::stageFinished, this,
          [this](const StageEvent& e) { stageFinished(e); });
  connect(run, &RunController::lipschitzUpdated, this, [this](const LipschitzSnapshot& l) {
    if (l.perRecord) showLipschitz(l.mechanism, l.stage, *l.perRecord, l.max);
  });
  connect(run, &RunController::progressMerged, progress_, &ProgressPanel::updateProgress);
  connect(run, &RunController::drawsMerged, this,
          [this](const std::vector<DrawBatch>& batches) { appendDraws(batches); });
  connect(run, &RunController::cancelled, this, [this] {
    progress_->markStopped(tr("cancelled"));
    progress_->setSummary(
        tr("Run cancelled: no results. Stages it finished are kept in the cache and reused by "
           "the next run with the same settings."));
    runEndedEarly(tr("cancelled run"), tr("run cancelled: partial values of an unfinished run"));
    results_->setNote(results_->model()->isEmpty()
                          ? tr("Run cancelled.")
                          : tr("Run cancelled: the table shows the previous run's results."));
  });
  connect(run, &RunController::failed, this, [this](const QString& message) {
    progress_->markStopped(tr("failed"));
    progress_->setSummary(tr("Run failed."));
    runEndedEarly(tr("failed run"), tr("run failed: partial values of an unfinished run"));
    results_->setNote(tr("Run failed: %1").arg(message));
  });
}

void RunPresenter::runEndedEarly(const QString& label, const QString& why) {
  // The live plots hold values of a run that will never have results: say so, in the caption
  // ("run in progress" until now) and the banner.
  plots_->endRun();
  if (auto* traces = qobject_cast<TracePlot*>(plots_->plot(PlotsView::kTraces))) traces->endLive();
  for (PlotsView::Tab tab : {PlotsView::kLipschitz, PlotsView::kTraces}) {
    PlotWidget* plot = plots_->plot(tab);
    const bool drawn = plot->pointCount() > 0;
    plot->setRunLabel(drawn ? label : QString());
    if (drawn) plot->setStale(true, why);
  }
}

QString RunPresenter::runLabelOf(const RunOutput& output) {
  return tr("run %1 · %2 · %3")
      .arg(output.runId)
      .arg((output.finishedAt.isValid() ? output.finishedAt : QTime::currentTime())
               .toString(QStringLiteral("HH:mm")),
           output.source.displayName.isEmpty() ? tr("data") : output.source.displayName);
}

void RunPresenter::runStarting(std::optional<double> targetEpsilon, double strictBound) {
  targetEpsilon_ = targetEpsilon;
  strictBound_ = strictBound;
  plots_->beginRun(tr("previous run, shown while a new run is in progress"));
  progress_->reset();
  results_->model()->setStale(true);
  results_->setNote(results_->model()->isEmpty() ? tr("Running…")
                                                 : tr("Running… (showing the previous run)"));
}

void RunPresenter::stageFinished(const StageEvent& e) {
  progress_->stageFinished(e);
  if (!e.result) return;
  const auto& lip = e.result->lipschitz;
  showLipschitz(e.mechanism, e.stage,
                {lip.perRecord.data(), lip.perRecord.data() + lip.perRecord.size()}, lip.max);
}

void RunPresenter::showLipschitz(const QString& mechanism, const QString& stage,
                                 const std::vector<double>& perRecord, double max) {
  bool strict = false;
  double epsilon = 2.0 * max;
  try {
    const auto m = pipeline::parseMechanism(mechanism.toStdString());
    strict = pipeline::guaranteeOf(m) == pipeline::Guarantee::DP;
    if (strict && targetEpsilon_) epsilon = *targetEpsilon_;
  } catch (const std::invalid_argument&) {
    // Not a mechanism name: draw it as approximate DP.
  }
  plots_->updateLipschitz(mechanism, stage, perRecord, strict, epsilon, max, strictBound_);
}

void RunPresenter::appendDraws(const std::vector<DrawBatch>& batches) {
  for (const auto& b : batches) {
    try {
      plots_->appendDraws(b.chain, b.firstDraw, *b.values);
    } catch (const std::invalid_argument&) {
      // A batch of a stage whose traces were already replaced: nothing to draw.
    }
  }
}

QString RunPresenter::summaryOf(const RunOutput& output) {
  QString summary = tr("Finished in %1: %2 stage(s) run, %3 from the cache")
                        .arg(formatDuration(output.seconds))
                        .arg(output.cacheMisses)
                        .arg(output.cacheHits);
  if (!output.cachedStages.isEmpty()) summary += tr(" (%1)").arg(output.cachedStages.join(", "));
  // Running a release again gives the same result: say why, where it might read as a fault.
  if (output.settings.release && output.cacheHits > 0)
    summary += tr("; a release is drawn once for its data and settings");
  return summary;
}

void RunPresenter::showOutput(const RunOutput& output, bool current, int warnings, bool progress) {
  // The perturbed histogram samples nothing, so no stage announced it: list it too, so that
  // every checked mechanism is in the stage list.
  for (const auto& m : output.result->mechanisms) {
    if (!progress) break;
    if (!m.ph) continue;
    StageEvent event;
    event.runId = output.runId;
    event.mechanism = QString::fromStdString(pipeline::mechanismName(m.config.mechanism));
    event.stage = tr("noisy histogram (no sampling)");
    progress_->stageStarted(event);
    progress_->stageFinished(event);
  }
  results_->model()->setResults(output.table, output.warnings);
  const auto& y = output.dataset->y;
  const auto [lower, upper] = core::models::outcomeSupport(output.dataset->family);
  plots_->setResults({y.data(), y.data() + y.size()},
                     core::models::isCountFamily(output.dataset->family), output.plots, lower,
                     upper);
  plots_->setRunLabel(runLabelOf(output));
  plots_->setStale(false);
  if (progress) progress_->setSummary(summaryOf(output) + '.');
  // A release's seed is secret (SPEC §0): only a reproducible run's seed is ever shown.
  QString mode =
      output.settings.release
          ? tr("Release run (secret seed from the operating system)")
          : tr("NOT FOR RELEASE: reproducible run with seed %1").arg(output.settings.nuts.seed.lo);
  QStringList refused;
  for (const auto& m : output.result->mechanisms) {
    if (!m.refusals.empty())
      refused << QString::fromStdString(core::pipeline::mechanismName(m.config.mechanism));
  }
  if (!refused.isEmpty()) {
    mode += tr(" · release refused for %1 (diagnostics)").arg(refused.join(QStringLiteral(", ")));
  }
  results_->setNote(warnings > 0
                        ? tr("%1 · %2 warning(s): see the Warnings tab").arg(mode).arg(warnings)
                        : tr("%1; utility from one synthetic dataset per mechanism").arg(mode));
  if (!current) showOutdated(tr("Settings changed during this run: press Run to update."));
}

void RunPresenter::showOutdated(const QString& why) {
  plots_->setStale(true, why);
  if (results_->model()->isEmpty()) return;
  results_->model()->setStale(true);
  results_->setNote(why);
}

}  // namespace dpsynth::ui
