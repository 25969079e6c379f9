#include "ui/plots/weight_violin_plot.h"

#include <qcustomplot.h>

#include <QtTest>

#include "plot_test_data.h"
#include "ui/plots/violin_plottable.h"

using namespace dpsynth::ui;

class WeightViolinPlotTest : public QObject {
  Q_OBJECT

 private slots:
  void beforeAndAfterSideBySide() {
    test::FakeData data(1);
    WeightViolinPlot plot;
    plot.setSeries(
        {{"lw-final", data.weights(300), data.weights(300)}, {"cw", {}, data.weights(200)}});
    QCOMPARE(plot.plottableCount(), 2);
    QCOMPARE(plot.beforeViolins()->violinCount(), 2);
    QCOMPARE(plot.afterViolins()->violinCount(), 2);
    QCOMPARE(plot.beforeViolins()->violin(1).count, 0);  // cw was not re-weighted
    QCOMPARE(plot.pointCount(), 800);
    QVERIFY(plot.beforeViolins()->violin(0).key < 1.0);
    QVERIFY(plot.afterViolins()->violin(0).key > 1.0);
    // Weights are in [0, 1]: the whole interval is shown.
    QVERIFY(plot.customPlot()->yAxis->range().lower <= 0);
    QVERIFY(plot.customPlot()->yAxis->range().upper >= 1);
    const PlotTable t = plot.plotTable();
    QCOMPARE(t.columns, QStringList({"mechanism", "stage", "value"}));
    QCOMPARE(t.rows.size(), size_t{800});
  }

  void withoutReweightingTheViolinsAreCentred() {
    WeightViolinPlot plot;
    plot.setSeries({{"sw", {}, {0.5, 0.5, 0.5}}, {"lw", {}, {0.1, 0.4, 0.9, 1.0}}});
    QCOMPARE(plot.plottableCount(), 1);
    QVERIFY(plot.beforeViolins() == nullptr);
    QCOMPARE(plot.afterViolins()->violin(1).key, 2.0);
    QCOMPARE(plot.afterViolins()->name(), QString("weights"));
  }
};

QTEST_MAIN(WeightViolinPlotTest)
#include "weight_violin_plot_test.moc"
