#include "ui/services/study_job.h"

#include <QThread>

namespace dpsynth::ui {

StudyJob::StudyJob(QObject* parent) : QObject(parent) { qRegisterMetaType<StudyRows>(); }

StudyJob::~StudyJob() {
  cancel();
  cleanUp();
}

void StudyJob::start(const core::study::StudyConfig& config, const QString& folder, int threads) {
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
