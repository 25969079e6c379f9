#include "ui/plots/posterior_density_plot.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QtTest>
#include <stdexcept>

#include "plot_test_data.h"

using namespace dpsynth::ui;

class PosteriorDensityPlotTest : public QObject {
  Q_OBJECT

 private slots:
  void oneCurvePerMechanismForTheChosenParameter() {
    test::FakeData data(1);
    PosteriorDensityPlot plot;
    plot.setSeries(
        {{"unweighted", {"beta[1]", "sigma"}, {data.normals(400, 1, 0.1), data.skewed(400, 1)}},
         {"lw", {"beta[1]", "sigma"}, {data.normals(400, 1.1, 0.2), data.skewed(400, 1)}},
         {"poisson", {"beta[1]"}, {data.normals(400, 0.9, 0.1)}}});
    QCOMPARE(plot.parameterNames(), QStringList({"beta[1]", "sigma"}));
    QCOMPARE(plot.currentParameter(), QString("beta[1]"));
    QCOMPARE(plot.plottableCount(), 3);
    QCOMPARE(plot.pointCount(), 3 * 512);
    QCOMPARE(plot.customPlot()->xAxis->label(), QString("beta[1]"));
    plot.parameterSelector()->setCurrentIndex(1);
    QCOMPARE(plot.currentParameter(), QString("sigma"));
    QCOMPARE(plot.plottableCount(), 2);  // the third mechanism has no sigma
    QCOMPARE(plot.customPlot()->yAxis->range().lower, 0.0);
    const PlotTable t = plot.plotTable();
    QCOMPARE(t.columns, QStringList({"mechanism", "parameter", "draw"}));
    QCOMPARE(t.rows.size(), size_t{5 * 400});
  }

  void rejectsMismatchedDraws() {
    PosteriorDensityPlot plot;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, plot.setSeries({{"a", {"x", "y"}, {{1, 2}}}}));
  }

  void keepsTheParameterAcrossUpdates() {
    PosteriorDensityPlot plot;
    plot.setSeries({{"a", {"x", "y"}, {{1, 2, 3}, {4, 5, 6}}}});
    plot.setCurrentParameter("y");
    plot.setSeries({{"b", {"x", "y"}, {{1, 2, 3}, {4, 5, 7}}}});
    QCOMPARE(plot.currentParameter(), QString("y"));
    plot.clear();
    QCOMPARE(plot.plottableCount(), 0);
  }
};

QTEST_MAIN(PosteriorDensityPlotTest)
#include "posterior_density_plot_test.moc"
