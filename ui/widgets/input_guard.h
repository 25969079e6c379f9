#pragma once
/// One application-wide event filter for input hygiene in the settings panels:
/// - sliders, spin boxes and combo boxes take focus by click or Tab only (not by the wheel) and
///   ignore the mouse wheel unless they have focus, so scrolling a panel never edits a value
///   (the wheel then scrolls the panel);
/// - Ctrl+Z / Ctrl+Shift+Z / Ctrl+Y in a focused spin box are not swallowed by its text field:
///   the typed text is committed and the window's undo/redo of settings runs.
#include <QObject>

class QWidget;

namespace dpsynth::ui {

class InputGuard : public QObject {
  Q_OBJECT

 public:
  /// Installs the guard on the running QApplication once (later calls do nothing) and applies
  /// the focus policy to the widgets that exist already.
  static void install();
  /// The slider / spin box / combo box that `widget` is or belongs to (its text field), if any.
  static QWidget* guardedWidget(QObject* widget);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  using QObject::QObject;
};

}  // namespace dpsynth::ui
