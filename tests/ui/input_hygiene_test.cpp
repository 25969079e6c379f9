/// Input hygiene in the settings panels: the mouse wheel edits only a focused field, a run of
/// wheel notches is one undo step, and the undo/redo keys reach the settings everywhere.
#include <QAction>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QSlider>
#include <QUndoStack>
#include <QWheelEvent>
#include <QtTest>

#include "studio_test_helpers.h"
#include "ui/main_window.h"
#include "ui/panels/tuning_panel.h"
#include "ui/widgets/tuning_field.h"

using namespace dpsynth::ui;

namespace {

/// One wheel notch (up) over the middle of the widget, as the platform delivers it.
void wheel(QWidget* widget, int notches = 1) {
  for (int i = 0; i < notches; ++i) {
    const QPointF centre = QRectF(widget->rect()).center();
    QWheelEvent event(centre, widget->mapToGlobal(centre), QPoint(), QPoint(0, 120), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(widget, &event);
  }
}

}  // namespace

class InputHygieneTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QVERIFY(settingsDir_.isValid());
    test::isolateSettings(settingsDir_);
  }

  void init() {
    window_ = std::make_unique<MainWindow>();
    window_->setErrorPresenter(errors_.presenter());
    window_->synthesis()->autoRunBox()->setChecked(false);
    window_->loadDefaults();
    window_->show();
    window_->activateWindow();  // also without a window manager (X11 under Xvfb)
    QVERIFY(QTest::qWaitForWindowActive(window_.get()));
    window_->setFocus();
  }

  void cleanup() { window_.reset(); }

  void wheelOverAnUnfocusedSliderOrSpinBoxChangesNothing() {
    auto* field = window_->synthesis()->tuningPanel()->field("downscale");
    field->autoBox()->setChecked(false);  // a number to change (one edit)
    auto* undo = window_->document()->undoStack();
    const int steps = undo->count();
    const QVariant before = field->value();
    QVERIFY(!field->slider()->hasFocus());
    QVERIFY(!field->spinBox()->hasFocus());
    // Focus by click or Tab, not by the wheel.
    QCOMPARE(field->slider()->focusPolicy(), Qt::StrongFocus);
    QCOMPARE(field->spinBox()->focusPolicy(), Qt::StrongFocus);
    wheel(field->slider(), 3);
    wheel(field->spinBox(), 3);
    wheel(field->spinBox()->findChild<QLineEdit*>(), 3);
    QCOMPARE(field->value(), before);
    QCOMPARE(undo->count(), steps);
  }

  void wheelNotchesOnAFocusedFieldAreOneUndoStep() {
    auto* field = window_->synthesis()->tuningPanel()->field("c");
    auto* undo = window_->document()->undoStack();
    field->spinBox()->setFocus();
    QTRY_VERIFY(field->spinBox()->hasFocus());
    wheel(field->spinBox(), 4);
    QCOMPARE(field->value().toDouble(), 1.04);
    QCOMPARE(undo->count(), 1);
    undo->undo();
    QCOMPARE(field->value().toDouble(), 1.0);

    // Leaving the field ends the series: the next visit is a new step.
    field->slider()->setFocus();
    QTRY_VERIFY(field->slider()->hasFocus());
    wheel(field->slider(), 2);
    QCOMPARE(undo->count(), 1);  // the undone step was replaced
    QVERIFY(field->value().toDouble() > 1.0);
    window_->setFocus();
    field->spinBox()->setFocus();
    QTRY_VERIFY(field->spinBox()->hasFocus());
    wheel(field->spinBox(), 1);
    QCOMPARE(undo->count(), 2);
  }

  void ctrlShiftZAndCtrlYRedo() {
    auto* field = window_->synthesis()->tuningPanel()->field("c");
    field->spinBox()->setValue(0.6);
    QTest::keyClick(window_.get(), Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(field->value().toDouble(), 1.0);
    QTest::keyClick(window_.get(), Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(field->value().toDouble(), 0.6);
    QTest::keyClick(window_.get(), Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(field->value().toDouble(), 1.0);
    QTest::keyClick(window_.get(), Qt::Key_Y, Qt::ControlModifier);
    QCOMPARE(field->value().toDouble(), 0.6);
    // No key is listed twice (a duplicate is an ambiguous shortcut that never fires).
    for (QAction* action : window_->findChildren<QAction*>()) {
      const auto keys = action->shortcuts();
      for (int i = 0; i < keys.size(); ++i)
        QVERIFY2(!keys.mid(i + 1).contains(keys[i]), qPrintable(action->text()));
    }
  }

  void ctrlZInAFocusedNumberFieldUndoesTheSettingsEdit() {
    auto* field = window_->synthesis()->tuningPanel()->field("c");
    auto* spin = field->spinBox();
    auto* undo = window_->document()->undoStack();
    spin->setFocus();
    QTRY_VERIFY(spin->hasFocus());
    spin->selectAll();
    QTest::keyClicks(spin, "0.5");
    QTest::keyClick(spin, Qt::Key_Return);  // committed: one step
    QCOMPARE(field->value().toDouble(), 0.5);
    QCOMPARE(undo->count(), 1);
    QTest::keyClick(spin, Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(field->value().toDouble(), 1.0);
    QCOMPARE(undo->index(), 0);

    // Typed but not yet committed: Ctrl+Z commits it, then undoes it.
    spin->selectAll();
    QTest::keyClicks(spin, "0.7");
    QTest::keyClick(spin, Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(field->value().toDouble(), 1.0);
    QVERIFY(undo->canRedo());
    QTest::keyClick(spin, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(field->value().toDouble(), 0.7);
  }

 private:
  QTemporaryDir settingsDir_;
  test::ErrorRecorder errors_;
  std::unique_ptr<MainWindow> window_;
};

QTEST_MAIN(InputHygieneTest)
#include "input_hygiene_test.moc"
