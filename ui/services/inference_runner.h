#pragma once
/// Runs core::infer::runDataAugmentation on a worker thread for the "Analyze a release"
/// workspace. The engine's callbacks arrive on the chain threads and become queued signals
/// carrying immutable snapshots (shared pointers to const values). cancel() may be called from
/// any thread: it requests the run's stop source directly. Shutdown: cancel → quit → wait.
#include <QMetaType>
#include <QObject>
#include <QString>
#include <memory>
#include <stop_token>

#include "core/infer/da_sampler.h"
#include "core/infer/record_additive.h"
#include "ui/workers/run_stopper.h"

namespace dpsynth::ui {

struct InferenceRequest {
  quint64 runId = 0;
  std::shared_ptr<const core::infer::RecordAdditiveModel> model;
  core::infer::DaConfig config;
  int batchEvery = 10;  ///< sweeps per chain between live batches
};

struct InferenceProgress {
  quint64 runId = 0;
  int chain = 0, done = 0, total = 0;
};

struct InferenceBatch {
  quint64 runId = 0;
  std::shared_ptr<const core::infer::DaBatch> batch;
};

struct InferenceOutput {
  quint64 runId = 0;
  std::shared_ptr<const core::infer::DaResult> result;
  std::vector<core::infer::DaParameterSummary> summary;
};

class InferenceRunner : public QObject {
  Q_OBJECT

 public:
  explicit InferenceRunner(QObject* parent = nullptr);

  /// Queues a run on the worker's thread (call from any thread); a run in progress is
  /// cancelled first.
  void start(InferenceRequest request);
  /// Thread-safe: stops the current (and any queued) run at the sampler's next sweep.
  void cancel();

 signals:
  void progress(const dpsynth::ui::InferenceProgress& progress);
  void batch(const dpsynth::ui::InferenceBatch& batch);
  void finished(const dpsynth::ui::InferenceOutput& output);
  void cancelled(quint64 runId);
  /// Every exception of a run ends here, as the engine's message.
  void failed(quint64 runId, const QString& message);

 private:
  void run(const InferenceRequest& request, std::stop_token stop);

  RunStopper stopper_;
};

/// Registers the snapshot types for queued connections (idempotent).
void registerInferenceTypes();

}  // namespace dpsynth::ui

Q_DECLARE_METATYPE(dpsynth::ui::InferenceProgress)
Q_DECLARE_METATYPE(dpsynth::ui::InferenceBatch)
Q_DECLARE_METATYPE(dpsynth::ui::InferenceOutput)
