#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextBrowser>
#include <QtTest>

#include "core/version.h"
#include "studio_test_helpers.h"
#include "ui/controllers/export_actions.h"
#include "ui/controllers/settings_check.h"
#include "ui/dialogs/help_dialog.h"
#include "ui/main_window.h"
#include "ui/models/results_sort_proxy.h"
#include "ui/models/results_table_model.h"
#include "ui/panels/data_panel.h"
#include "ui/panels/mechanism_panel.h"
#include "ui/panels/results_panel.h"
#include "ui/panels/tuning_panel.h"
#include "ui/panels/warnings_panel.h"
#include "ui/plots/lipschitz_violin_plot.h"
#include "ui/plots/plot_widget.h"
#include "ui/plots/plots_view.h"
#include "ui/plots/posterior_density_plot.h"
#include "ui/plots/trace_plot.h"
#include "ui/plots/violin_plottable.h"
#include "ui/widgets/tuning_field.h"

using namespace dpsynth::ui;
namespace pipeline = dpsynth::core::pipeline;

namespace {

std::unique_ptr<MainWindow> makeHonestWindow(test::ErrorRecorder& errors) {
  auto window = std::make_unique<MainWindow>();
  window->setErrorPresenter(errors.presenter());
  window->setRefusalPresenter([](const RefusalReport&) {});
  window->synthesis()->autoRunBox()->setChecked(false);
  window->loadDefaults();
  test::useSmallSampler(*window);
  window->document()->edit(dpsynth::ui::Field::k, 0.9);
  return window;
}

bool runHonest(MainWindow& window) {
  QSignalSpy ended(window.synthesis(), &dpsynth::ui::SynthesisWorkspace::runEnded);
  if (!window.synthesis()->startRun(false)) return false;
  return test::waitForRun(window, ended);
}

QString display(const ResultsTableModel& model, int row, int column) {
  return model.data(model.index(row, column), Qt::DisplayRole).toString();
}

int rowOf(const ResultsTableModel& model, const QString& mechanism) {
  for (int r = 0; r < model.rowCount(); ++r)
    if (display(model, r, ResultsTableModel::kMechanism) == mechanism) return r;
  return -1;
}

}  // namespace

class StudioHonestTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QVERIFY(settingsDir_.isValid());
    test::isolateSettings(settingsDir_);
  }

  void plotsNameTheirRunAndMechanism() {
    test::ErrorRecorder errors;
    auto window = makeHonestWindow(errors);
    dpsynth::ui::test::setMechanisms(*window,
                                     {pipeline::Mechanism::lwFinal, pipeline::Mechanism::lw});
    QVERIFY(runHonest(*window));
    PlotsView* plots = window->synthesis()->plotsView();
    for (int t = 0; t < PlotsView::kTabCount; ++t) {
      const PlotWidget* p = plots->plot(static_cast<PlotsView::Tab>(t));
      QVERIFY2(p->caption().startsWith("run "), qPrintable(p->caption()));
      QVERIFY2(p->caption().contains("nbmix"), qPrintable(p->caption()));
      QVERIFY2(p->caption().contains("lw"), qPrintable(p->caption()));
      QVERIFY(!p->isStale());
    }
    // The final violins are the mechanisms' final stages, labelled by mechanism only.
    QCOMPARE(plots->lipschitzPlot()->shownMechanisms(), QString("lw, lw-final"));
    // Traces: one entry per mechanism, the final fit's chains, and a mechanism column.
    TracePlot* traces = plots->tracePlot();
    QCOMPARE(traces->mechanismSelector()->count(), 2);
    traces->setCurrentMechanism("lw-final");
    QCOMPARE(traces->currentMechanism(), QString("lw-final"));
    QVERIFY(traces->currentStage().startsWith("lw-final k="));
    QVERIFY(traces->caption().contains("chains of lw-final"));
    const PlotTable table = traces->plotTable();
    QCOMPARE(table.columns.front(), QString("mechanism"));
    QVERIFY(!table.rows.empty());
    for (const auto& row : table.rows) QCOMPARE(row.front(), QString("lw-final"));
    QCOMPARE(traces->chainCount(), 2);
    QCOMPARE(traces->trace(0, 0).drawCount(), std::int64_t{150});
    // Posteriors: all mechanisms, or one chosen in its selector.
    PosteriorDensityPlot* posterior = plots->posteriorPlot();
    QCOMPARE(posterior->mechanismSelector()->count(), 3);
    QCOMPARE(posterior->plottableCount(), 2);
    posterior->setCurrentMechanism("lw");
    QCOMPARE(posterior->plottableCount(), 1);
    QVERIFY(posterior->caption().endsWith("lw"));
  }

  void stalePlotsAreMarkedAndClearedOnNewData() {
    test::ErrorRecorder errors;
    auto window = makeHonestWindow(errors);
    QVERIFY(runHonest(*window));
    PlotsView* plots = window->synthesis()->plotsView();
    QVERIFY(!plots->isStale());
    // A settings change: every plot with data is greyed with the table's note.
    window->document()->edit(dpsynth::ui::Field::c, 0.5);
    QVERIFY(window->synthesis()->resultsPanel()->model()->isStale());
    QVERIFY(plots->isStale());
    for (int t = 0; t < PlotsView::kTabCount; ++t) {
      const PlotWidget* p = plots->plot(static_cast<PlotsView::Tab>(t));
      QVERIFY2(p->isStale(), qPrintable(plots->tabText(t)));
      QVERIFY(p->staleText().contains(window->synthesis()->resultsPanel()->note()));
      QVERIFY(p->pointCount() > 0);
    }
    QVERIFY(!window->synthesis()->warningsPanel()->list()->isEnabled() ||
            window->synthesis()->warningsPanel()->count() == 0);
    // New data: nothing of the previous dataset is left, and nothing is marked stale.
    QVERIFY(window->services().data->loadSample("poisson"));
    for (int t = 0; t < PlotsView::kTabCount; ++t) {
      const PlotWidget* p = plots->plot(static_cast<PlotsView::Tab>(t));
      QCOMPARE(p->pointCount(), 0);
      QVERIFY(!p->isStale());
      QVERIFY(p->runLabel().isEmpty());
      QVERIFY(!p->caption().contains("nbmix"));
    }
    // No axes of the previous data either.
    QCOMPARE(plots->tracePlot()->customPlot()->yAxis->label(), QString("Value"));
    QCOMPARE(plots->lipschitzPlot()->customPlot()->yAxis->range().upper, 1.0);
    QCOMPARE(plots->posteriorPlot()->customPlot()->xAxis->range().upper, 1.0);
    QCOMPARE(window->synthesis()->warningsPanel()->count(), 0);
  }

  void liveViolinsNameTheirStage() {
    // During a run a mechanism's violin shows the stage its values come from: lw-final's first
    // fit is the unweighted one and must not be shown as lw-final's own.
    LipschitzViolinPlot plot;
    plot.updateSeries({"lw-final", {0.1, 0.2, 0.3}, false, 0, 0, "unweighted"});
    QTest::qWait(80);
    QCOMPARE(plot.shownMechanisms(), QString("lw-final (unweighted stage)"));
    QVERIFY(plot.violins()->describe(0).contains("unweighted stage"));
    plot.updateSeries({"lw-final", {0.1, 0.2}, false, 0, 0, "lw-final k=0.9000"});
    QTest::qWait(80);
    QCOMPARE(plot.seriesCount(), 1);
    QCOMPARE(plot.shownMechanisms(), QString("lw-final (lw-final k=0.9000 stage)"));
  }

  void guiMessagesNameFieldsNotFlags() {
    test::ErrorRecorder errors;
    auto window = makeHonestWindow(errors);
    TuningPanel* tuning = window->synthesis()->tuningPanel();
    // Missing values everywhere: no ε, no PH bounds, plus out-of-range numbers.
    tuning->field("epsilon")->setValue(QVariant());
    tuning->field("lower")->setValue(QVariant());
    tuning->field("upper")->setValue(QVariant());
    const auto all = pipeline::allMechanisms();
    dpsynth::ui::test::setMechanisms(*window, all);
    QStringList messages;
    for (const auto& issue : mechanismIssues(window->document()->current())) messages << issue.text;
    const RunPlan plan = planRun(window->document()->current());
    messages << plan.blocking << plan.skipped;
    QVERIFY(messages.size() >= 5);
    QVERIFY(messages.join('\n').contains("'PH lower' and 'PH upper'"));
    QVERIFY(messages.join('\n').contains("'ε'"));
    // The mechanisms that lack a setting are marked in place, with their fields.
    MechanismPanel* mechanisms = window->synthesis()->mechanismPanel();
    QVERIFY(mechanisms->problemOf(pipeline::Mechanism::ph).contains("'PH lower'"));
    QVERIFY(mechanisms->problemOf(pipeline::Mechanism::censorUw).contains("'ε'"));
    QVERIFY(mechanisms->problemOf(pipeline::Mechanism::lw).isEmpty());
    QVERIFY(!tuning->field("lower")->problem().isEmpty());
    QVERIFY(!tuning->field("epsilon")->problem().isEmpty());
    QVERIFY(tuning->field("c")->problem().isEmpty());
    messages << mechanisms->problemOf(pipeline::Mechanism::ph) << tuning->field("lower")->problem()
             << tuning->field("epsilon")->problem();
    // Only ph checked: the run is refused with a dialog that names the fields.
    dpsynth::ui::test::setMechanisms(*window, {pipeline::Mechanism::ph});
    QVERIFY(!window->synthesis()->startRun(true));
    QCOMPARE(errors.count(), std::size_t(1));
    messages << errors.last().problem << errors.last().title << errors.last().hint;
    // Bad numbers too.
    tuning->field("epsilon")->setValue(QVariant());
    tuning->field("k")->setValue(QVariant());
    dpsynth::ui::test::setMechanisms(
        *window, {pipeline::Mechanism::weightedE, pipeline::Mechanism::censorW});
    QVERIFY(!window->synthesis()->startRun(true));
    messages << errors.last().problem;
    for (const QString& m : messages) QVERIFY2(!m.contains("--"), qPrintable(m));
    // Filling the field clears its mark.
    tuning->field("epsilon")->setValue(2.0);
    QVERIFY(tuning->field("epsilon")->problem().isEmpty());
    QVERIFY(mechanisms->problemOf(pipeline::Mechanism::censorW).isEmpty());
  }

  void warningsNameFieldsNotFlags() {
    // Core's normal-family scale warning names --sd-scale; the studio shows its field.
    test::ErrorRecorder errors;
    auto window = makeHonestWindow(errors);
    QVERIFY(window->services().data->loadSample("salary"));
    dpsynth::core::data::DatasetSpec spec;
    spec.outcome = "salary";
    spec.family = dpsynth::core::models::Family::normal;
    QVERIFY(dpsynth::ui::test::setChoice(*window, spec, 1.0));
    dpsynth::ui::test::setMechanisms(*window, {pipeline::Mechanism::unweighted});
    QVERIFY(runHonest(*window));
    const QString lines = window->synthesis()->warningsPanel()->lines().join('\n');
    QVERIFY2(lines.contains("'Prior sd scale'"), qPrintable(lines));
    QVERIFY2(!lines.contains("--"), qPrintable(lines));
    const auto& model = *window->synthesis()->resultsPanel()->model();
    const QString tip = model.data(model.index(1, 0), Qt::ToolTipRole).toString();
    QVERIFY2(!tip.contains("--"), qPrintable(tip));
  }

  void aMechanismWithAMissingSettingDoesNotStopTheOthers() {
    test::ErrorRecorder errors;
    auto window = makeHonestWindow(errors);
    window->document()->edit(dpsynth::ui::Field::lower, std::optional<double>());
    window->document()->edit(dpsynth::ui::Field::upper, std::optional<double>());
    dpsynth::ui::test::setMechanisms(*window, {pipeline::Mechanism::lw, pipeline::Mechanism::ph});
    QVERIFY(!window->synthesis()->mechanismPanel()->problemOf(pipeline::Mechanism::ph).isEmpty());
    QVERIFY(runHonest(*window));
    QCOMPARE(errors.count(), std::size_t(0));
    const auto& mechanisms = window->document()->lastOutput()->result->mechanisms;
    QCOMPARE(mechanisms.size(), std::size_t(1));
    QVERIFY(mechanisms[0].config.mechanism == pipeline::Mechanism::lw);
  }

  void targetIgnoredIsShownForLw() {
    test::ErrorRecorder errors;
    auto window = makeHonestWindow(errors);
    window->document()->edit(dpsynth::ui::Field::epsilon, 1.0);
    dpsynth::ui::test::setMechanisms(*window, {pipeline::Mechanism::lw, pipeline::Mechanism::sw});
    QVERIFY(runHonest(*window));
    const ResultsTableModel& model = *window->synthesis()->resultsPanel()->model();
    const QString lw = display(model, rowOf(model, "lw"), ResultsTableModel::kEpsilon);
    QVERIFY2(lw.contains("target 1 ignored"), qPrintable(lw));
    // Above the target, the tip says so, and that a usable verdict is of utility only.
    const QModelIndex lwEpsilon = model.index(rowOf(model, "lw"), ResultsTableModel::kEpsilon);
    const QString tip = model.data(lwEpsilon, Qt::ToolTipRole).toString();
    const bool above = model.data(lwEpsilon, Qt::UserRole).toDouble() > 1.0;
    QCOMPARE(tip.contains("above the 1 asked for"), above);
    const QString sw = display(model, rowOf(model, "sw"), ResultsTableModel::kEpsilon);
    QVERIFY2(!sw.contains("ignored"), qPrintable(sw));
  }

  void unusableVerdictForAllTruncatedWeightedE() {
    test::ErrorRecorder errors;
    auto window = makeHonestWindow(errors);
    // ε so small that every record's bound exceeds ε/2: weighted-e truncates all of them.
    window->document()->edit(dpsynth::ui::Field::epsilon, 0.01);
    dpsynth::ui::test::setMechanisms(*window, {pipeline::Mechanism::weightedE});
    QVERIFY(runHonest(*window));
    const ResultsTableModel& model = *window->synthesis()->resultsPanel()->model();
    const int row = rowOf(model, "weighted-e");
    QVERIFY(row > 0);
    QVERIFY(model.isUnusable(row));
    const QString verdict = display(model, row, ResultsTableModel::kVerdict);
    QVERIFY2(verdict.startsWith("unusable: ") && verdict.contains("of 1000 records truncated"),
             qPrintable(verdict));
    const QString epsilon = display(model, row, ResultsTableModel::kEpsilon);
    QVERIFY2(!epsilon.contains("ignored"), qPrintable(epsilon));  // weighted-e uses its target
    QCOMPARE(display(model, 0, ResultsTableModel::kVerdict), QString("–"));
    // The warnings pane lists it with its mechanism and stage.
    const QStringList lines = window->synthesis()->warningsPanel()->lines();
    QVERIFY2(!lines.isEmpty() && lines.front().startsWith("weighted-e | verdict | unusable"),
             qPrintable(lines.join('\n')));
    QVERIFY(window->synthesis()->bottomTabs()->tabText(1).startsWith("Warnings ("));
  }

  void resultsTableSorts() {
    test::ErrorRecorder errors;
    auto window = makeHonestWindow(errors);
    dpsynth::ui::test::setMechanisms(
        *window,
        {pipeline::Mechanism::unweighted, pipeline::Mechanism::lw, pipeline::Mechanism::lwFinal});
    QVERIFY(runHonest(*window));
    ResultsPanel* results = window->synthesis()->resultsPanel();
    QAbstractItemModel* view = results->view()->model();
    QCOMPARE(view, static_cast<QAbstractItemModel*>(results->sortProxy()));
    QVERIFY(results->view()->isSortingEnabled());
    for (Qt::SortOrder order : {Qt::AscendingOrder, Qt::DescendingOrder}) {
      results->view()->sortByColumn(ResultsTableModel::kLipschitz, order);
      QCOMPARE(view->index(0, ResultsTableModel::kMechanism).data().toString(),
               QString("confidential"));
      std::vector<double> deltas;
      for (int r = 1; r < view->rowCount(); ++r)
        deltas.push_back(
            view->index(r, ResultsTableModel::kLipschitz).data(Qt::UserRole).toDouble());
      QCOMPARE(deltas.size(), std::size_t(3));
      if (order == Qt::AscendingOrder) {
        QVERIFY(std::is_sorted(deltas.begin(), deltas.end()));
      } else {
        QVERIFY(std::is_sorted(deltas.rbegin(), deltas.rend()));
      }
    }
    // The source model keeps the run's order (exports and copies are not reordered).
    QCOMPARE(display(*results->model(), 1, ResultsTableModel::kMechanism), QString("unweighted"));
  }

  void parametersAreNamedFromTheDesign() {
    QTemporaryDir dir;
    const QString path = dir.filePath("visits.csv");
    {
      QFile file(path);
      QVERIFY(file.open(QIODevice::WriteOnly));
      file.write("visits,gender,region\n");
      for (int i = 0; i < 120; ++i) {
        file.write(QStringLiteral("%1,%2,%3\n")
                       .arg(i % 7 + (i % 2) * 3)
                       .arg(i % 2 ? "M" : "F")
                       .arg(i % 3 == 0 ? "North" : (i % 3 == 1 ? "South" : "West"))
                       .toUtf8());
      }
    }
    test::ErrorRecorder errors;
    auto window = makeHonestWindow(errors);
    QVERIFY(window->services().data->loadFile(path));
    dpsynth::core::data::DatasetSpec spec;
    spec.outcome = "visits";
    spec.covariates = {"gender", "region"};
    spec.family = dpsynth::core::models::Family::poisson;
    QVERIFY(dpsynth::ui::test::setChoice(*window, spec,
                                         window->document()->settings().run.model.sdScale));
    dpsynth::ui::test::setMechanisms(*window, {pipeline::Mechanism::unweighted});
    QVERIFY(runHonest(*window));
    const QStringList want = {"intercept", "gender=M", "region=South", "region=West"};
    QCOMPARE(window->synthesis()->plotsView()->posteriorPlot()->parameterNames(), want);
    QCOMPARE(window->synthesis()->plotsView()->tracePlot()->parameterNames(), want);
    const PlotTable table = window->synthesis()->plotsView()->posteriorPlot()->plotTable();
    QCOMPARE(table.rows.front().at(1), QString("intercept"));
  }

  void exportsNeverOpenInTheSamplesFolder() {
    DataSource sample;
    sample.sample = "nbmix";
    sample.file = test::samplePath("nbmix");
    QVERIFY(!ExportActions::defaultFolder({}, sample).contains("resources/samples"));
    QTemporaryDir dir;
    DataSource file;
    file.file = dir.filePath("data.csv");
    QCOMPARE(ExportActions::defaultFolder({}, file), QFileInfo(dir.path()).absoluteFilePath());
    QCOMPARE(ExportActions::defaultFolder(dir.filePath("s/a.dpsynth"), file), dir.filePath("s"));
    // The window's export dialogs follow the data.
    MainWindow window;
    window.loadDefaults();
    QVERIFY(!window.synthesis()->plotsView()->lipschitzPlot()->exportFolder().contains(
        "resources/samples"));
    QVERIFY(!window.synthesis()->plotsView()->lipschitzPlot()->exportFolder().isEmpty());
  }

  void helpPageAndAbout() {
    const QString html = HelpDialog::helpHtml();
    for (const char* part :
         {"DP and aDP", "What ε means for each mechanism", "Reading Δ", "Reading the plots",
          "Choosing a mechanism", "target ignored",
          // Issue 23, defect 7: every workspace and the release choice.
          "Studies", "Frontier", "Analyze a release", "release this", "risk: attribute CAP"})
      QVERIFY2(html.contains(QString::fromUtf8(part)), part);
    HelpDialog dialog;
    QVERIFY(dialog.browser()->toPlainText().contains("lw-final"));
    const QString about = HelpDialog::aboutText();
    QVERIFY(about.contains(QString::fromStdString(dpsynth::core::version())));
    QVERIFY(about.contains("Licence"));
  }

 private:
  QTemporaryDir settingsDir_;
};

QTEST_MAIN(StudioHonestTest)
#include "studio_honest_test.moc"
