#include "ui/services/data_loader.h"

#include <QThread>

#include "ui/widgets/load_indicator.h"

namespace dpsynth::ui {

DataLoader::DataLoader(const QString& threadName, QObject* parent) : QObject(parent) {
  thread_ = new QThread(this);
  thread_->setObjectName(threadName);
  worker_ = new LoadWorker;  // no parent: it moves to the thread
  worker_->moveToThread(thread_);
  connect(thread_, &QThread::finished, worker_, &QObject::deleteLater);
  thread_->start();

  connect(worker_, &LoadWorker::progress, this, [this](quint64 id, int percent) {
    if (isCurrent(id)) emit progressChanged(percent);
  });
  connect(worker_, &LoadWorker::finished, this, [this](const LoadedData& data) {
    if (!isCurrent(data.loadId)) return;
    loading_ = false;
    if (cancelling_) {
      emit cancelled(file_);  // it finished before the stop reached it: still not wanted
    } else {
      emit finished(data);
    }
    end();
  });
  connect(worker_, &LoadWorker::cancelled, this, [this](quint64 id) {
    if (!isCurrent(id)) return;
    loading_ = false;
    emit cancelled(file_);
    end();
  });
  connect(worker_, &LoadWorker::failed, this, [this](quint64 id, const ErrorReport& report) {
    if (!isCurrent(id)) return;
    loading_ = false;
    if (cancelling_) {
      emit cancelled(file_);  // the user no longer waits for this file, nor for its errors
    } else {
      emit failed(report);
    }
    end();
  });
}

DataLoader::~DataLoader() {
  worker_->cancel();
  thread_->quit();
  thread_->wait();
}

quint64 DataLoader::start(const QString& title, const QString& file, LoadJob job) {
  loadId_ += 1;
  loading_ = true;
  cancelling_ = false;
  file_ = file;
  worker_->start({loadId_, title, file, std::move(job)});
  emit started(file);
  return loadId_;
}

void DataLoader::cancel() {
  if (!loading_) return;
  cancelling_ = true;
  worker_->cancel();
}

void DataLoader::end() {
  file_.clear();
  emit ended();
}

void DataLoader::showOn(LoadIndicator* indicator) {
  connect(this, &DataLoader::started, indicator, &LoadIndicator::loadStarted);
  connect(this, &DataLoader::progressChanged, indicator, &LoadIndicator::setPercent);
  connect(this, &DataLoader::ended, indicator, &LoadIndicator::loadEnded);
  connect(indicator, &LoadIndicator::cancelRequested, this, &DataLoader::cancel);
}

}  // namespace dpsynth::ui
