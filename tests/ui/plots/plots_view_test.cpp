#include "ui/plots/plots_view.h"

#include <qcustomplot.h>

#include <QtTest>

#include "plot_test_data.h"
#include "ui/plots/lipschitz_violin_plot.h"
#include "ui/plots/lipschitz_weight_plot.h"
#include "ui/plots/plot_widget.h"
#include "ui/plots/posterior_density_plot.h"
#include "ui/plots/synthetic_comparison_plot.h"
#include "ui/plots/trace_plot.h"
#include "ui/plots/violin_plottable.h"
#include "ui/plots/weight_violin_plot.h"

using namespace dpsynth::ui;

class PlotsViewTest : public QObject {
  Q_OBJECT

 private slots:
  void sixTabsInOrder() {
    PlotsView view;
    QCOMPARE(view.count(), 6);
    const QStringList titles{"Lipschitz",  "Lipschitz vs weight",
                             "Weights",    "Synthetic vs confidential",
                             "Posteriors", "Traces"};
    for (int t = 0; t < 6; ++t) {
      QCOMPARE(view.tabText(t), titles[t]);
      QCOMPARE(view.widget(t), view.plot(static_cast<PlotsView::Tab>(t)));
    }
  }

  void resultsReachEveryPlot() {
    test::FakeData data(1);
    PlotsView view;
    const auto mechanisms = data.mechanisms(3, 200);
    view.setResults(data.normals(200, 10, 2), false, mechanisms);
    QCOMPARE(view.lipschitzPlot()->violins()->violinCount(), 3);
    QCOMPARE(view.lipschitzPlot()->violins()->sampleCount(), 600);
    QCOMPARE(view.lipschitzWeightPlot()->seriesCount(), 3);
    QCOMPARE(view.weightPlot()->afterViolins()->sampleCount(), 600);
    QCOMPARE(view.weightPlot()->beforeViolins()->sampleCount(), 200);  // only lw-final
    QCOMPARE(view.syntheticPlot()->seriesCount(), 4);
    QCOMPARE(view.posteriorPlot()->plottableCount(), 3);
    const QStringList summary = view.plotSummary().split('\n');
    QCOMPARE(summary.size(), 6);
    QVERIFY2(summary[0].startsWith("Lipschitz: 3 plottables, 606 points"), qPrintable(summary[0]));

    view.clearTraces({"beta[1]", "sigma"}, 2);
    view.appendDraws(0, 0, {1.0, 2.0, 1.1, 2.1});
    QTRY_COMPARE(view.tracePlot()->pointCount(), 2);
    view.setWarmupEnd(1);

    view.clearAll();
    QCOMPARE(view.lipschitzPlot()->violins()->sampleCount(), 0);
    QCOMPARE(view.tracePlot()->plottableCount(), 0);
  }

  void emptyPlotsSayWhatARunInProgressWillDraw() {
    test::FakeData data(1);
    PlotsView view;
    PlotWidget* posterior = view.plot(PlotsView::kPosteriors);
    QVERIFY(posterior->caption().contains("press Run"));
    // The first run: the result plots wait for it instead of asking for one.
    view.beginRun("previous run");
    QCOMPARE(posterior->caption(), QString("Running: drawn when the run finishes."));
    QVERIFY(view.plot(PlotsView::kLipschitz)->caption().contains("once the stage is sampling"));
    view.endRun();  // cancelled: no results, and nothing is waited for any more
    QVERIFY(posterior->caption().contains("press Run"));
    view.beginRun("previous run");
    view.setResults(data.normals(200, 10, 2), false, data.mechanisms(2, 200));
    view.setRunLabel("run 1");
    QVERIFY(!posterior->caption().contains("Running"));
    // A later run: the previous run's plots stay, marked as such, with no waiting text.
    view.beginRun("previous run");
    QVERIFY(!posterior->caption().contains("Running"));
    QVERIFY(posterior->isStale());
  }

  void liveLipschitzUpdates() {
    PlotsView view;
    view.updateLipschitz("lw", "unweighted", {1, 2, 3}, false, 0, 3);
    view.updateLipschitz("lw", "lw", {1, 2, 3, 4}, false, 0, 4);
    QTRY_COMPARE(view.lipschitzPlot()->violins()->sampleCount(), 4);
  }

  void exportAllWritesEveryTab() {
    test::FakeData data(2);
    PlotsView view;
    view.setResults(data.counts(100, 4), true, data.mechanisms(2, 100));
    QTemporaryDir dir;
    QString error;
    QVERIFY2(view.exportAll(dir.path(), "svg", &error), qPrintable(error));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 12);
    QVERIFY(QFileInfo(dir.filePath("weights.svg")).size() > 0);
    QVERIFY(QFileInfo(dir.filePath("traces.csv")).size() > 0);
    // exportPaths names exactly the files written (what Export plots asks about first).
    QStringList listed;
    for (const QString& path : PlotsView::exportPaths(dir.path(), "svg"))
      listed << QFileInfo(path).fileName();
    listed.sort();
    QCOMPARE(listed, QDir(dir.path()).entryList(QDir::Files, QDir::Name));
  }
};

QTEST_MAIN(PlotsViewTest)
#include "plots_view_test.moc"
