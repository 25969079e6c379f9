#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QUndoStack>
#include <QtTest>

#include "core/study/frontier.h"
#include "tests/ui/studio_test_helpers.h"
#include "ui/controllers/settings_controller.h"
#include "ui/main_window.h"
#include "ui/panels/data_panel.h"
#include "ui/panels/mechanism_panel.h"
#include "ui/panels/sampler_panel.h"
#include "ui/panels/tuning_panel.h"
#include "ui/workers/frontier_worker.h"
#include "ui/workspaces/frontier/frontier_form.h"
#include "ui/workspaces/frontier/frontier_plot.h"
#include "ui/workspaces/frontier/frontier_workspace.h"

using namespace dpsynth::ui;
namespace pipeline = dpsynth::core::pipeline;
namespace study = dpsynth::core::study;

namespace {

FrontierWorkspace* frontierOf(MainWindow& window) {
  for (int i = 0; i < window.workspaces()->count(); ++i)
    if (window.workspaces()->tabText(i) == QLatin1String("Frontier"))
      return qobject_cast<FrontierWorkspace*>(window.workspaces()->widget(i));
  return nullptr;
}

/// The data of a graph as (key, value) pairs.
std::vector<std::pair<double, double>> frontierGraphData(const QCPGraph* graph) {
  std::vector<std::pair<double, double>> out;
  for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
    out.emplace_back(it->key, it->value);
  return out;
}

}  // namespace

class FrontierWorkspaceTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { test::isolateSettings(settingsDir_); }

  void logGridAndLists() {
    const auto grid = FrontierForm::logGrid(0.25, 16, 8);
    QCOMPARE(grid.size(), std::size_t(8));
    QCOMPARE(grid.front(), 0.25);
    QCOMPARE(grid.back(), 16.0);
    QCOMPARE(grid[1], 0.45);  // 0.25 · 64^(1/7) = 0.4527, two decimals as the ε field
    const auto list = FrontierForm::parseList(QStringLiteral("1, 0.5;auto 2"), true);
    QVERIFY(list);
    QCOMPARE(list->size(), std::size_t(4));
    QVERIFY(!(*list)[2]);
    QVERIFY(!FrontierForm::parseList(QStringLiteral("1, x")));
  }

  void bootstrapFrontierPointsBandsAndClickToLoad() {
    MainWindow window;
    window.resize(1200, 700);
    QVERIFY(window.dataPanel()->loadFile(test::samplePath("nbmix")));
    window.mechanismPanel()->setChecked({pipeline::Mechanism::lwFinal});
    window.samplerPanel()->setRelease(true, window.samplerPanel()->neighbours());
    FrontierWorkspace* frontier = frontierOf(window);
    QVERIFY(frontier);
    QVERIFY(frontier->banner()->text().contains(QLatin1String("not a release")));
    window.show();
    window.workspaces()->setCurrentWidget(frontier);
    QVERIFY(QTest::qWaitForWindowExposed(&window));

    // lw (aDP; its ε is an outcome, so one point at its ε_x) and ph (strict DP, with public
    // bounds set in Synthesis) at ε = 2 and 8, three replicates of tiny chains.
    window.tuningPanel()->setSettingValue("lower", 0.0);
    window.tuningPanel()->setSettingValue("upper", 500.0);
    FrontierForm* form = frontier->form();
    form->setMechanisms({pipeline::Mechanism::lw, pipeline::Mechanism::ph});
    form->epsilonEdit()->setText(QStringLiteral("2, 8"));
    form->replicatesBox()->setValue(3);
    form->chainsBox()->setValue(1);
    form->warmupBox()->setValue(100);
    form->drawsBox()->setValue(100);
    form->setMeasure(QStringLiteral("max_ecdf"));
    QSignalSpy landed(frontier->worker(), &FrontierWorker::replicateDone);
    QSignalSpy ended(frontier, &FrontierWorkspace::studyEnded);
    QVERIFY2(frontier->start(), qPrintable(frontier->statusText()));
    QVERIFY(ended.wait(300000));
    QCOMPARE(ended.takeFirst().at(0).toBool(), true);
    QCOMPARE(landed.count(), 3);
    QCOMPARE(frontier->rows().size(), std::size_t(3 * 4));  // confidential + 3 cells each

    // The graphs hold the medians and band edges of core::study::frontierPoints.
    const auto expected = study::frontierPoints(frontier->rows(), "max_ecdf");
    QCOMPARE(expected.size(), std::size_t(3));
    FrontierPlot* plot = frontier->plot();
    plot->redrawNow();
    QCOMPARE(plot->points().size(), expected.size());
    const auto& series = plot->seriesGraphs();
    QCOMPARE(series.size(), std::size_t(2));
    std::size_t k = 0;
    for (const auto& s : series) {
      const auto median = frontierGraphData(s.median);
      const auto q1 = frontierGraphData(s.q1);
      const auto q3 = frontierGraphData(s.q3);
      for (std::size_t j = 0; j < median.size(); ++j, ++k) {
        QCOMPARE(median[j].first, expected[k].x);
        QCOMPARE(median[j].second, expected[k].value.median);
        QCOMPARE(q1[j].second, expected[k].value.q1);
        QCOMPARE(q3[j].second, expected[k].value.q3);
        QVERIFY(expected[k].value.q1 <= expected[k].value.median);
        QVERIFY(expected[k].value.median <= expected[k].value.q3);
      }
      QCOMPARE(s.q3->channelFillGraph(), s.q1);  // the band is filled between Q1 and Q3
      QVERIFY(s.q3->brush().color().alpha() < 255);
    }
    QCOMPARE(k, expected.size());

    // Strict DP solid with filled markers, aDP dashed with hollow markers.
    const auto& lw = series[0];
    const auto& ph = series[1];
    QCOMPARE(lw.series, QStringLiteral("lw"));
    QCOMPARE(lw.guarantee, pipeline::Guarantee::aDP);
    QCOMPARE(ph.guarantee, pipeline::Guarantee::DP);
    QCOMPARE(ph.series, QStringLiteral("ph"));
    QCOMPARE(ph.median->pen().style(), Qt::SolidLine);
    QCOMPARE(lw.median->pen().style(), Qt::DashLine);
    QCOMPARE(ph.median->scatterStyle().brush().color(), ph.median->pen().color());
    QCOMPARE(lw.median->scatterStyle().brush().color(), QColor(Qt::white));
    QVERIFY(ph.median->name().contains(QLatin1String("strict DP")));
    QVERIFY(lw.median->name().contains(QLatin1String("aDP")));

    // Hover: the numbers of the point.
    std::size_t target = 0;
    for (std::size_t i = 0; i < plot->points().size(); ++i)
      if (plot->points()[i].mechanism == "ph" && plot->points()[i].x == 2.0) target = i;
    const QPointF pixel = plot->pointPixel(target);
    const QString tip = plot->toolTipAt(pixel);
    QVERIFY2(tip.contains(QLatin1String("ph")) && tip.contains(QStringLiteral("ε = 2")) &&
                 tip.contains(QLatin1String("median")) && tip.contains(QLatin1String("n = 3")),
             qPrintable(tip));

    // Click on the point: ph at ε = 2 in the synthesis panel, synthesis in front.
    const double epsilonBefore = window.tuningPanel()->settingValue("epsilon").toDouble();
    QSignalSpy loaded(frontier, &FrontierWorkspace::pointLoaded);
    QTest::mouseClick(plot->customPlot(), Qt::LeftButton, {}, pixel.toPoint());
    QCOMPARE(loaded.count(), 1);
    QCOMPARE(window.mechanismPanel()->checked(),
             std::vector<pipeline::Mechanism>{pipeline::Mechanism::ph});
    QCOMPARE(window.tuningPanel()->settingValue("epsilon").toDouble(), 2.0);
    QCOMPARE(window.workspaces()->currentIndex(), 0);
    QVERIFY(!window.samplerPanel()->settingValue("reproducible").toBool());  // a release
    QVERIFY(loaded.first().at(0).toString().contains(QStringLiteral("ph, ε = 2")));

    // One undo step puts the previous settings back.
    window.settingsController()->undoStack()->undo();
    QCOMPARE(window.mechanismPanel()->checked(),
             std::vector<pipeline::Mechanism>{pipeline::Mechanism::lwFinal});
    QCOMPARE(window.tuningPanel()->settingValue("epsilon").toDouble(), epsilonBefore);
    QVERIFY(window.samplerPanel()->settingValue("reproducible").toBool());

    // Export: the picture and the data behind it.
    QTemporaryDir dir;
    QVERIFY(plot->exportTo(dir.filePath("frontier.png")));
    QFile csv(dir.filePath("frontier.csv"));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(csv.readAll());
    QVERIFY(text.startsWith(QLatin1String("series,mechanism,guarantee,epsilon")));
    QCOMPARE(text.count(QLatin1Char('\n')), 1 + 3);
  }

  void cancelStopsTheStudy() {
    MainWindow window;
    QVERIFY(window.dataPanel()->loadFile(test::samplePath("nbmix")));
    FrontierWorkspace* frontier = frontierOf(window);
    frontier->form()->setMechanisms({pipeline::Mechanism::censorUw});
    frontier->form()->replicatesBox()->setValue(50);
    QSignalSpy ended(frontier, &FrontierWorkspace::studyEnded);
    QVERIFY(frontier->start());
    QVERIFY(frontier->isRunning());
    QVERIFY(!frontier->runButton()->isEnabled());
    frontier->cancel();
    QVERIFY(ended.wait(120000));
    QCOMPARE(ended.takeFirst().at(0).toBool(), false);
    QVERIFY(!frontier->isRunning());
    QVERIFY(frontier->runButton()->isEnabled());
  }

  void noDataNoStudy() {
    MainWindow window;
    FrontierWorkspace* frontier = frontierOf(window);
    if (window.dataPanel()->hasData()) QSKIP("the window starts with data");
    QVERIFY(!frontier->start());
    QVERIFY(frontier->statusText().contains(QLatin1String("Load data")));
  }

 private:
  QTemporaryDir settingsDir_;
};

QTEST_MAIN(FrontierWorkspaceTest)
#include "frontier_workspace_test.moc"
