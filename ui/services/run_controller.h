#pragma once
/// Owns the worker thread, the stage cache of the loaded dataset and the run's timers: a 40 ms
/// timer that merges the worker's progress and draw snapshots into one GUI update, and the
/// 400 ms debounce of auto-run. The window only calls start()/cancel() and listens.
#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <memory>
#include <vector>

#include "ui/document/run_types.h"
#include "ui/studio_settings.h"

class QThread;

namespace dpsynth::ui {

class PipelineWorker;

class RunController : public QObject {
  Q_OBJECT

 public:
  static constexpr int kMergeIntervalMs = 40;
  static constexpr int kAutoRunDelayMs = 400;

  explicit RunController(QObject* parent = nullptr);
  /// cancel → quit() → wait(): never leaves a thread running.
  ~RunController() override;

  /// Starts a run (cancelling one in progress) and returns its id.
  quint64 start(std::shared_ptr<const core::data::Dataset> dataset, const StudioSettings& settings,
                const DataSource& source = {});
  /// Stops the current run. The thread-safe stop request reaches the engine at once; the
  /// window becomes idle when the worker confirms (cancelled()).
  void cancel();
  bool isRunning() const { return running_; }
  quint64 currentRunId() const { return runId_; }

  /// The cache of the loaded dataset and model. resetCache() starts a new one (data or model
  /// choice changed); a run in progress keeps the old one until it ends.
  core::pipeline::StageCache& cache() const { return *cache_; }
  void resetCache();

  void setAutoRun(bool on);
  bool autoRun() const { return autoRun_; }
  /// A setting changed: with auto-run on, (re)starts the 400 ms debounce.
  void settingsChanged();
  QTimer* autoRunTimer() { return &autoRunTimer_; }
  PipelineWorker* worker() const { return worker_; }

 signals:
  /// The debounce elapsed: the window should start a run with the current settings.
  void autoRunDue();
  void busyChanged(bool running);
  void runStarted(const dpsynth::ui::RunStart& start);
  void stageStarted(const dpsynth::ui::StageEvent& event);
  void stageFinished(const dpsynth::ui::StageEvent& event);
  /// At most every 40 ms while sampling.
  void progressMerged(const dpsynth::ui::StageProgress& progress);
  /// At most every 40 ms: the draw batches that arrived since the last call.
  void drawsMerged(const std::vector<dpsynth::ui::DrawBatch>& batches);
  /// While a stage samples, at most every PipelineWorker::kLipschitzIntervalMs.
  void lipschitzUpdated(const dpsynth::ui::LipschitzSnapshot& snapshot);
  void finished(const dpsynth::ui::RunOutput& output);
  void cancelled();
  void failed(const QString& message);

 private:
  bool isCurrent(quint64 runId) const { return running_ && runId == runId_; }
  void flush();
  void setRunning(bool running);

  QThread* thread_ = nullptr;
  PipelineWorker* worker_ = nullptr;
  std::shared_ptr<core::pipeline::StageCache> cache_;
  quint64 runId_ = 0;
  bool running_ = false;
  bool autoRun_ = false;
  QTimer mergeTimer_;
  QTimer autoRunTimer_;
  QElapsedTimer stageClock_;
  StageProgress progress_;
  int chains_ = 0;  ///< of the run in progress (RunStart): each stage's bar counts them all
  bool progressDirty_ = false;
  std::vector<DrawBatch> pendingDraws_;
};

}  // namespace dpsynth::ui
