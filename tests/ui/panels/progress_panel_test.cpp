/// The progress panel in a narrow dock: every stage's name and timing stays readable (wrapped,
/// not clipped behind a horizontal scroll bar).
#include "ui/panels/progress_panel.h"

#include <QLabel>
#include <QProgressBar>
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

  /// The bar's percentage is the stage's; the phase names what the chains are doing (a
  /// "warm-up 81%" read as warm-up 81% done while some chains were drawing).
  void theBarNamesEachChainsPhase() {
    ProgressPanel panel;
    panel.reset();
    StageEvent running;
    running.mechanism = running.stage = QStringLiteral("lw");
    panel.stageStarted(running);
    StageProgress p;
    p.stage = running.stage;
    p.chains = {{0, 1500, 2000, false, 0}, {1, 900, 2000, true, 0}};
    panel.updateProgress(p);
    QCOMPARE(panel.rows()[0].bar->format(), QStringLiteral("%p% · 1 of 2 chains in warm-up"));
    p.chains[1] = {1, 1100, 2000, false, 2};
    panel.updateProgress(p);
    QCOMPARE(panel.rows()[0].bar->format(), QStringLiteral("%p% · sampling · 2 divergent"));
    p.chains = {{0, 10, 2000, true, 0}, {1, 12, 2000, true, 0}};
    panel.updateProgress(p);
    QCOMPARE(panel.rows()[0].bar->format(), QStringLiteral("%p% · warm-up"));
  }

  /// Four chains on two threads: the two not started yet count with their whole run, so the
  /// bar never goes back when they start (it read 87% of two chains, then 73% of four).
  void chainsNotStartedCountInTheStage() {
    StageProgress p;
    p.chains = {{0, 1800, 2000, false, 0},
                {1, 1700, 2000, false, 0},
                {2, 0, 0, true, 0},
                {3, 0, 0, true, 0}};
    QCOMPARE(p.fraction(), 3500.0 / 8000.0);
    p.chains[2] = {2, 100, 2000, true, 0};
    QVERIFY(p.fraction() > 3500.0 / 8000.0);
  }
};

QTEST_MAIN(ProgressPanelTest)
#include "progress_panel_test.moc"
