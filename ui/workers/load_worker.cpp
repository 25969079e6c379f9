#include "ui/workers/load_worker.h"

#include <QMetaObject>
#include <algorithm>
#include <cmath>

#include "core/data/data_error.h"

namespace dpsynth::ui {

LoadOutcome runLoad(const LoadRequest& request, const LoadContext& context) {
  LoadOutcome outcome;
  try {
    outcome.data = request.job(context);
    if (outcome.data) outcome.data->loadId = request.loadId;
  } catch (const core::data::DataError& e) {
    outcome.error = errorReportFrom(e, request.title);
  } catch (const std::exception& e) {
    outcome.error = errorReportFrom(e, request.title, request.file);
  } catch (...) {
    outcome.error = ErrorReport{request.title, request.file, 0, {},
                                QObject::tr("unexpected internal error"), {}};
  }
  return outcome;
}

void registerLoadTypes() {
  qRegisterMetaType<LoadedData>();
  qRegisterMetaType<ErrorReport>();
}

LoadWorker::LoadWorker(QObject* parent) : QObject(parent) { registerLoadTypes(); }

void LoadWorker::start(LoadRequest request) {
  std::stop_token token;
  {
    const std::lock_guard lock(mutex_);
    stop_.request_stop();  // the previous load, if any
    stop_ = std::stop_source();
    token = stop_.get_token();
  }
  // The token travels with the queued call, so that a later start() or cancel() cannot mix up
  // which load it refers to.
  QMetaObject::invokeMethod(
      this, [this, request = std::move(request), token] { run(request, token); },
      Qt::QueuedConnection);
}

void LoadWorker::cancel() {
  const std::lock_guard lock(mutex_);
  stop_.request_stop();
}

void LoadWorker::run(const LoadRequest& request, std::stop_token stop) {
  if (stop.stop_requested()) {
    emit cancelled(request.loadId);
    return;
  }
  int lastPercent = -1;
  LoadContext context;
  context.stop = stop;
  context.progress = [&](double fraction) {
    const int percent = static_cast<int>(std::floor(100.0 * std::clamp(fraction, 0.0, 1.0)));
    if (percent == lastPercent) return;
    lastPercent = percent;
    emit progress(request.loadId, percent);
  };
  LoadOutcome outcome = runLoad(request, context);
  if (outcome.error) {
    emit failed(request.loadId, *outcome.error);
  } else if (!outcome.data || stop.stop_requested()) {
    // Stopped, or finished just as the stop came: either way the user asked for the old data.
    emit cancelled(request.loadId);
  } else {
    emit finished(*outcome.data);
  }
}

}  // namespace dpsynth::ui
