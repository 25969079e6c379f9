#pragma once
/// Runs the study behind the frontier view on a thread of its own: replicates (a bootstrap of
/// data in memory, or a generator's draws) through core::study::runStudy (replicates in parallel
/// under one thread budget), each finished replicate handed to the GUI thread as a queued signal
/// with its rows. cancel() may be called from any thread: it requests the study's stop_source
/// directly.
#include <QObject>
#include <QThread>
#include <memory>
#include <stop_token>

#include "core/data/dataset.h"
#include "core/study/study_config.h"
#include "core/study/study_runner.h"
#include "ui/workers/run_stopper.h"

namespace dpsynth::ui {

struct FrontierRequest {
  quint64 id = 0;
  /// The study: a generator source, or a bootstrap source whose file only names the data
  /// (the rows come from `data`).
  core::study::StudyConfig config;
  std::shared_ptr<const core::data::Dataset> data;  ///< null for a generator
  /// The reference dataset censor-w and weighted-e take their weights from, as in Synthesis
  /// (null: weights from each replicate); its design is the replicates'.
  std::shared_ptr<const core::data::Dataset> weightReference;
  int threads = 2;  ///< replicates at a time (0 = all cores)
};

class FrontierRunner : public QObject {
  Q_OBJECT

 public:
  explicit FrontierRunner(QObject* parent = nullptr);
  ~FrontierRunner() override;

  /// Starts a study on the worker thread (a study in progress is cancelled first).
  void start(FrontierRequest request);
  /// Thread-safe: no new replicate starts; running ones are abandoned at their next check.
  void cancel();
  bool isRunning() const { return running_; }

 signals:
  void replicateDone(quint64 id, const dpsynth::core::study::ReplicateRows& rows);
  void progress(quint64 id, int done, int total, double elapsedSeconds);
  /// The study ended: completed is false when it was cancelled.
  void finished(quint64 id, bool completed);
  void failed(quint64 id, const QString& message);

 private:
  void run(const FrontierRequest& request, std::stop_token stop);

  QThread thread_;
  /// Lives on thread_: the queued study runs there.
  QObject* runner_ = nullptr;
  RunStopper stopper_;
  bool running_ = false;  ///< GUI thread's view: between start() and finished()/failed()
};

}  // namespace dpsynth::ui

Q_DECLARE_METATYPE(dpsynth::core::study::ReplicateRows)
