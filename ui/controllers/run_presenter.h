#pragma once
/// Shows a run as it happens: stage rows and progress bars, live traces and Lipschitz violins,
/// and at the end the results table and plots. Listens to the RunController only; the window
/// keeps what concerns the whole window (buttons, badge, status bar, errors).
#include <QObject>
#include <QStringList>
#include <functional>
#include <optional>

#include "ui/document/run_types.h"

namespace dpsynth::ui {

class PlotsView;
class ProgressPanel;
class ResultsPanel;
class RunController;

class RunPresenter : public QObject {
  Q_OBJECT

 public:
  RunPresenter(RunController* run, ProgressPanel* progress, ResultsPanel* results, PlotsView* plots,
               QObject* parent = nullptr);

  /// A run is about to start: fresh stage rows, the old table marked as the previous run's.
  /// targetEpsilon: the run's ε (drawn as ε/2 for strict-DP stages while it runs).
  /// strictBound: max(|L|, |U|) of the censored mechanisms' clamp at the target ε (0: none).
  void runStarting(std::optional<double> targetEpsilon, double strictBound = 0);
  /// Fills table, plots and summary from a finished run. current: the settings on screen are
  /// still the ones the run used (else the table is marked as outdated). warnings: how many
  /// the Warnings tab lists (the note says the same number). progress false: the progress
  /// pane keeps what it says (a later run's cancel or failure, when the previous run's results
  /// are shown again).
  void showOutput(const RunOutput& output, bool current, int warnings, bool progress = true);
  /// Marks the table as outdated (settings changed after the run).
  void showOutdated(const QString& why);

  /// "Finished in 1.2 s: 1 stage(s) run, 2 from the cache (unweighted, lw)".
  static QString summaryOf(const RunOutput& output);
  /// "run 3 · 14:02 · nbmix.csv": what the plots name as their run.
  static QString runLabelOf(const RunOutput& output);

 private:
  void stageFinished(const StageEvent& event);
  /// Draws a mechanism's Lipschitz violin (a finished stage's or a live snapshot's values),
  /// labelled with the stage they come from.
  void showLipschitz(const QString& mechanism, const QString& stage,
                     const std::vector<double>& perRecord, double max);
  /// Cancelled or failed: the live plots are captioned `label` ("cancelled run") and marked as
  /// an unfinished run's (`why`); an empty one loses its "run in progress" caption.
  void runEndedEarly(const QString& label, const QString& why);
  void appendDraws(const std::vector<DrawBatch>& batches);

  ProgressPanel* progress_;
  ResultsPanel* results_;
  PlotsView* plots_;
  std::optional<double> targetEpsilon_;
  double strictBound_ = 0;
  QStringList traceParameters_;
  int traceChains_ = 0;
};

}  // namespace dpsynth::ui
