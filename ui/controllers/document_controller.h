#pragma once
/// The document's file: it has one (or is Untitled) and unsaved changes or not (the
/// StudioDocument says which). This controller names it for the window title ([*] marker),
/// implements Save / Save As and asks Save / Discard / Cancel before unsaved work would be lost
/// (quit, New, Open, other data). The question and the file chooser are injectable, so tests answer
/// them without a modal loop.
#include <QObject>
#include <QString>
#include <functional>

class QWidget;

namespace dpsynth::ui {

class SessionController;
class StudioDocument;

enum class UnsavedChoice { save, discard, cancel };

/// Asks what to do with the unsaved changes of `document` before `action` ("quit").
using UnsavedPrompt = std::function<UnsavedChoice(const QString& document, const QString& action)>;
/// Picks the file for Save As; an empty string cancels.
using SavePathChooser = std::function<QString(const QString& suggested)>;

/// The QMessageBox question (Save / Discard / Cancel, Save the default).
UnsavedPrompt unsavedDialogPrompt(QWidget* parent);
/// A save dialog for .dpsynth files (the suffix is added when missing).
SavePathChooser sessionFileDialog(QWidget* parent);

class DocumentController : public QObject {
  Q_OBJECT

 public:
  /// write: saves the session (settings and results) to a path; true on success.
  DocumentController(StudioDocument* document, SessionController* session,
                     std::function<bool(const QString&)> write, QWidget* dialogParent,
                     QObject* parent = nullptr);

  /// The session file, empty while Untitled.
  QString path() const;
  /// The file name, or "Untitled".
  QString displayName() const;
  bool isModified() const;
  /// The state on screen is the starting point (start-up, a new session): nothing unsaved.
  void setClean();

  /// Ctrl+S: to the session's file, or Save As when Untitled. False when not saved.
  bool save();
  bool saveAs();
  /// Before unsaved work is lost: asks Save / Discard / Cancel. True when the caller may go on
  /// (nothing unsaved, saved, or discarded); false on Cancel or a failed / cancelled save.
  bool maybeSave(const QString& action);

  void setPrompt(UnsavedPrompt prompt) { prompt_ = std::move(prompt); }
  void setPathChooser(SavePathChooser chooser) { chooser_ = std::move(chooser); }

 signals:
  /// The file or the modified state changed (update the title).
  void changed();

 private:
  StudioDocument* document_;
  SessionController* session_;
  std::function<bool(const QString&)> write_;
  UnsavedPrompt prompt_;
  SavePathChooser chooser_;
};

}  // namespace dpsynth::ui
