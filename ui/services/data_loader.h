#pragma once
/// Owns a load worker and its thread, and tells the GUI about the current load only: a load
/// replaced by a newer one, or cancelled, never reaches the listeners. The data service has one
/// for the data and one for the reference dataset. The owner installs what finished() brings; until
/// then its old data stays as it was (a cancelled or failed load changes nothing).
#include <QObject>
#include <QString>

#include "ui/workers/load_worker.h"

class QThread;

namespace dpsynth::ui {

class LoadIndicator;

class DataLoader : public QObject {
  Q_OBJECT

 public:
  explicit DataLoader(const QString& threadName, QObject* parent = nullptr);
  /// cancel → quit() → wait(): never leaves a thread running.
  ~DataLoader() override;

  /// Starts a load on the worker thread (stopping one in progress) and returns at once.
  /// `title` heads the error report; `file` (absolute) is shown while loading and in reports.
  quint64 start(const QString& title, const QString& file, LoadJob job);
  /// Stops the current load. The thread-safe stop request reaches the read at once; the loader
  /// becomes idle when the worker confirms (cancelled()). A load that the worker had finished
  /// already ends as cancelled too: after cancel() its data never reaches the listeners.
  void cancel();
  bool isLoading() const { return loading_; }
  /// The file being loaded (empty when idle).
  QString file() const { return loading_ ? file_ : QString(); }
  LoadWorker* worker() const { return worker_; }
  /// Shows this loader's loads on `indicator` (one loader per indicator), and its Cancel
  /// cancels them.
  void showOn(LoadIndicator* indicator);

 signals:
  void started(const QString& file);
  /// Whole percents of the current load.
  void progressChanged(int percent);
  void finished(const dpsynth::ui::LoadedData& data);
  /// The load of `file` was stopped; nothing changed.
  void cancelled(const QString& file);
  void failed(const dpsynth::ui::ErrorReport& report);
  /// After each of finished(), cancelled() and failed().
  void ended();

 private:
  bool isCurrent(quint64 id) const { return loading_ && id == loadId_; }
  void end();

  QThread* thread_ = nullptr;
  LoadWorker* worker_ = nullptr;
  quint64 loadId_ = 0;
  bool loading_ = false;
  bool cancelling_ = false;
  QString file_;
};

}  // namespace dpsynth::ui
