#pragma once
/// Runs core::pipeline::runMechanisms on a worker thread. The worker lives in a QThread (the
/// RunController owns both); the engine's observer callbacks, which arrive on the sampler's
/// chain threads, become queued signals carrying value snapshots. cancel() may be called from
/// any thread: it requests the run's std::stop_source directly rather than queueing a slot
/// behind the very run it should stop.
#include <QObject>
#include <stop_token>

#include "ui/document/run_types.h"
#include "ui/workers/run_stopper.h"

namespace dpsynth::ui {

class PipelineWorker : public QObject {
  Q_OBJECT

 public:
  static constexpr int kLipschitzIntervalMs = 200;

  explicit PipelineWorker(QObject* parent = nullptr);

  /// Queues a run on the worker's thread (call from any thread). A run still in progress is
  /// cancelled first: the new one starts as soon as the old one has stopped.
  void start(RunRequest request);
  /// Thread-safe: stops the current (and any queued) run at the engine's next check.
  void cancel();

 signals:
  void runStarted(const dpsynth::ui::RunStart& start);
  void stageStarted(const dpsynth::ui::StageEvent& event);
  void stageFinished(const dpsynth::ui::StageEvent& event);
  void progress(const dpsynth::ui::ChainProgress& progress);
  void draws(const dpsynth::ui::DrawBatch& batch);
  /// While a stage samples: its running Lipschitz bound, at most every kLipschitzIntervalMs
  /// (the first batch of draws of a stage is reported at once).
  void lipschitzUpdated(const dpsynth::ui::LipschitzSnapshot& snapshot);
  void finished(const dpsynth::ui::RunOutput& output);
  void cancelled(quint64 runId);
  /// Every exception of a run ends here, as text for the user.
  void failed(quint64 runId, const QString& message);

 private:
  /// Runs on the worker thread.
  void run(const RunRequest& request, std::stop_token stop);

  RunStopper stopper_;
};

/// Registers the snapshot types for queued connections (idempotent).
void registerRunTypes();

}  // namespace dpsynth::ui
