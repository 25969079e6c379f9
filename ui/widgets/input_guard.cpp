#include "ui/widgets/input_guard.h"

#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QKeyEvent>
#include <QPointer>
#include <QScrollBar>
#include <QWheelEvent>

namespace dpsynth::ui {
namespace {

bool isGuarded(const QObject* o) {
  if (qobject_cast<const QScrollBar*>(o)) return false;  // scroll bars always scroll
  return qobject_cast<const QAbstractSpinBox*>(o) || qobject_cast<const QAbstractSlider*>(o) ||
         qobject_cast<const QComboBox*>(o);
}

void applyFocusPolicy(QWidget* w) {
  if (isGuarded(w) && w->focusPolicy() != Qt::NoFocus) w->setFocusPolicy(Qt::StrongFocus);
}

bool isUndoOrRedo(const QKeyEvent* key) {
  const QKeyCombination combo = key->keyCombination();
  return key->matches(QKeySequence::Undo) || key->matches(QKeySequence::Redo) ||
         combo == QKeyCombination(Qt::CTRL | Qt::SHIFT, Qt::Key_Z) ||
         combo == QKeyCombination(Qt::CTRL, Qt::Key_Y) ||
         combo == QKeyCombination(Qt::CTRL, Qt::Key_Z);
}

}  // namespace

void InputGuard::install() {
  static QPointer<InputGuard> guard;
  if (guard || !qApp) return;
  guard = new InputGuard(qApp);
  qApp->installEventFilter(guard);
  for (QWidget* w : QApplication::allWidgets()) applyFocusPolicy(w);
}

QWidget* InputGuard::guardedWidget(QObject* object) {
  // The spin box's text field (a child) counts as the spin box.
  for (int depth = 0; object && depth < 2; ++depth, object = object->parent()) {
    if (isGuarded(object)) return static_cast<QWidget*>(object);
  }
  return nullptr;
}

bool InputGuard::eventFilter(QObject* watched, QEvent* event) {
  switch (event->type()) {
    case QEvent::Polish:
      if (watched->isWidgetType()) applyFocusPolicy(static_cast<QWidget*>(watched));
      break;
    case QEvent::Wheel: {
      QWidget* target = guardedWidget(watched);
      if (target && !target->hasFocus()) {
        event->ignore();  // not for this widget: the event goes on to the scroll area
        return true;
      }
      break;
    }
    case QEvent::ShortcutOverride: {
      auto* spin = qobject_cast<QAbstractSpinBox*>(guardedWidget(watched));
      if (spin && isUndoOrRedo(static_cast<QKeyEvent*>(event))) {
        spin->interpretText();  // commit what was typed: it becomes the step to undo
        event->ignore();        // let the window's Undo / Redo shortcut fire
        return true;
      }
      break;
    }
    default:
      break;
  }
  return QObject::eventFilter(watched, event);
}

}  // namespace dpsynth::ui
