#include "ui/controllers/session_controller.h"

#include <QFileInfo>

#include "core/session/session.h"
#include "ui/controllers/files_read.h"
#include "ui/document/studio_document.h"
#include "ui/services/data_service.h"

namespace dpsynth::ui {

namespace session = core::session;

SessionController::SessionController(StudioDocument* document, DataService* data, QObject* parent)
    : QObject(parent), document_(document), data_(data) {
  // The end of the load an openInBackground() started: apply the session to its data. Any
  // other load that ends (a file opened meanwhile replaced it) drops the session.
  connect(data_, &DataService::loadEnded, this, [this](const QString& file, bool loaded) {
    if (!waiting_) return;
    const Pending pending = std::move(*waiting_);
    waiting_.reset();
    if (!loaded ||
        QFileInfo(file).absoluteFilePath() != QFileInfo(pending.stored.file).absoluteFilePath()) {
      return;
    }
    // The digest of the bytes the worker parsed, compared with the session's.
    const auto check = session::compareDataDigest(pending.session, document_->source().sha256);
    const bool differs = check.status == session::DataFileStatus::changed ||
                         check.status == session::DataFileStatus::unverified;
    finish(pending, differs ? QString::fromStdString(check.message) : QString(), true);
  });
  // Other data loaded by the user: the session no longer describes what is on screen.
  connect(data_, &DataService::dataInstalled, this, [this](const DataSource& source) {
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

bool SessionController::save(const QString& path) {
  if (!document_->hasData()) {
    emit errorOccurred({tr("Cannot save session"),
                        path,
                        0,
                        {},
                        tr("load data first: a session refers to a data file"),
                        {}});
    return false;
  }
  // Typed over the data's name in the dialog (it lists *.dpsynth only), the session replaced
  // the confidential file it then named as its data.
  QString input;
  if (!inputAmong({path}, {document_->source().file, document_->reference().path()}, &input)
           .isEmpty()) {
    emit errorOccurred({tr("Cannot save session"), path, 0, {}, isAnInputProblem(path, input), {}});
    return false;
  }
  try {
    auto stored = toSession(document_->settings(), document_->source());
    stored.results = document_->sessionResults();
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
    if (!stored.sha256.empty() && document_->source().sha256 != stored.sha256) {
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
  StudioSettings settings = pending.settings;
  const std::string reference = settings.weightsFrom;
  settings.weightsFrom.clear();  // set when the reference has been read
  document_->replaceSettings(settings);
  if (!document_->dataset()) {
    const auto& header = document_->table()->header;
    const std::string& outcome = pending.settings.dataset.outcome;
    const bool missing = std::find(header.begin(), header.end(), outcome) == header.end();
    const QString problem = missing ? tr("The session's outcome column '%1' is not in the data.")
                                          .arg(QString::fromStdString(outcome))
                                    : document_->dataProblem();
    emit errorOccurred({tr("Session does not fit the data"),
                        document_->source().file,
                        0,
                        missing ? QString::fromStdString(outcome) : QString(),
                        problem,
                        {}});
  }
  // The session's reference, read as its own (the stored results stay current); one that
  // cannot be read is reported and left out.
  if (!reference.empty()) {
    const QString path = QString::fromStdString(reference);
    if (referenceInBackground) {
      data_->openReference(path, settings.dataset, true);
    } else {
      data_->loadReference(path, settings.dataset, true);
    }
  }
  document_->setStoredResults(pending.session.results);
  document_->setClean();
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
