#pragma once
/// Runs a Monte Carlo study (core/study) off the GUI thread. StudyWorker lives on a QThread of
/// its own and calls runStudy with a std::stop_source; each finished replicate is stored in the
/// study folder (StudyStore: atomic, so Cancel keeps complete replicates and a second run into
/// the same folder resumes) and its rows are sent to the GUI by queued signal. StudyJob
/// (ui/services/study_job.h) owns the thread and is what the GUI talks to.
#include <QObject>
#include <QString>
#include <QThread>
#include <memory>
#include <stop_token>
#include <string>
#include <vector>

#include "core/study/study_config.h"

namespace dpsynth::ui {

using StudyRows = std::vector<std::vector<std::string>>;

class StudyWorker : public QObject {
  Q_OBJECT

 public:
  explicit StudyWorker(std::stop_token stop) : stop_(std::move(stop)) {}

  /// Call on the worker's thread. Opens `folder` for `config` (a folder holding another study is
  /// refused with the core's message), sends the rows already there, runs the missing replicates
  /// with `threads` replicates at a time (0 = every core) and writes the summary files at the end.
  void run(const core::study::StudyConfig& config, const QString& folder, int threads);

 signals:
  /// The rows already in the folder (resume); `done` of `total` replicates are complete.
  void opened(const dpsynth::ui::StudyRows& rows, int done, int total);
  void replicateFinished(const dpsynth::ui::StudyRows& rows);
  /// Replicates done (all, resumed ones included) of total; seconds left estimated from this
  /// run's pace (negative: not known yet).
  void progress(int done, int total, double secondsLeft);
  void finished(bool cancelled);
  void failed(const QString& message);

 private:
  std::stop_token stop_;
};

}  // namespace dpsynth::ui

Q_DECLARE_METATYPE(dpsynth::ui::StudyRows)
