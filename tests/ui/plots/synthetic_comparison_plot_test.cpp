#include "ui/plots/synthetic_comparison_plot.h"

#include <qcustomplot.h>

#include <QtTest>

#include "plot_test_data.h"

using namespace dpsynth::ui;

class SyntheticComparisonPlotTest : public QObject {
  Q_OBJECT

 private slots:
  void ecdfStepsAtDistinctValues() {
    QVector<double> x, y;
    SyntheticComparisonPlot::ecdfPoints({3, 1, 2, 2}, x, y);
    QCOMPARE(x, QVector<double>({1, 2, 3}));
    QCOMPARE(y, QVector<double>({0.25, 0.75, 1.0}));
    std::vector<double> many;
    for (int i = 0; i < 10000; ++i) many.push_back(i);
    SyntheticComparisonPlot::ecdfPoints(many, x, y, 100);
    QCOMPARE(x.size(), 100);
    QCOMPARE(x.front(), 0.0);
    QCOMPARE(x.back(), 9999.0);
    QCOMPARE(y.back(), 1.0);
  }

  void continuousDataGivesDensitiesAndEcdfs() {
    test::FakeData data(1);
    SyntheticComparisonPlot plot;
    plot.setData(
        data.normals(500, 10, 2), false,
        {{"lw", data.normals(500, 10.5, 2)}, {"cw", data.normals(400, 9, 2)}, {"empty", {}}});
    QCOMPARE(plot.seriesCount(), 3);
    QCOMPARE(plot.plottableCount(), 6);  // three densities + three ECDFs
    QCOMPARE(plot.customPlot()->legend->itemCount(), 3);
    int inDensity = 0;
    for (int i = 0; i < plot.plottableCount(); ++i) {
      QCPAbstractPlottable* p = plot.customPlot()->plottable(i);
      if (p->keyAxis()->axisRect() == plot.densityRect()) {
        ++inDensity;
        QCOMPARE(p->interface1D()->dataCount(), 512);
      }
    }
    QCOMPARE(inDensity, 3);
    QCOMPARE(plot.ecdfRect()->axis(QCPAxis::atLeft)->range().upper, 1.04);
    const PlotTable t = plot.plotTable();
    QCOMPARE(t.columns, QStringList({"panel", "series", "x", "y"}));
    QCOMPARE(static_cast<int>(t.rows.size()), plot.pointCount());
    QCOMPARE(t.rows.front().front(), QString("density"));
  }

  /// Beta outcomes: the densities stay inside [0, 1] and keep their height at the bounds (they
  /// were smoothed below 0 and halved at the bounds).
  void aBoundedOutcomesDensityStaysInItsSupport() {
    std::vector<double> shares;
    for (int i = 0; i < 400; ++i) shares.push_back((i + 0.5) / 400.0);  // uniform on (0, 1)
    SyntheticComparisonPlot plot;
    plot.setData(shares, false, {{"lw", shares}}, 0.0, 1.0);
    for (int i = 0; i < plot.plottableCount(); ++i) {
      auto* graph = qobject_cast<QCPGraph*>(plot.customPlot()->plottable(i));
      if (!graph || graph->keyAxis()->axisRect() != plot.densityRect()) continue;
      const auto data = graph->data();
      QVERIFY(data->size() > 0);
      QCOMPARE(data->constBegin()->key, 0.0);
      QCOMPARE((data->constEnd() - 1)->key, 1.0);
      QVERIFY2(data->constBegin()->value > 0.85,
               qPrintable(QString::number(data->constBegin()->value)));
    }
  }

  /// Each ECDF runs from 0 to 1 across the x extent the densities cover: a beta sample's ECDF
  /// stopped at its largest value (0.9) where the density went on to the bound.
  void ecdfsSpanTheDensitiesExtent() {
    std::vector<double> low, high;
    for (int i = 0; i < 200; ++i) {
      low.push_back(0.1 + 0.5 * (i + 0.5) / 200.0);   // 0.1 .. 0.6
      high.push_back(0.3 + 0.6 * (i + 0.5) / 200.0);  // 0.3 .. 0.9
    }
    SyntheticComparisonPlot plot;
    plot.setData(low, false, {{"lw", high}}, 0.0, 1.0);
    double densityLo = 1e300, densityHi = -1e300;
    std::vector<QCPGraph*> ecdfs;
    for (int i = 0; i < plot.plottableCount(); ++i) {
      auto* graph = qobject_cast<QCPGraph*>(plot.customPlot()->plottable(i));
      QVERIFY(graph);
      if (graph->keyAxis()->axisRect() == plot.densityRect()) {
        densityLo = std::min(densityLo, graph->data()->constBegin()->key);
        densityHi = std::max(densityHi, (graph->data()->constEnd() - 1)->key);
      } else {
        ecdfs.push_back(graph);
      }
    }
    QCOMPARE(ecdfs.size(), std::size_t{2});
    QVERIFY(densityHi > 0.9);
    for (QCPGraph* ecdf : ecdfs) {
      const auto first = ecdf->data()->constBegin();
      const auto last = ecdf->data()->constEnd() - 1;
      QCOMPARE(first->key, densityLo);
      QCOMPARE(first->value, 0.0);
      QCOMPARE(last->key, densityHi);
      QCOMPARE(last->value, 1.0);
    }
  }

  void countDataGivesHistograms() {
    SyntheticComparisonPlot plot;
    plot.setData({0, 1, 1, 2, 2, 2, 5}, true, {{"lw", {0, 0, 1, 3}}});
    QVERIFY(plot.countData());
    QCPBars* conf = qobject_cast<QCPBars*>(plot.customPlot()->plottable(0));
    QVERIFY(conf);
    QCOMPARE(conf->dataCount(), 6);  // integers 0..5, one bin each
    QCOMPARE(conf->data()->at(2)->key, 2.0);
    QCOMPARE(conf->data()->at(2)->value, 3.0 / 7.0);  // shares, so sizes compare
    QCOMPARE(plot.plottableCount(), 4);
    QCOMPARE(plot.plotTable().rows.front().front(), QString("histogram"));

    std::vector<double> wide;
    for (int i = 0; i < 1000; ++i) wide.push_back(i);
    plot.setData(wide, true, {});
    conf = qobject_cast<QCPBars*>(plot.customPlot()->plottable(0));
    QVERIFY(conf->dataCount() <= 40);
    double total = 0;
    for (auto it = conf->data()->constBegin(); it != conf->data()->constEnd(); ++it)
      total += it->value;
    QVERIFY(std::abs(total - 1) < 1e-12);
  }

  void clearEmptiesBothPanels() {
    SyntheticComparisonPlot plot;
    plot.setData({1, 2, 3}, false, {{"a", {1, 2}}});
    plot.clear();
    QCOMPARE(plot.plottableCount(), 0);
    QCOMPARE(plot.seriesCount(), 0);
  }
};

QTEST_MAIN(SyntheticComparisonPlotTest)
#include "synthetic_comparison_plot_test.moc"
