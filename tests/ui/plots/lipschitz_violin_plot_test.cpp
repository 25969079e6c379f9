#include "ui/plots/lipschitz_violin_plot.h"

#include <qcustomplot.h>

#include <QtTest>

#include "plot_test_data.h"
#include "ui/plots/plot_style.h"
#include "ui/plots/violin_plottable.h"

using namespace dpsynth::ui;

class LipschitzViolinPlotTest : public QObject {
  Q_OBJECT

 private slots:
  void boundIsHalfEpsilonOrDelta() {
    QCOMPARE(LipschitzViolinPlot::boundFor({"dp", {1, 2}, true, 6.0, 9.0}), 3.0);
    QCOMPARE(LipschitzViolinPlot::boundFor({"adp", {1, 2}, false, 6.0, 2.5}), 2.5);
    QCOMPARE(LipschitzViolinPlot::boundFor({"adp", {1, 4, 2}, false, 6.0, 0}), 4.0);
    // A censored mechanism's line is its clamp's max(|L|, |U|) when known: ε/4 for beta and
    // normal under replace-one.
    QCOMPARE(LipschitzViolinPlot::boundFor({"dp", {1, 1.4}, true, 6.0, 1.4, {}, 1.5}), 1.5);
  }

  /// Records clamped at the bound end the violin flat on its line: the axis leaves room above.
  void aClampedViolinHasRoomAboveItsLine() {
    LipschitzViolinPlot plot;
    std::vector<double> deltas(200, 1.25);
    for (int i = 0; i < 100; ++i) deltas[static_cast<size_t>(i)] = 0.2 + 0.01 * i;
    plot.setSeries({{"censor-uw", deltas, true, 5.0, 1.25, {}, 1.25}});
    plot.resetView();
    const QCPRange y = plot.customPlot()->yAxis->range();
    QVERIFY2(y.upper >= 1.25 + 0.04 * y.size(), qPrintable(QString::number(y.upper)));
    QCOMPARE(y.lower, 0.0);
  }

  void oneViolinPerMechanismAndDashedBounds() {
    test::FakeData data(1);
    LipschitzViolinPlot plot;
    plot.setSeries({{"lw", data.skewed(300, 1), false, 0, 0},
                    {"weighted-e", data.skewed(200, 1), true, 4.0, 0},
                    {"cw", data.skewed(100, 1), false, 0, 0}});
    // The violins plus one dashed graph per kind of guarantee.
    QCOMPARE(plot.plottableCount(), 3);
    QCOMPARE(plot.violins()->violinCount(), 3);
    QCOMPARE(plot.violins()->sampleCount(), 600);
    QCOMPARE(plot.pointCount(), 600 + 2 + 4);  // two line segments for aDP, one for DP
    QCPGraph* dp = plot.customPlot()->graph(0);
    QCOMPARE(dp->data()->at(0)->value, 2.0);
    QCOMPARE(dp->pen().style(), Qt::DashLine);
    QCOMPARE(plot.violins()->violin(1).key, 2.0);
    QCOMPARE(plot.violins()->violin(1).label, QString("weighted-e"));
    // The whole picture is in view: three violins and the bound lines.
    QVERIFY(plot.customPlot()->xAxis->range().contains(0.6));
    QVERIFY(plot.customPlot()->xAxis->range().contains(3.4));
    QVERIFY(plot.customPlot()->yAxis->range().upper >= plot.violins()->violin(0).max);
  }

  void seriesFillInWhileRunning() {
    test::FakeData data(2);
    LipschitzViolinPlot plot;
    const int before = plot.replotCount();
    plot.updateSeries({"lw", data.skewed(50, 1), false, 0, 0});
    plot.updateSeries({"lw", data.skewed(80, 1), false, 0, 0});  // same mechanism: replaced
    plot.updateSeries({"cw", data.skewed(20, 1), false, 0, 0});
    QCOMPARE(plot.seriesCount(), 2);
    QTRY_COMPARE(plot.violins()->sampleCount(), 100);
    QVERIFY(plot.replotCount() - before <= 2);
  }

  void stageLabelsFitTheirViolinsRoom() {
    // Seven mechanisms mid-run, each at a stage with a long name: no tick label is wider than
    // the room its violin has (they overlapped before), and a resize relabels.
    test::FakeData data(3);
    LipschitzViolinPlot plot;
    plot.setMinimumWidth(0);
    plot.resize(700, 400);
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    std::vector<LipschitzSeries> series;
    for (const char* name :
         {"lw-final", "cw-final", "censor-w", "censor-uw", "weighted-e", "lw", "cw"}) {
      LipschitzSeries s{name, data.skewed(40, 1), false, 0, 0};
      s.stage = QStringLiteral("%1 k=0.98812 re-weighting").arg(name);
      series.push_back(s);
    }
    plot.setSeries(series);
    auto widest = [&plot] {
      plot.customPlot()->replot();
      const QFontMetrics metrics(plot.customPlot()->xAxis->tickLabelFont());
      int widest = 0;
      for (const QString& label : plot.customPlot()->xAxis->tickVectorLabels())
        for (const QString& line : label.split('\n'))
          widest = std::max(widest, metrics.horizontalAdvance(line));
      return widest;
    };
    const int narrow = plot.width();
    const int narrowWidest = widest();
    QVERIFY2(narrowWidest <= (narrow - 80) / 7,
             qPrintable(QStringLiteral("%1 in %2").arg(narrowWidest).arg(narrow)));
    QVERIFY(plot.customPlot()->xAxis->tickVectorLabels().first().startsWith("lw-final\n"));
    plot.resize(narrow * 2, 400);
    QTRY_VERIFY(plot.width() > narrow);
    const int wide = plot.width();
    QVERIFY2(widest() <= (wide - 80) / 7,
             qPrintable(QStringLiteral("%1 in %2").arg(widest()).arg(wide)));
    QVERIFY(widest() > narrowWidest);  // more room, more of the stage's name
  }

  void aLegendWithAnEmptyCellIsFitted() {
    // The Frontier's legend has empty grid cells; fitting it dereferenced them (a crash on every
    // Run frontier).
    QCustomPlot plot;
    plot_style::placeLegendAbove(&plot, 3);
    plot.addGraph()->setName(QStringLiteral("a"));
    plot.legend->addElement(0, 3, nullptr);  // a cell left empty
    plot.legend->addElement(1, 1, new QCPPlottableLegendItem(plot.legend, plot.graph(0)));
    plot_style::fitLegend(&plot);
    for (int i = 0; i < plot.legend->itemCount(); ++i)
      if (plot.legend->item(i)) QVERIFY(plot.legend->item(i)->margins().bottom() >= 5);
  }

  void csvHasOneRowPerRecordAndBound() {
    LipschitzViolinPlot plot;
    plot.setSeries({{"a", {1, 2, 3}, true, 2, 0}, {"b", {4, 5}, false, 0, 0}});
    const PlotTable t = plot.plotTable();
    QCOMPARE(t.columns, QStringList({"mechanism", "kind", "value"}));
    QCOMPARE(t.rows.size(), size_t{3 + 2 + 2});
    QCOMPARE(t.rows[0], QStringList({"a", "bound_eps_half", "1"}));
    QTemporaryDir dir;
    QVERIFY(plot.exportTo(dir.filePath("l.png")));
    QFile csv(dir.filePath("l.csv"));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    QCOMPARE(csv.readAll().count('\n'), 8);
  }

  void hoverShowsTheMechanism() {
    test::FakeData data(3);
    LipschitzViolinPlot plot;
    plot.resize(500, 400);
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    plot.setSeries({{"lw", data.skewed(300, 1), false, 0, 0}});
    plot.customPlot()->replot();
    const auto* v = plot.violins();
    const QString tip = plot.toolTipAt(v->coordsToPixels(1.0, v->violin(0).median));
    QVERIFY2(tip.contains("lw") && tip.contains("n = 300"), qPrintable(tip));
  }

  void clearEmptiesThePlot() {
    LipschitzViolinPlot plot;
    plot.setSeries({{"a", {1, 2, 3}, true, 2, 0}});
    plot.clear();
    QCOMPARE(plot.plottableCount(), 1);  // the (empty) violin plottable stays for the legend
    QCOMPARE(plot.pointCount(), 0);
  }
};

QTEST_MAIN(LipschitzViolinPlotTest)
#include "lipschitz_violin_plot_test.moc"
