#include "ui/plots/violin_plottable.h"

#include <qcustomplot.h>

#include <QtTest>
#include <cmath>
#include <vector>

#include "plot_test_data.h"

using dpsynth::ui::ViolinPlottable;

class ViolinPlottableTest : public QObject {
  Q_OBJECT

 private:
  /// A laid-out plot so that pixel coordinates mean something.
  static void layOut(QCustomPlot& plot) {
    plot.setViewport(QRect(0, 0, 400, 300));  // a hidden widget gets no resize event
    plot.rescaleAxes();
    plot.replot();
  }

 private slots:
  void statsAreTypeSevenQuantiles() {
    QCustomPlot plot;
    auto* v = new ViolinPlottable(plot.xAxis, plot.yAxis);
    const std::vector<double> values{9, 1, 8, 2, 7, 3, 6, 4, 5, 40, std::nan("")};
    QCOMPARE(v->addViolin(1.0, values, "m"), 0);
    const auto& s = v->violin(0);
    QCOMPARE(s.count, 10);  // NaN dropped
    QCOMPARE(s.min, 1.0);
    QCOMPARE(s.max, 40.0);
    QCOMPARE(s.median, 5.5);
    QCOMPARE(s.q1, 3.25);  // h = 9 · 0.25 = 2.25 → 3 + 0.25
    QCOMPARE(s.q3, 7.75);
    // Fences at 3.25 − 6.75 and 7.75 + 6.75: 40 is an outlier, 9 the upper whisker.
    QCOMPARE(s.whiskerLow, 1.0);
    QCOMPARE(s.whiskerHigh, 9.0);
    QCOMPARE(v->samples(0).size(), size_t{10});
    QVERIFY(std::is_sorted(v->samples(0).begin(), v->samples(0).end()));
    QVERIFY(s.bandwidth > 0);
    QVERIFY(v->describe(0).contains("n = 10"));
    QVERIFY(v->describe(0).contains("m"));
  }

  void keyAndValueRanges() {
    QCustomPlot plot;
    auto* v = new ViolinPlottable(plot.xAxis, plot.yAxis);
    bool found = true;
    v->getKeyRange(found);
    QVERIFY(!found);  // no violins
    v->addViolin(1.0, std::vector<double>{0.5, 1.0, 2.0, 3.0});
    v->addViolin(2.0, std::vector<double>{-1.0, 0.0, 4.0});
    v->addViolin(5.0, std::vector<double>{});  // empty: ignored by the ranges
    v->setWidth(0.6);
    const QCPRange keys = v->getKeyRange(found);
    QVERIFY(found);
    QCOMPARE(keys.lower, 0.7);
    QCOMPARE(keys.upper, 2.3);
    const QCPRange values = v->getValueRange(found);
    QVERIFY(found);
    QCOMPARE(values.lower, -1.0);  // trimmed to the samples
    QCOMPARE(values.upper, 4.0);
    const QCPRange firstOnly = v->getValueRange(found, QCP::sdBoth, QCPRange(0.5, 1.5));
    QCOMPARE(firstOnly.lower, 0.5);
    QCOMPARE(firstOnly.upper, 3.0);
    const QCPRange positive = v->getValueRange(found, QCP::sdPositive);
    QCOMPARE(positive.lower, 0.5);

    v->setTrimToRange(false);  // the density now runs 3 bandwidths past the samples
    const QCPRange wide = v->getValueRange(found);
    QVERIFY(wide.lower < -1.0 && wide.upper > 4.0);

    plot.rescaleAxes();
    QCOMPARE(plot.xAxis->range().lower, 0.7);
    QCOMPARE(plot.xAxis->range().upper, 2.3);
    QCOMPARE(plot.yAxis->range().lower, wide.lower);
  }

  void widthIsNormalised() {
    QCustomPlot plot;
    auto* v = new ViolinPlottable(plot.xAxis, plot.yAxis);
    dpsynth::ui::test::FakeData data(1);
    v->addViolin(1, data.normals(500, 0, 1));
    v->addViolin(2, data.normals(500, 0, 3));  // flatter: lower peak density
    auto widest = [&](int i) {
      double w = 0;
      for (double y : v->violin(i).grid) w = std::max(w, v->halfWidthAt(i, y));
      return w;
    };
    QVERIFY(std::abs(widest(0) - 0.4) < 1e-12);  // default width 0.8
    QVERIFY(std::abs(widest(1) - 0.4) < 1e-12);
    v->setScaleMode(ViolinPlottable::ScaleMode::SameArea);
    QVERIFY(std::abs(widest(0) - 0.4) < 1e-12);
    QVERIFY(widest(1) < 0.25);  // one scale for all: the spread-out violin is narrower
    QCOMPARE(v->halfWidthAt(0, 100.0), 0.0);
  }

  void selectTestFindsTheViolinUnderTheMouse() {
    QCustomPlot plot;
    auto* v = new ViolinPlottable(plot.xAxis, plot.yAxis);
    dpsynth::ui::test::FakeData data(2);
    v->addViolin(1, data.normals(300, 0, 1), "a");
    v->addViolin(2, data.normals(300, 0, 1), "b");
    layOut(plot);
    const QPointF onB = v->coordsToPixels(2.0, v->violin(1).median);
    QCOMPARE(v->violinAt(onB), 1);
    QVariant details;
    QVERIFY(v->selectTest(onB, false, &details) >= 0);
    QCOMPARE(details.value<QCPDataSelection>().dataRange(0).begin(), 1);
    QCOMPARE(plot.plottableAt(onB), v);
    const QPointF between = v->coordsToPixels(1.5, 5.0);  // above both, between the keys
    QCOMPARE(v->violinAt(between), -1);
    QCOMPARE(v->selectTest(QPointF(-50, -50), false), -1.0);
  }

  void degenerateSamplesStillDraw() {
    QCustomPlot plot;
    auto* v = new ViolinPlottable(plot.xAxis, plot.yAxis);
    v->addViolin(1, std::vector<double>{2.0, 2.0, 2.0});  // no spread: no outline, a bar
    v->addViolin(2, std::vector<double>{3.0});
    QVERIFY(v->violin(0).grid.empty());
    QCOMPARE(v->violin(0).median, 2.0);
    layOut(plot);
    QCOMPARE(v->violinAt(v->coordsToPixels(1.0, 2.0)), 0);
    QVERIFY(!plot.toPixmap(200, 150).isNull());
  }

  void replacingDataRecomputes() {
    QCustomPlot plot;
    auto* v = new ViolinPlottable(plot.xAxis, plot.yAxis);
    v->addViolin(1, std::vector<double>{1, 2, 3});
    v->setViolinData(0, std::vector<double>{10, 20, 30, 40});
    QCOMPARE(v->violin(0).count, 4);
    QCOMPARE(v->violin(0).median, 25.0);
    QCOMPARE(v->sampleCount(), 4);
    v->clearData();
    QCOMPARE(v->violinCount(), 0);
  }

  void drawsWithLegendIcon() {
    QCustomPlot plot;
    auto* v = new ViolinPlottable(plot.xAxis, plot.yAxis);
    v->setName("violins");
    dpsynth::ui::test::FakeData data(3);
    v->addViolin(1, data.skewed(200, 1.0));
    plot.legend->setVisible(true);
    QCOMPARE(plot.legend->itemCount(), 1);  // added to the legend on construction
    QCOMPARE(plot.legend->itemWithPlottable(v)->plottable(), v);
    layOut(plot);
    const QImage image = plot.toPixmap(400, 300).toImage();
    // The violin's fill shows beside the box at the median.
    const QPoint centre = v->coordsToPixels(1.1, v->violin(0).median).toPoint();
    QVERIFY(image.pixelColor(centre) != QColor(Qt::white));
  }
};

QTEST_MAIN(ViolinPlottableTest)
#include "violin_plottable_test.moc"
