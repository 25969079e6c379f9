#pragma once
/// The GUI's handle on a Monte Carlo study run off the GUI thread: StudyJob owns the thread and
/// the StudyWorker on it (ui/workers/study_worker.h), forwards its signals and cancels it.
#include <QObject>
#include <QString>
#include <memory>
#include <stop_token>

#include "core/study/study_config.h"
#include "ui/workers/study_worker.h"

class QThread;

namespace dpsynth::ui {

class StudyJob : public QObject {
  Q_OBJECT

 public:
  explicit StudyJob(QObject* parent = nullptr);
  ~StudyJob() override;

  /// Starts a run (ignored while one is running).
  void start(const core::study::StudyConfig& config, const QString& folder, int threads = 0);
  /// Asks the run to stop: no new replicate starts, the running ones are abandoned, finished
  /// ones stay in the folder. finished(true) follows.
  void cancel();
  bool isRunning() const { return running_; }

 signals:
  void opened(const dpsynth::ui::StudyRows& rows, int done, int total);
  void replicateFinished(const dpsynth::ui::StudyRows& rows);
  void progress(int done, int total, double secondsLeft);
  void finished(bool cancelled);
  void failed(const QString& message);

 private:
  void cleanUp();

  QThread* thread_ = nullptr;
  StudyWorker* worker_ = nullptr;
  std::unique_ptr<std::stop_source> stop_;
  bool running_ = false;
};

}  // namespace dpsynth::ui
