#include "ui/workers/study_worker.h"

#include <exception>
#include <set>

#include "core/study/study_outputs.h"
#include "core/study/study_plan.h"
#include "core/study/study_runner.h"
#include "core/study/study_store.h"

namespace dpsynth::ui {

void StudyWorker::run(const core::study::StudyConfig& config, const QString& folder,
                      int threads) {
  namespace study = core::study;
  try {
    study::StudyStore store(folder.toStdString(), config);
    const int total = config.replicates;
    std::vector<int> missing;
    for (int r = 0; r < total; ++r)
      if (!store.completed().contains(r)) missing.push_back(r);
    const int already = total - static_cast<int>(missing.size());
    emit opened(store.rows(), already, total);
    emit progress(already, total, -1);
    auto outcome = study::StudyOutcome::completed;
    if (!missing.empty()) {
      outcome = study::runStudy(
          config, missing, threads,
          [&](const study::ReplicateRows& replicate) {
            store.append(replicate);
            emit replicateFinished(replicate.rows);
          },
          [&](const study::StudyProgress& p) {
            const double left =
                p.done > 0 ? p.elapsedSeconds / p.done * (p.total - p.done) : -1.0;
            emit progress(already + p.done, total, left);
          },
          stop_);
    }
    // Under the folder's lock, from every row on disk: another process may share the folder.
    store.withAllRows([&](const auto& rows) {
      if (!rows.empty()) study::writeStudyOutputs(store.folder(), config, rows);
    });
    emit finished(outcome == study::StudyOutcome::cancelled);
  } catch (const std::exception& e) {
    emit failed(QString::fromStdString(e.what()));
  }
}

StudyJob::StudyJob(QObject* parent) : QObject(parent) { qRegisterMetaType<StudyRows>(); }

StudyJob::~StudyJob() {
  cancel();
  cleanUp();
}

void StudyJob::start(const core::study::StudyConfig& config, const QString& folder,
                     int threads) {
  if (running_) return;
  cleanUp();
  running_ = true;
  stop_ = std::make_unique<std::stop_source>();
  thread_ = new QThread(this);
  worker_ = new StudyWorker(stop_->get_token());
  worker_->moveToThread(thread_);
  connect(thread_, &QThread::finished, worker_, &QObject::deleteLater);
  connect(worker_, &StudyWorker::opened, this, &StudyJob::opened);
  connect(worker_, &StudyWorker::replicateFinished, this, &StudyJob::replicateFinished);
  connect(worker_, &StudyWorker::progress, this, &StudyJob::progress);
  connect(worker_, &StudyWorker::finished, this, [this](bool cancelled) {
    running_ = false;
    emit finished(cancelled);
  });
  connect(worker_, &StudyWorker::failed, this, [this](const QString& message) {
    running_ = false;
    emit failed(message);
  });
  thread_->start();
  QMetaObject::invokeMethod(worker_, [worker = worker_, config, folder, threads] {
    worker->run(config, folder, threads);
  });
}

void StudyJob::cancel() {
  if (stop_) stop_->request_stop();
}

void StudyJob::cleanUp() {
  if (!thread_) return;
  thread_->quit();
  thread_->wait();
  delete thread_;  // the worker is deleted by deleteLater on the thread's finished signal
  thread_ = nullptr;
  worker_ = nullptr;
}

}  // namespace dpsynth::ui
