#pragma once
/// Reads and types input files on a worker thread, so that a file of 10^6 records never
/// freezes the window. The worker lives in a QThread (a DataLoader owns both); a load is a job,
/// a Qt-free function of a stop token and a progress callback, whose result crosses to the GUI
/// thread as one immutable value. cancel() may be called from any thread: it requests the
/// load's std::stop_source directly, so the read stops at its next check (every MiB or 1024
/// lines) rather than after a queued slot.
#include <QMetaType>
#include <QObject>
#include <QString>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>

#include "core/data/csv_table.h"
#include "core/data/dataset.h"
#include "ui/dialogs/error_report.h"
#include "ui/document/loaded_data.h"
#include "ui/studio_settings.h"

namespace dpsynth::ui {

/// What a job gets: the stop request to honour, and where to report its progress in [0, 1]
/// (from the worker thread; the worker forwards whole percents).
struct LoadContext {
  std::stop_token stop;
  std::function<void(double)> progress;
};

/// A load: nullopt when stopped; bad input is thrown (core::data::DataError for the data's
/// own problems) and becomes failed().
using LoadJob = std::function<std::optional<LoadedData>(const LoadContext&)>;

struct LoadRequest {
  quint64 loadId = 0;
  QString title;  ///< of the error report ("Cannot load data")
  QString file;   ///< absolute path, for reports of errors that do not name it
  LoadJob job;
};

/// Runs the job of a request on the calling thread and turns its outcome into the worker's
/// terms: the data, nullopt when stopped, or an ErrorReport. Shared by the worker and by
/// synchronous loads (start-up, scripts, tests), so both report errors the same way.
struct LoadOutcome {
  std::optional<LoadedData> data;
  std::optional<ErrorReport> error;
};
LoadOutcome runLoad(const LoadRequest& request, const LoadContext& context);

class LoadWorker : public QObject {
  Q_OBJECT

 public:
  explicit LoadWorker(QObject* parent = nullptr);

  /// Queues a load on the worker's thread (call from any thread). A load still in progress is
  /// stopped first.
  void start(LoadRequest request);
  /// Thread-safe: stops the current (and any queued) load at its next check.
  void cancel();

 signals:
  /// In whole percents, only when the percent changes.
  void progress(quint64 loadId, int percent);
  void finished(const dpsynth::ui::LoadedData& data);
  void cancelled(quint64 loadId);
  /// Every exception of a load ends here, as a report for the error dialog.
  void failed(quint64 loadId, const dpsynth::ui::ErrorReport& report);

 private:
  void run(const LoadRequest& request, std::stop_token stop);

  std::mutex mutex_;
  std::stop_source stop_;
};

/// Registers LoadedData and ErrorReport for queued connections (idempotent).
void registerLoadTypes();

}  // namespace dpsynth::ui
