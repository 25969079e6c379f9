#include "ui/plots/trace_plot.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QtTest>
#include <algorithm>

#include "plot_test_data.h"

using dpsynth::ui::TracePlot;

class TracePlotTest : public QObject {
  Q_OBJECT

 private slots:
  void oneGraphPerChain() {
    TracePlot plot;
    plot.clearTraces({"beta[1]", "sigma"}, 3);
    QCOMPARE(plot.plottableCount(), 3);
    QCOMPARE(plot.parameterSelector()->count(), 2);
    // Two draws of chain 1, draw-major: (beta, sigma), (beta, sigma).
    plot.appendDraws(1, 0, {0.5, 2.0, 0.7, 2.5});
    plot.appendDraws(0, 0, {1.0, 3.0});
    QTRY_COMPARE(plot.customPlot()->graph(1)->dataCount(), 2);
    QCOMPARE(plot.customPlot()->graph(1)->data()->at(1)->value, 0.7);
    QCOMPARE(plot.pointCount(), 3);
    plot.setCurrentParameter(1);
    QCOMPARE(plot.customPlot()->graph(1)->data()->at(0)->value, 2.0);
    QCOMPARE(plot.customPlot()->yAxis->label(), QString("sigma"));
    QCOMPARE(plot.trace(1, 1).pointCount(), 2);
  }

  /// A cancelled run's chains stay on show but no longer say "sampling now"; with none drawn
  /// the plot names no mechanism.
  void aRunEndedEarlyIsNoLongerLive() {
    TracePlot plot;
    plot.clearTraces({"beta[1]"}, 2);
    plot.setLiveSource("lw", "lw");
    // Warm-up draws are not kept: until the first kept one the plot says why it is empty.
    QVERIFY(plot.shownMechanisms().contains("warm-up"));
    plot.appendDraws(0, 0, {1.0, 1.5});
    QTRY_COMPARE(plot.pointCount(), 2);
    QVERIFY(plot.shownMechanisms().contains("sampling now"));
    plot.endLive();
    QCOMPARE(plot.shownMechanisms(), QString("chains of lw"));
    QCOMPARE(plot.findChild<QComboBox*>("traceMechanism")->currentText(), QString("lw"));
    TracePlot empty;
    empty.clearTraces({"beta[1]"}, 2);
    empty.setLiveSource("lw", "unweighted");
    empty.endLive();
    QVERIFY(empty.shownMechanisms().isEmpty());
    QCOMPARE(empty.customPlot()->yAxis->label(), QString("Value"));
  }

  void dropsBatchesThatDoNotFit() {
    TracePlot plot;
    plot.clearTraces({"a", "b"}, 2);
    QVERIFY(!plot.appendDraws(2, 0, {1.0, 2.0}));
    QVERIFY(!plot.appendDraws(-1, 0, {1.0, 2.0}));
    QVERIFY(!plot.appendDraws(0, 0, {1.0, 2.0, 3.0}));
    QVERIFY(!plot.appendDraws(0, -5, {1.0, 2.0}));
    QVERIFY(plot.appendDraws(1, 0, {1.0, 2.0}));
    QCOMPARE(plot.trace(0, 0).drawCount(), std::int64_t{0});
    plot.clearTraces({}, 0);  // no run: everything is dropped
    QVERIFY(!plot.appendDraws(0, 0, {1.0}));
  }

  void burstsOfAppendsAreCoalesced() {
    TracePlot plot;
    plot.clearTraces({"theta"}, 4);
    const int before = plot.replotCount();
    dpsynth::ui::test::FakeData data(5);
    for (int call = 0; call < 1000; ++call) {
      plot.appendDraws(call % 4, call / 4, {data.normal()});
    }
    QCOMPARE(plot.replotCount(), before);  // nothing drawn inside the burst
    QTRY_VERIFY(plot.replotCount() > before);
    QTest::qWait(100);
    QVERIFY2(plot.replotCount() - before <= 2,
             qPrintable(QString::number(plot.replotCount() - before)));
    for (int c = 0; c < 4; ++c) QCOMPARE(plot.customPlot()->graph(c)->dataCount(), 250);
  }

  void longRunsAreDecimated() {
    TracePlot plot;
    plot.clearTraces({"theta"}, 2);
    dpsynth::ui::test::FakeData data(6);
    for (int batch = 0; batch < 100; ++batch) {
      std::vector<double> draws;
      for (int j = 0; j < 500; ++j) draws.push_back(data.normal());
      if (batch == 42) draws[7] = 50;  // one wild draw in chain 0
      plot.appendDraws(0, batch * 500, draws);
      plot.appendDraws(1, batch * 500, draws);
    }
    QTRY_VERIFY(plot.customPlot()->graph(0)->dataCount() > 0);
    QTest::qWait(60);
    for (int c = 0; c < 2; ++c) {
      QCPGraph* g = plot.customPlot()->graph(c);
      QVERIFY(g->dataCount() <= TracePlot::kMaxPointsPerChain);
      bool found = false;
      const QCPRange values = g->getValueRange(found);
      QCOMPARE(values.upper, 50.0);
    }
    QCOMPARE(plot.trace(0, 0).drawCount(), std::int64_t{50000});
    // The CSV holds what is drawn.
    const auto table = plot.plotTable();
    QCOMPARE(table.columns, QStringList({"mechanism", "parameter", "chain", "iteration", "value"}));
    QCOMPARE(static_cast<int>(table.rows.size()), plot.pointCount());
  }

  void warmupLineAndReset() {
    TracePlot plot;
    plot.clearTraces({"a"}, 1);
    plot.setWarmupEnd(1000);
    QCOMPARE(plot.customPlot()->itemCount(), 1);
    plot.clearTraces({"a"}, 1);
    QCOMPARE(plot.customPlot()->itemCount(), 0);
    plot.clearTraces({}, 0);
    QCOMPARE(plot.plottableCount(), 0);
  }
};

QTEST_MAIN(TracePlotTest)
#include "trace_plot_test.moc"
