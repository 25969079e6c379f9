#include "ui/workspaces/frontier/frontier_workspace.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

#include "core/session/session.h"
#include "core/study/frontier.h"
#include "core/study/study_runner.h"
#include "core/study/study_store.h"
#include "tests/ui/studio_test_helpers.h"
#include "ui/main_window.h"
#include "ui/panels/data_panel.h"
#include "ui/panels/mechanism_panel.h"
#include "ui/panels/sampler_panel.h"
#include "ui/panels/tuning_panel.h"
#include "ui/services/frontier_runner.h"
#include "ui/workspaces/frontier/frontier_form.h"
#include "ui/workspaces/frontier/frontier_plot.h"

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
    QVERIFY(window.services().data->loadFile(test::samplePath("nbmix")));
    dpsynth::ui::test::setMechanisms(window, {pipeline::Mechanism::lwFinal});
    window.document()->edit(dpsynth::ui::Field::reproducible, true);
    FrontierWorkspace* frontier = frontierOf(window);
    QVERIFY(frontier);
    QVERIFY(frontier->banner()->text().contains(QLatin1String("not a release")));
    // Tuning on the confidential data is a choice, made here on purpose, that ε does not cover.
    FrontierForm* form = frontier->form();
    QCOMPARE(form->source(), FrontierForm::Source::generator);  // the default without reference
    form->setSource(FrontierForm::Source::confidential);
    QVERIFY(frontier->banner()->text().contains(QStringLiteral("not covered by ε")));
    QVERIFY(frontier->banner()->text().contains(QLatin1String("CONFIDENTIAL")));
    QVERIFY(form->sourceBox()->currentText().contains(QStringLiteral("not covered by ε")));
    QVERIFY(!form->sourceWarning()->isHidden());
    QVERIFY(!window.document()->settings().run.tunedOnConfidential);
    window.show();
    window.workspaces()->setCurrentWidget(frontier);
    QVERIFY(QTest::qWaitForWindowExposed(&window));

    // lw (aDP; its ε is an outcome, so one point at its ε_x) and ph (strict DP, with public
    // bounds set in Synthesis) at ε = 2 and 8, three replicates of tiny chains.
    window.document()->edit(dpsynth::ui::Field::lower, 0.0);
    window.document()->edit(dpsynth::ui::Field::upper, 500.0);
    form->setMechanisms({pipeline::Mechanism::lw, pipeline::Mechanism::ph});
    form->epsilonEdit()->setText(QStringLiteral("2, 8"));
    form->replicatesBox()->setValue(3);
    form->chainsBox()->setValue(1);
    form->warmupBox()->setValue(100);
    form->drawsBox()->setValue(100);
    form->setMeasure(QStringLiteral("max_ecdf"));
    QSignalSpy landed(frontier->worker(), &FrontierRunner::replicateDone);
    QSignalSpy ended(frontier, &FrontierWorkspace::studyEnded);
    QVERIFY2(frontier->start(), qPrintable(frontier->statusText()));
    QVERIFY(ended.wait(300000));
    QCOMPARE(ended.takeFirst().at(0).toBool(), true);
    QCOMPARE(landed.count(), 3);
    FrontierPlot* plot = frontier->plot();
    QCOMPARE(frontier->rows().size(), std::size_t(3 * 4));  // confidential + 3 cells each
    QVERIFY(frontier->showsConfidential());
    QVERIFY2(plot->runLabel().contains(QLatin1String("CONFIDENTIAL")) &&
                 plot->runLabel().contains(QStringLiteral("not covered by ε")),
             qPrintable(plot->runLabel()));

    // The graphs hold the medians and band edges of core::study::frontierPoints.
    const auto expected = study::frontierPoints(frontier->rows(), "max_ecdf");
    QCOMPARE(expected.size(), std::size_t(3));
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
    const double epsilonBefore = window.document()->settings().tuning.epsilon.value_or(0);
    QSignalSpy loaded(frontier, &FrontierWorkspace::pointLoaded);
    QTest::mouseClick(plot->customPlot(), Qt::LeftButton, {}, pixel.toPoint());
    QCOMPARE(loaded.count(), 1);
    QCOMPARE(window.document()->settings().mechanisms,
             std::vector<pipeline::Mechanism>{pipeline::Mechanism::ph});
    QCOMPARE(window.document()->settings().tuning.epsilon.value_or(0), 2.0);
    QCOMPARE(window.workspaces()->currentIndex(), 0);
    QVERIFY(!window.document()->settings().reproducible);  // a release
    QVERIFY(loaded.first().at(0).toString().contains(QStringLiteral("ph, ε = 2")));
    // Loaded from the confidential data: marked, visibly, and carried into the run settings,
    // the session and the badge.
    QVERIFY(loaded.first().at(0).toString().contains(QLatin1String("tuned on the confidential")));
    QVERIFY(window.synthesis()->samplerPanel()->tunedOnConfidentialBox()->isChecked());
    const StudioSettings tuned = window.document()->current();
    QVERIFY(tuned.runSettings().tunedOnConfidential);
    QVERIFY(toSession(tuned, window.document()->source()).run.tunedOnConfidential);
    QVERIFY(dpsynth::core::session::toJson(toSession(tuned, window.document()->source()))
                .find("\"tuned_on_confidential\": true") != std::string::npos);
    QVERIFY(fromSession(toSession(tuned, window.document()->source())).run.tunedOnConfidential);
    QVERIFY(window.findChild<QLabel*>(QStringLiteral("guaranteeBadge"))
                ->text()
                .contains(QStringLiteral("not covered by ε")));

    // One undo step puts the previous settings back, the mark included.
    window.document()->undoStack()->undo();
    QCOMPARE(window.document()->settings().mechanisms,
             std::vector<pipeline::Mechanism>{pipeline::Mechanism::lwFinal});
    QCOMPARE(window.document()->settings().tuning.epsilon.value_or(0), epsilonBefore);
    QVERIFY(window.document()->settings().reproducible);
    QVERIFY(!window.document()->settings().run.tunedOnConfidential);
    QVERIFY(!window.document()->current().runSettings().tunedOnConfidential);
    window.document()->undoStack()->redo();
    QVERIFY(window.document()->settings().run.tunedOnConfidential);

    // Export: the picture and the data behind it.
    QTemporaryDir dir;
    QVERIFY(plot->exportTo(dir.filePath("frontier.png")));
    QFile csv(dir.filePath("frontier.csv"));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(csv.readAll());
    QVERIFY(text.startsWith(QLatin1String("series,mechanism,guarantee,epsilon")));
    QCOMPARE(text.count(QLatin1Char('\n')), 1 + 3);
  }

  void defaultSourceIsPublic() {
    MainWindow window;
    QVERIFY(window.services().data->loadFile(test::samplePath("nbmix")));
    FrontierWorkspace* frontier = frontierOf(window);
    FrontierForm* form = frontier->form();
    // No reference: the generator, with the fixed default of the data's family.
    QCOMPARE(window.document()->settings().dataset.family, dpsynth::core::models::Family::negbin);
    QCOMPARE(form->source(), FrontierForm::Source::generator);
    QCOMPARE(form->generatorEdit()->text(), QStringLiteral("negbin(3,2)"));
    QVERIFY(form->generatorEdit()->isEnabled());
    QVERIFY(form->sourceWarning()->isHidden());
    QVERIFY(frontier->banner()->text().contains(QLatin1String("generator negbin(3,2)")));
    const auto* model = qobject_cast<const QStandardItemModel*>(form->sourceBox()->model());
    QVERIFY(!model->item(0)->isEnabled());  // the reference item, until one is loaded

    // A reference dataset loaded in Tuning becomes the default.
    const QString reference = test::samplePath("nbmix");
    QVERIFY(
        window.services().data->loadReference(reference, window.document()->settings().dataset));
    QCOMPARE(form->source(), FrontierForm::Source::reference);
    QVERIFY(model->item(0)->isEnabled());
    QVERIFY(form->sourceBox()->currentText().contains(QLatin1String("nbmix.csv")));
    QVERIFY(!form->generatorEdit()->isEnabled());
    QVERIFY(frontier->banner()->text().contains(QLatin1String("public reference data nbmix.csv")));
    // ... and the generator again when it goes.
    window.document()->clearReference();
    QCOMPARE(form->source(), FrontierForm::Source::generator);
    QVERIFY(!model->item(0)->isEnabled());

    // The generator's text follows the family until it is edited, and must match it.
    dpsynth::ui::test::setChoice(
        window, {"count", {}, dpsynth::core::models::Family::poisson, false, {}}, 1.0);
    QCOMPARE(form->generatorEdit()->text(), QStringLiteral("poisson(10)"));
    form->generatorEdit()->setText(QStringLiteral("negbin(5,1)"));
    QVERIFY(!frontier->start());
    QVERIFY2(frontier->statusText().contains(QLatin1String("family in Synthesis is poisson")),
             qPrintable(frontier->statusText()));
    dpsynth::ui::test::setChoice(
        window, {"count", {}, dpsynth::core::models::Family::negbin, false, {}}, 1.0);
    QCOMPARE(form->generatorEdit()->text(), QStringLiteral("negbin(5,1)"));  // edited: kept
    form->generatorEdit()->setText(QStringLiteral("negbin(5"));
    QVERIFY(!frontier->start());
    QVERIFY2(frontier->statusText().contains(QLatin1String("generator:")),
             qPrintable(frontier->statusText()));
  }

  void generatorAndReferenceFrontiersRunAndClearTheMark() {
    MainWindow window;
    QVERIFY(window.services().data->loadFile(test::samplePath("nbmix")));
    FrontierWorkspace* frontier = frontierOf(window);
    FrontierForm* form = frontier->form();
    form->setMechanisms({pipeline::Mechanism::censorUw});
    form->epsilonEdit()->setText(QStringLiteral("1, 4"));
    form->replicatesBox()->setValue(2);
    form->recordsBox()->setValue(200);
    form->chainsBox()->setValue(1);
    form->warmupBox()->setValue(100);
    form->drawsBox()->setValue(100);
    QCOMPARE(form->source(), FrontierForm::Source::generator);
    QSignalSpy ended(frontier, &FrontierWorkspace::studyEnded);
    QVERIFY2(frontier->start(), qPrintable(frontier->statusText()));
    QVERIFY(ended.wait(300000));
    QCOMPARE(ended.takeFirst().at(0).toBool(), true);
    QVERIFY(!frontier->showsConfidential());
    QVERIFY2(frontier->plot()->runLabel().contains(QLatin1String("generator negbin(3,2)")) &&
                 frontier->plot()->runLabel().contains(QLatin1String("200 records")),
             qPrintable(frontier->plot()->runLabel()));
    const auto points = study::frontierPoints(frontier->rows(), "max_ecdf");
    QCOMPARE(points.size(), std::size_t(2));
    QCOMPARE(frontier->rows().size(), std::size_t(2 * 3));  // confidential + 2 cells each

    // A point of public data replaces a choice made on the confidential data: the mark goes.
    window.document()->edit(dpsynth::ui::Field::tunedOnConfidential, true);
    QSignalSpy loaded(frontier, &FrontierWorkspace::pointLoaded);
    frontier->loadPoint(points[1]);
    QCOMPARE(loaded.count(), 1);
    QVERIFY(!loaded.first().at(0).toString().contains(QLatin1String("tuned on the confidential")));
    QCOMPARE(window.document()->settings().tuning.epsilon.value_or(0), 4.0);
    QVERIFY(!window.document()->settings().run.tunedOnConfidential);
    QVERIFY(!window.document()->current().runSettings().tunedOnConfidential);
    window.document()->undoStack()->undo();
    QVERIFY(window.document()->settings().run.tunedOnConfidential);

    // The reference dataset resampled: public too.
    QVERIFY(window.services().data->loadReference(test::samplePath("nbmix"),
                                                  window.document()->settings().dataset));
    QCOMPARE(form->source(), FrontierForm::Source::reference);
    form->recordsBox()->setValue(0);  // as many as the reference has
    QVERIFY2(frontier->start(), qPrintable(frontier->statusText()));
    QVERIFY(ended.wait(300000));
    QCOMPARE(ended.takeFirst().at(0).toBool(), true);
    QVERIFY(!frontier->showsConfidential());
    QVERIFY(
        frontier->plot()->runLabel().contains(QLatin1String("public reference data nbmix.csv")));
    frontier->loadPoint(study::frontierPoints(frontier->rows(), "max_ecdf").front());
    QVERIFY(!window.document()->settings().run.tunedOnConfidential);

    // New data: the mark of a choice made on the previous data goes.
    window.document()->edit(dpsynth::ui::Field::tunedOnConfidential, true);
    QVERIFY(window.services().data->loadFile(test::samplePath("poisson")));
    QVERIFY(!window.document()->settings().run.tunedOnConfidential);
  }

  void cancelStopsTheStudy() {
    MainWindow window;
    QVERIFY(window.services().data->loadFile(test::samplePath("nbmix")));
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

  /// A study folder opened shows how complete it is: one replicate of two stored is half, not
  /// the 0% of a study never started.
  void anOpenedStudyShowsHowCompleteItIs() {
    namespace study = dpsynth::core::study;
    QTemporaryDir dir;
    study::StudyConfig config;
    config.source.generator = study::Generator::parse("beta(0.5,3)");
    config.source.n = 40;
    config.mechanisms = {dpsynth::core::pipeline::Mechanism::lw};
    config.epsilon = {4};
    config.replicates = 2;
    config.sampler = {1, 40, 40};
    config.seed = 5;
    {
      study::StudyStore store(dir.path().toStdString(), config);
      study::runStudy(config, {0}, 1, [&](const study::ReplicateRows& r) { store.append(r); });
    }
    MainWindow window;
    FrontierWorkspace* frontier = frontierOf(window);
    QVERIFY(frontier->openStudyFolder(dir.path()));
    QCOMPARE(frontier->progressBar()->maximum(), 2);
    QCOMPARE(frontier->progressBar()->value(), 1);
  }

  void noDataNoBootstrap() {
    MainWindow window;
    FrontierWorkspace* frontier = frontierOf(window);
    if (window.document()->hasData()) QSKIP("the window starts with data");
    frontier->form()->setSource(FrontierForm::Source::confidential);
    QVERIFY(!frontier->start());
    QVERIFY(frontier->statusText().contains(QLatin1String("Load data")));
    frontier->form()->setSource(FrontierForm::Source::reference);  // none loaded: not taken
    QCOMPARE(frontier->form()->source(), FrontierForm::Source::confidential);
  }

 private:
  QTemporaryDir settingsDir_;
};

QTEST_MAIN(FrontierWorkspaceTest)
#include "frontier_workspace_test.moc"
