#include "ui/controllers/session_controller.h"

#include <QFileInfo>

#include "core/session/session.h"
#include "ui/controllers/settings_controller.h"
#include "ui/panels/data_panel.h"

namespace dpsynth::ui {

namespace session = core::session;

SessionController::SessionController(DataPanel* data, SettingsController* settings, QObject* parent)
    : QObject(parent), data_(data), settings_(settings) {
  // The end of the load an openInBackground() started: apply the session to its data. Any
  // other load that ends (a file opened meanwhile replaced it) drops the session.
  connect(data_, &DataPanel::loadEnded, this, [this](const QString& file, bool loaded) {
    if (!waiting_) return;
    const Pending pending = std::move(*waiting_);
    waiting_.reset();
    if (!loaded ||
        QFileInfo(file).absoluteFilePath() != QFileInfo(pending.stored.file).absoluteFilePath()) {
      return;
    }
    // The digest of the bytes the worker parsed, compared with the session's.
    const auto check = session::compareDataDigest(pending.session, data_->source().sha256);
    const bool differs = check.status == session::DataFileStatus::changed ||
                         check.status == session::DataFileStatus::unverified;
    finish(pending, differs ? QString::fromStdString(check.message) : QString(), true);
  });
  // Other data loaded by the user: the session no longer describes what is on screen.
  connect(data_, &DataPanel::loaded, this, [this](const DataSource& source) {
    if (opening_) return;
    if (waiting_ && QFileInfo(source.file).absoluteFilePath() ==
                        QFileInfo(waiting_->stored.file).absoluteFilePath()) {
      return;  // the data of the session being opened
    }
    detach();
  });
}

void SessionController::detach() {
  path_.clear();
  emit pathChanged(path_);
}

bool SessionController::save(const QString& path,
                             const std::optional<core::session::SessionResults>& results) {
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
    auto stored = toSession(settings_->current(), data_->source());
    stored.results = results;
    session::saveSession(path.toStdString(), stored);
  } catch (const std::exception& e) {
    emit errorOccurred(errorReportFrom(e, tr("Cannot save session"), path));
    return false;
  }
  path_ = path;
  emit pathChanged(path_);
  emit message(tr("Session saved to %1").arg(path));
  return true;
}

std::optional<SessionController::Pending> SessionController::read(const QString& path) {
  Pending pending;
  pending.path = path;
  try {
    pending.session = session::loadSession(path.toStdString());
  } catch (const std::exception& e) {
    emit errorOccurred(errorReportFrom(e, tr("Cannot open session"), path));
    return std::nullopt;
  }
  pending.settings = fromSession(pending.session, &pending.stored);
  return pending;
}

bool SessionController::open(const QString& path) {
  waiting_.reset();
  const std::optional<Pending> pending = read(path);
  if (!pending) return false;
  const DataSource& stored = pending->stored;

  // The data: a bundled sample by name, else the file (whose checksum core compares).
  QString changed;
  struct Opening {
    bool& flag;
    explicit Opening(bool& f) : flag(f) { flag = true; }
    ~Opening() { flag = false; }
  } opening(opening_);
  if (!stored.sample.isEmpty()) {
    if (!data_->loadSample(stored.sample)) return false;
    if (!stored.sha256.empty() && data_->source().sha256 != stored.sha256) {
      changed = tr("The bundled sample '%1' differs from the one the session was saved with: "
                   "results will differ from the saved analysis.")
                    .arg(stored.sample);
    }
  } else {
    const auto check = session::checkDataFile(pending->session);
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
  finish(*pending, changed, false);
  return true;
}

void SessionController::openInBackground(const QString& path) {
  waiting_.reset();
  std::optional<Pending> pending = read(path);
  if (!pending) return;
  const DataSource& stored = pending->stored;
  if (!stored.sample.isEmpty()) {
    open(path);  // a bundled sample is small
    return;
  }
  if (!QFileInfo(stored.file).isFile()) {
    const auto check = session::checkDataFile(pending->session);  // missing: reads nothing
    emit errorOccurred({tr("Cannot open session"),
                        stored.file,
                        0,
                        {},
                        QString::fromStdString(check.message),
                        tr("Move the data file back, or load it and save the session again.")});
    return;
  }
  waiting_ = std::move(pending);
  data_->openFile(waiting_->stored.file);
}

void SessionController::finish(const Pending& pending, const QString& changed,
                               bool referenceInBackground) {
  data_->setChoice(pending.settings.dataset, pending.settings.run.model.sdScale);
  settings_->apply(pending.settings, referenceInBackground);
  path_ = pending.path;
  emit pathChanged(path_);
  emit opened(pending.session.results);
  if (!changed.isEmpty()) {
    emit dataChanged(changed);
    emit message(changed);
  } else {
    emit message(tr("Session %1 opened; its data file is unchanged.")
                     .arg(QFileInfo(pending.path).fileName()));
  }
}

}  // namespace dpsynth::ui
