#include "ui/plots/lipschitz_weight_plot.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QtTest>
#include <stdexcept>

#include "plot_test_data.h"

using namespace dpsynth::ui;

class LipschitzWeightPlotTest : public QObject {
  Q_OBJECT

 private slots:
  void rejectsMismatchedLengths() {
    LipschitzWeightPlot plot;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, plot.setSeries({{"x", {}, {}, {0.5}, {1, 2}}}));
  }

  void scatterAndMaxLinePerStage() {
    test::FakeData data(1);
    LipschitzWeightPlot plot;
    const auto deltaAfter = data.skewed(150, 1);
    plot.setSeries(
        {{"lw-final", data.weights(200), data.skewed(200, 2), data.weights(150), deltaAfter},
         {"cw", {}, {}, {0.5, 1.0}, {1.0, 2.0}}});
    QCOMPARE(plot.mechanismSelector()->count(), 2);
    QCOMPARE(plot.currentMechanism(), 0);
    QCOMPARE(plot.plottableCount(), 4);  // before + its max, after + its max
    QCOMPARE(plot.pointCount(), 200 + 2 + 150 + 2);
    QCPGraph* before = plot.customPlot()->graph(0);
    QCPGraph* after = plot.customPlot()->graph(2);
    QVERIFY(before->scatterStyle().brush().color().rgb() !=
            after->scatterStyle().brush().color().rgb());
    QCOMPARE(plot.customPlot()->graph(3)->pen().style(), Qt::DashLine);
    QCOMPARE(plot.customPlot()->graph(3)->data()->at(0)->value,
             *std::max_element(deltaAfter.begin(), deltaAfter.end()));

    plot.mechanismSelector()->setCurrentIndex(1);  // no re-weighting stage: one scatter + max
    QCOMPARE(plot.currentMechanism(), 1);
    QCOMPARE(plot.plottableCount(), 2);
    QCOMPARE(plot.customPlot()->graph(0)->name(), QString("final weights"));

    const PlotTable t = plot.plotTable();
    QCOMPARE(t.columns, QStringList({"mechanism", "stage", "weight", "delta"}));
    QCOMPARE(t.rows.size(), size_t{200 + 150 + 2});
  }

  /// A short plot (a 1024×700 window) cut the long y label at both ends: it takes the brief one.
  void aShortPlotTakesTheBriefAxisLabel() {
    LipschitzWeightPlot plot;
    QCPAxis* y = plot.customPlot()->yAxis;
    plot.resize(700, 600);
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    plot.customPlot()->replot();
    QCOMPARE(y->label(), QString("By-record Lipschitz bound Δᵢ"));
    plot.resize(700, 150);
    QTRY_COMPARE(y->label(), QString("Δᵢ"));
    plot.resize(700, 600);
    QTRY_COMPARE(y->label(), QString("By-record Lipschitz bound Δᵢ"));
  }

  void keepsTheChosenMechanismAcrossUpdates() {
    LipschitzWeightPlot plot;
    plot.setSeries({{"a", {}, {}, {1}, {1}}, {"b", {}, {}, {1}, {2}}});
    plot.setCurrentMechanism(1);
    plot.setSeries({{"c", {}, {}, {1}, {1}}, {"b", {}, {}, {1}, {3}}});
    QCOMPARE(plot.currentMechanism(), 1);
    QCOMPARE(plot.mechanismSelector()->currentText(), QString("b"));
    plot.clear();
    QCOMPARE(plot.plottableCount(), 0);
  }
};

QTEST_MAIN(LipschitzWeightPlotTest)
#include "lipschitz_weight_plot_test.moc"
