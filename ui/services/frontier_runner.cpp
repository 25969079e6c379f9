#include "ui/services/frontier_runner.h"

#include <QMetaObject>
#include <exception>
#include <stdexcept>

#include "core/study/replicate_source.h"

namespace dpsynth::ui {

FrontierRunner::FrontierRunner(QObject* parent) : QObject(parent) {
  qRegisterMetaType<core::study::ReplicateRows>();
  runner_ = new QObject;
  runner_->moveToThread(&thread_);
  connect(&thread_, &QThread::finished, runner_, &QObject::deleteLater);
  connect(this, &FrontierRunner::finished, this, [this] { running_ = false; });
  connect(this, &FrontierRunner::failed, this, [this] { running_ = false; });
  thread_.start();
}

FrontierRunner::~FrontierRunner() {
  cancel();
  thread_.quit();
  thread_.wait();
}

void FrontierRunner::start(FrontierRequest request) {
  const std::stop_token token = stopper_.next();
  running_ = true;
  QMetaObject::invokeMethod(
      runner_, [this, request = std::move(request), token] { run(request, token); },
      Qt::QueuedConnection);
}

void FrontierRunner::cancel() { stopper_.cancel(); }

void FrontierRunner::run(const FrontierRequest& request, std::stop_token stop) {
  if (stop.stop_requested()) {
    emit finished(request.id, false);
    return;
  }
  try {
    // A bootstrap resamples the rows in memory; a generator needs none.
    if (!request.data && !request.config.source.generator)
      throw std::invalid_argument("a bootstrap frontier needs the data to resample");
    core::study::ReplicateSource source =
        request.data ? core::study::ReplicateSource(request.config, *request.data)
                     : core::study::ReplicateSource(request.config);
    source.setWeightReference(request.weightReference);
    std::vector<int> replicates;
    for (int r = 0; r < request.config.replicates; ++r) replicates.push_back(r);
    const auto outcome = core::study::runStudy(
        request.config, source, replicates, request.threads,
        [&](const core::study::ReplicateRows& rows) { emit replicateDone(request.id, rows); },
        [&](const core::study::StudyProgress& p) {
          emit progress(request.id, p.done, p.total, p.elapsedSeconds);
        },
        stop);
    emit finished(request.id, outcome == core::study::StudyOutcome::completed);
  } catch (const std::exception& e) {
    emit failed(request.id, QString::fromStdString(e.what()));
  }
}

}  // namespace dpsynth::ui
