#include "ui/controllers/session_controller.h"

#include <QFileInfo>

#include "core/session/session.h"
#include "ui/controllers/settings_controller.h"
#include "ui/panels/data_panel.h"

namespace dpsynth::ui {

namespace session = core::session;

SessionController::SessionController(DataPanel* data, SettingsController* settings, QObject* parent)
    : QObject(parent), data_(data), settings_(settings) {}

bool SessionController::save(const QString& path) {
  if (!data_->hasData()) {
    emit errorOccurred({tr("Cannot save session"),
                        path,
                        0,
                        {},
                        tr("load data first: a session refers to a data file"),
                        {}});
    return false;
  }
  try {
    session::saveSession(path.toStdString(), toSession(settings_->current(), data_->source()));
  } catch (const std::exception& e) {
    emit errorOccurred(errorReportFrom(e, tr("Cannot save session"), path));
    return false;
  }
  path_ = path;
  emit pathChanged(path_);
  emit message(tr("Session saved to %1").arg(path));
  return true;
}

bool SessionController::open(const QString& path) {
  session::Session s;
  try {
    s = session::loadSession(path.toStdString());
  } catch (const std::exception& e) {
    emit errorOccurred(errorReportFrom(e, tr("Cannot open session"), path));
    return false;
  }
  DataSource stored;
  const StudioSettings settings = fromSession(s, &stored);

  // The data: a bundled sample by name, else the file (whose checksum core compares).
  QString changed;
  if (!stored.sample.isEmpty()) {
    if (!data_->loadSample(stored.sample)) return false;
    if (!stored.sha256.empty() && data_->source().sha256 != stored.sha256) {
      changed = tr("The bundled sample '%1' differs from the one the session was saved with: "
                   "results will differ from the saved analysis.")
                    .arg(stored.sample);
    }
  } else {
    const auto check = session::checkDataFile(s);
    if (check.status == session::DataFileStatus::missing) {
      emit errorOccurred({tr("Cannot open session"),
                          stored.file,
                          0,
                          {},
                          QString::fromStdString(check.message),
                          tr("Move the data file back, or load it and save the session again.")});
      return false;
    }
    if (!data_->loadFile(stored.file)) return false;
    if (check.status == session::DataFileStatus::changed ||
        check.status == session::DataFileStatus::unverified) {
      changed = QString::fromStdString(check.message);
    }
  }
  data_->setChoice(settings.dataset, settings.run.model.sdScale);
  settings_->apply(settings);
  path_ = path;
  emit pathChanged(path_);
  if (!changed.isEmpty()) {
    emit dataChanged(changed);
    emit message(changed);
  } else {
    emit message(
        tr("Session %1 opened; its data file is unchanged.").arg(QFileInfo(path).fileName()));
  }
  return true;
}

}  // namespace dpsynth::ui
