#include "ui/services/inference_runner.h"

#include <exception>
#include <stdexcept>

namespace dpsynth::ui {

void registerInferenceTypes() {
  qRegisterMetaType<InferenceProgress>();
  qRegisterMetaType<InferenceBatch>();
  qRegisterMetaType<InferenceOutput>();
}

InferenceRunner::InferenceRunner(QObject* parent) : QObject(parent) { registerInferenceTypes(); }

void InferenceRunner::start(InferenceRequest request) {
  const std::stop_token token = stopper_.next();
  // The token travels with the queued call: a later start() or cancel() cannot mix up runs.
  QMetaObject::invokeMethod(
      this, [this, request = std::move(request), token] { run(request, token); },
      Qt::QueuedConnection);
}

void InferenceRunner::cancel() { stopper_.cancel(); }

void InferenceRunner::run(const InferenceRequest& request, std::stop_token stop) {
  const quint64 id = request.runId;
  if (stop.stop_requested()) {
    emit cancelled(id);
    return;
  }
  try {
    if (!request.model) throw std::invalid_argument("no release to analyse");
    core::infer::DaObserver observer;
    observer.every = request.batchEvery;
    observer.onBatch = [this, id](const core::infer::DaBatch& b) {
      emit batch({id, std::make_shared<const core::infer::DaBatch>(b)});
    };
    const core::infer::DaProgress onProgress = [this, id](int chain, int done, int total) {
      emit progress({id, chain, done, total});
    };
    auto result = std::make_shared<core::infer::DaResult>(core::infer::runDataAugmentation(
        *request.model, request.config, stop, onProgress, observer));
    if (result->cancelled) {
      emit cancelled(id);
      return;
    }
    InferenceOutput output{id, result, core::infer::summarize(*request.model, *result)};
    emit finished(output);
  } catch (const std::exception& e) {
    emit failed(id, QString::fromStdString(e.what()));
  } catch (...) {
    emit failed(id, tr("unknown error in the sampler"));
  }
}

}  // namespace dpsynth::ui
