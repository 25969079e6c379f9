/// The progress panel in a narrow dock: every stage's name and timing stays readable (wrapped,
/// not clipped behind a horizontal scroll bar).
#include "ui/panels/progress_panel.h"

#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QtTest>

using namespace dpsynth::ui;

class ProgressPanelTest : public QObject {
  Q_OBJECT

 private slots:
  void longStageNamesWrapInANarrowPanel() {
    ProgressPanel panel;
    panel.resize(260, 400);
    panel.show();
    panel.reset();
    StageEvent cached;
    cached.mechanism = QStringLiteral("lw-final");
    cached.stage = QStringLiteral("unweighted");
    cached.fromCache = true;
    panel.stageStarted(cached);
    StageEvent running;
    running.mechanism = QStringLiteral("cw-final");
    running.stage = QStringLiteral("cw-final k=0.9927 (third refit of the k search)");
    panel.stageStarted(running);
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QCoreApplication::processEvents();

    QCOMPARE(panel.scrollArea()->horizontalScrollBar()->maximum(), 0);
    const int viewport = panel.scrollArea()->viewport()->width();
    for (const auto& row : panel.rows()) {
      for (const QLabel* label : {row.name, row.timing}) {
        // Inside the visible width, and tall enough for all of its wrapped text.
        const QRect box(label->mapTo(panel.scrollArea()->viewport(), QPoint(0, 0)), label->size());
        QVERIFY2(box.right() <= viewport, qPrintable(label->text()));
        QVERIFY2(label->height() >= label->heightForWidth(label->width()),
                 qPrintable(label->text()));
      }
    }
    QCOMPARE(panel.rows()[0].timing->text(), QStringLiteral("reused, not run again"));
  }
};

QTEST_MAIN(ProgressPanelTest)
#include "progress_panel_test.moc"
