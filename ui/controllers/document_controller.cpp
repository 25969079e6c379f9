#include "ui/controllers/document_controller.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>

#include "ui/controllers/export_actions.h"
#include "ui/controllers/session_controller.h"
#include "ui/document/studio_document.h"

namespace dpsynth::ui {

UnsavedPrompt unsavedDialogPrompt(QWidget* parent) {
  return [parent](const QString& document, const QString& action) {
    QMessageBox box(QMessageBox::Warning, QObject::tr("Unsaved changes"),
                    QObject::tr("Save the changes to %1 before %2?").arg(document, action),
                    QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, parent);
    box.setObjectName(QStringLiteral("unsavedChangesBox"));
    box.setInformativeText(
        QObject::tr("The settings and the last run's results are lost if you do not save them."));
    box.setDefaultButton(QMessageBox::Save);
    switch (box.exec()) {
      case QMessageBox::Save:
        return UnsavedChoice::save;
      case QMessageBox::Discard:
        return UnsavedChoice::discard;
      default:
        return UnsavedChoice::cancel;
    }
  };
}

SavePathChooser sessionFileDialog(QWidget* parent) {
  return [parent](const QString& suggested) {
    QString path = QFileDialog::getSaveFileName(parent, QObject::tr("Save session"), suggested,
                                                QObject::tr("dpsynth sessions (*.dpsynth)"));
    if (!path.isEmpty() && QFileInfo(path).suffix().isEmpty()) path += QStringLiteral(".dpsynth");
    return path;
  };
}

DocumentController::DocumentController(StudioDocument* document, SessionController* session,
                                       std::function<bool(const QString&)> write,
                                       QWidget* dialogParent, QObject* parent)
    : QObject(parent),
      document_(document),
      session_(session),
      write_(std::move(write)),
      prompt_(unsavedDialogPrompt(dialogParent)),
      chooser_(sessionFileDialog(dialogParent)) {
  // Saved, opened, or detached by other data: in each case nothing is unsaved any more.
  connect(session_, &SessionController::pathChanged, this, [this] {
    document_->setClean();
    emit changed();
  });
  connect(document_, &StudioDocument::modifiedChanged, this, [this] { emit changed(); });
}

QString DocumentController::path() const { return session_->currentPath(); }

QString DocumentController::displayName() const {
  return path().isEmpty() ? tr("Untitled") : QFileInfo(path()).fileName();
}

bool DocumentController::isModified() const { return document_->isModified(); }

void DocumentController::setClean() { document_->setClean(); }

bool DocumentController::save() { return path().isEmpty() ? saveAs() : write_(path()); }

bool DocumentController::saveAs() {
  // Beside the session, else in the data's folder (not the program's working folder).
  const QString suggested = path().isEmpty()
                                ? QDir(ExportActions::defaultFolder({}, document_->source()))
                                      .filePath(QStringLiteral("analysis.dpsynth"))
                                : path();
  const QString chosen = chooser_ ? chooser_(suggested) : QString();
  if (chosen.isEmpty()) return false;
  return write_(chosen);
}

bool DocumentController::maybeSave(const QString& action) {
  if (!document_->isModified()) return true;
  switch (prompt_ ? prompt_(displayName(), action) : UnsavedChoice::cancel) {
    case UnsavedChoice::save:
      return save();
    case UnsavedChoice::discard:
      return true;
    case UnsavedChoice::cancel:
      return false;
  }
  return false;
}

}  // namespace dpsynth::ui
