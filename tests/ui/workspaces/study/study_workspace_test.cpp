/// The Studies workspace, run for real on a tiny study (Beta(0.5, 3), n = 60, R replicates,
/// lw and censor-uw at one ε, a short sampler): the violins hold one point per row, the
/// censor-uw bound line sits at ε/2, the counts table matches the rows, a cancelled run
/// resumed gives the rows of an uninterrupted one, a folder of another study is refused with
/// the core's message and a bad config does not start. Waits count signals, never time.
#include "ui/workspaces/study/study_workspace.h"

#include <QComboBox>
#include <QFile>
#include <QGuiApplication>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QScreen>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>

#include "core/study/study_runner.h"
#include "core/study/study_store.h"
#include "core/study/study_summary.h"
#include "ui/main_window.h"
#include "ui/panels/data_panel.h"
#include "ui/plots/violin_plottable.h"
#include "ui/studio_test_helpers.h"
#include "ui/workspaces/study/study_config_form.h"
#include "ui/workspaces/study/study_counts_table.h"
#include "ui/workspaces/study/study_violin_plot.h"

using namespace dpsynth::ui;
namespace study = dpsynth::core::study;
namespace pipeline = dpsynth::core::pipeline;

namespace {

constexpr int kWorkspaceWaitMs = 10 * 60 * 1000;  // a ceiling for a slow machine, not a timing

study::StudyConfig tinyStudy(int replicates) {
  study::StudyConfig config;
  config.source.generator = study::Generator::parse("beta(0.5,3)");
  config.source.n = 60;
  config.mechanisms = {pipeline::Mechanism::lw, pipeline::Mechanism::censorUw};
  config.epsilon = {4};
  config.neighbours = dpsynth::core::privacy::Neighbours::addRemove;
  config.replicates = replicates;
  config.sampler = {1, 60, 60};
  config.seed = 11;
  return config;
}

bool runToEnd(StudyWorkspace& workspace) {
  QSignalSpy ended(&workspace, &StudyWorkspace::runEnded);
  if (!workspace.run()) return false;
  return ended.wait(kWorkspaceWaitMs) && ended.count() == 1;
}

/// Saves a picture when DPSYNTH_SCREENSHOT_DIR names a folder (run under xvfb-run).
void shootStudy(QWidget* widget, const QString& name) {
  QCoreApplication::processEvents();
  QTest::qWait(300);  // the coalesced redraws (≤ 5 Hz) and the plots' own queued replots
  QVERIFY(widget->grab().save(QDir(qEnvironmentVariable("DPSYNTH_SCREENSHOT_DIR")).filePath(name)));
}

/// The index of a column of replicates.csv (studyHeader() layout), for the rows a store holds.
std::size_t columnOf(const std::string& name) {
  const auto header = study::studyHeader();
  return static_cast<std::size_t>(std::find(header.begin(), header.end(), name) - header.begin());
}

}  // namespace

class StudyWorkspaceTest : public QObject {
  Q_OBJECT

 private slots:
  void runFillsViolinsAndCounts() {
    QTemporaryDir dir;
    StudyWorkspace workspace;
    workspace.setThreads(1);
    workspace.form()->setConfig(tinyStudy(3));
    workspace.setOutputFolder(dir.path());
    QSignalSpy ended(&workspace, &StudyWorkspace::runEnded);
    QVERIFY(workspace.run());
    QVERIFY(ended.wait(kWorkspaceWaitMs));
    QCOMPARE(ended.first().first().toBool(), true);
    QCOMPARE(workspace.progressBar()->value(), 3);

    const auto& rows = workspace.rows().rows();
    QCOMPARE(rows.size(), std::size_t{3 * 3});  // per replicate: confidential, lw, censor-uw

    // The utility plot's caption names its measure, not "No results: press Run.".
    QVERIFY2(workspace.utilityPlot()->caption().contains("over replicates"),
             qPrintable(workspace.utilityPlot()->caption()));

    // Lipschitz: one violin per cell with Δ, one point per row; censor-uw's line at ε/2.
    const auto* violins = workspace.lipschitzPlot()->violins();
    QCOMPARE(violins->violinCount(), 2);
    std::size_t withDelta = 0;
    for (const auto& row : rows)
      if (!row.isConfidential() && row.results.lipschitz) ++withDelta;
    QCOMPARE(violins->sampleCount(), static_cast<int>(withDelta));
    QCOMPARE(violins->violin(0).count, 3);
    QCOMPARE(violins->violin(1).count, 3);
    const QCPGraph* bound = workspace.lipschitzPlot()->referenceGraph();
    QVERIFY(bound);
    QVERIFY(bound->data()->size() >= 2);
    QCOMPARE(bound->data()->at(0)->value, 2.0);       // ε = 4
    QCOMPARE(bound->data()->at(0)->key, 2.0 - 0.46);  // across the second violin (censor-uw)

    // Export: picture plus the data behind it (one row per replicate value, one per bound).
    const PlotTable data = workspace.lipschitzPlot()->plotTable();
    QCOMPARE(data.rows.size(), withDelta + 1);  // lw has no bound line, censor-uw has one
    QTemporaryDir exports;
    const QString png = exports.path() + QStringLiteral("/lipschitz.png");
    QVERIFY(workspace.lipschitzPlot()->exportTo(png));
    QVERIFY(QFileInfo::exists(png));
    QVERIFY(QFileInfo::exists(csvPathFor(png)));

    // Utility: the mean measure has a violin per cell and the Beta(0.5, 3) mean 1/7 dashed.
    const int mean = workspace.measureBox()->findData(QStringLiteral("mean"));
    QVERIFY(mean >= 0);
    QVERIFY(workspace.measureBox()->findData(QStringLiteral("max_ecdf")) >= 0);
    workspace.measureBox()->setCurrentIndex(mean);
    QCOMPARE(workspace.utilityPlot()->groups().size(), std::size_t{3});
    for (const auto& group : workspace.utilityPlot()->groups()) {
      QCOMPARE(group.values.size(), std::size_t{3});
      QVERIFY(group.reference);
      QVERIFY(std::abs(*group.reference - 1.0 / 7.0) < 1e-12);
    }

    // Counts: censor-uw's #censored row has n = 3 and the rows' median.
    const auto* table = workspace.countsTable();
    int censored = -1;
    for (int r = 0; r < table->rowCount(); ++r)
      if (table->item(r, StudyCountsTable::Mechanism)->text() == "censor-uw" &&
          table->item(r, StudyCountsTable::Count)->text() == "#censored")
        censored = r;
    QVERIFY(censored >= 0);
    std::vector<double> counts;
    for (const auto& row : rows)
      if (row.keys.mechanism == "censor-uw") counts.push_back(*row.number("censored"));
    const auto expected = study::summarizeValues("censored", counts);
    QCOMPARE(table->item(censored, StudyCountsTable::N)->text(), QStringLiteral("3"));
    QCOMPARE(table->item(censored, StudyCountsTable::Median)->text(),
             QString::number(expected.median, 'g', 4));
    QCOMPARE(table->item(censored, StudyCountsTable::Max)->text(),
             QString::number(expected.max, 'g', 4));

    // The same folder with another config is refused with the core's message; until then
    // the views say they show the study run before.
    QVERIFY(!workspace.lipschitzPlot()->isStale());
    auto other = tinyStudy(3);
    other.seed = 12;
    workspace.form()->setConfig(other);
    QVERIFY(workspace.lipschitzPlot()->isStale());
    QVERIFY(workspace.utilityPlot()->isStale());
    QSignalSpy refused(&workspace, &StudyWorkspace::runEnded);
    QVERIFY(workspace.run());
    QVERIFY(refused.wait(kWorkspaceWaitMs));
    QCOMPARE(refused.first().first().toBool(), false);
    QVERIFY(workspace.statusLabel()->text().contains(QStringLiteral("holds another study")));
    QVERIFY(workspace.rows().rows().empty());
    QCOMPARE(study::StudyStore(dir.path().toStdString(), tinyStudy(3)).completed().size(),
             std::size_t{3});
  }

  void cancelThenResumeGivesTheUninterruptedRows() {
    QTemporaryDir interrupted, whole;
    const auto config = tinyStudy(4);
    {
      StudyWorkspace workspace;
      workspace.setThreads(1);
      workspace.form()->setConfig(config);
      workspace.setOutputFolder(interrupted.path());
      connect(&workspace, &StudyWorkspace::replicateArrived, &workspace,
              [&workspace] { workspace.cancel(); });
      QSignalSpy ended(&workspace, &StudyWorkspace::runEnded);
      QVERIFY(workspace.run());
      QVERIFY(ended.wait(kWorkspaceWaitMs));
      QCOMPARE(ended.first().first().toBool(), false);  // cancelled
      const auto kept = study::StudyStore(interrupted.path().toStdString(), config).completed();
      QVERIFY(!kept.empty());
      QVERIFY(kept.size() < 4);
      QVERIFY(workspace.statusLabel()->text().contains(QStringLiteral("Run again resumes")));
    }
    {
      StudyWorkspace workspace;  // a fresh window: the folder alone carries the study
      workspace.setThreads(1);
      workspace.form()->setConfig(config);
      workspace.setOutputFolder(interrupted.path());
      QVERIFY(runToEnd(workspace));
      QCOMPARE(workspace.rows().rows().size(), std::size_t{4 * 3});
    }
    {
      StudyWorkspace workspace;
      workspace.setThreads(1);
      workspace.form()->setConfig(config);
      workspace.setOutputFolder(whole.path());
      QVERIFY(runToEnd(workspace));
    }
    const auto resumed = study::StudyStore(interrupted.path().toStdString(), config).rows();
    const auto uninterrupted = study::StudyStore(whole.path().toStdString(), config).rows();
    QCOMPARE(resumed.size(), std::size_t{12});
    // Every column but the wall time of a fit ("seconds") is the same.
    const std::size_t seconds = columnOf("seconds");
    QCOMPARE(resumed.size(), uninterrupted.size());
    for (std::size_t r = 0; r < resumed.size(); ++r) {
      auto a = resumed[r], b = uninterrupted[r];
      a[seconds].clear();
      b[seconds].clear();
      QCOMPARE(a, b);
    }
  }

  /// A study folder may hold the analyst's own summary.md: the study asks before it would
  /// replace it, answered No starts nothing, and its own summaries are replaced unasked.
  void aStudyAsksBeforeReplacingTheAnalystsSummary() {
    QTemporaryDir dir;
    const QString mine = dir.filePath("summary.md");
    {
      QFile f(mine);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write("# the analyst's plan\n");
    }
    StudyWorkspace workspace;
    workspace.setThreads(1);
    workspace.form()->setConfig(tinyStudy(1));
    workspace.setOutputFolder(dir.path());
    QStringList asked;
    bool answer = false;
    workspace.setReplaceQuestion([&](const QString& text) {
      asked << text;
      return answer;
    });
    QSignalSpy ended(&workspace, &StudyWorkspace::runEnded);
    QVERIFY(!workspace.run());
    QCOMPARE(asked.size(), qsizetype{1});
    QVERIFY2(asked.front().startsWith(dir.path() + " holds summary.md, which dpsynth did not "
                                                   "write"),
             qPrintable(asked.front()));
    QVERIFY(workspace.statusLabel()->text().contains("choose another folder"));
    QVERIFY(!QFileInfo::exists(dir.filePath("replicates.csv")));
    QCOMPARE(ended.count(), 0);
    answer = true;
    QVERIFY(runToEnd(workspace));
    QCOMPARE(asked.size(), qsizetype{2});
    QFile f(mine);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QVERIFY(!f.readAll().contains("the analyst's plan"));
    // Its own summaries, as written, are replaced without a question.
    QVERIFY(runToEnd(workspace));
    QCOMPARE(asked.size(), qsizetype{2});
  }

  void badConfigShowsTheMessageAndDoesNotStart() {
    QTemporaryDir dir;
    StudyWorkspace workspace;
    auto config = tinyStudy(2);
    workspace.form()->setConfig(config);
    QVERIFY(workspace.runButton()->isEnabled());
    auto* list = workspace.form()->mechanismList();
    for (int i = 0; i < list->count(); ++i) list->item(i)->setCheckState(Qt::Unchecked);
    const QString message = QStringLiteral("mechanisms: must name at least one mechanism");
    QVERIFY(workspace.form()->messagesLabel()->text().contains(message));
    QVERIFY(!workspace.runButton()->isEnabled());
    workspace.setOutputFolder(dir.path() + QStringLiteral("/study"));
    QSignalSpy ended(&workspace, &StudyWorkspace::runEnded);
    QVERIFY(!workspace.run());
    QVERIFY(!workspace.isRunning());
    QVERIFY(workspace.statusLabel()->text().contains(message));
    QVERIFY(!QFileInfo::exists(dir.path() + QStringLiteral("/study")));
    QCOMPARE(ended.count(), 0);

    // A field that is not a number is named too.
    list->item(0)->setCheckState(Qt::Checked);
    workspace.form()->epsilonEdit()->setText(QStringLiteral("4, four"));
    QVERIFY(workspace.form()->messagesLabel()->text().contains(QStringLiteral("'four'")));
    QVERIFY(!workspace.run());
  }

  void presetsLoadIntoTheForm() {
    const QStringList names = StudyWorkspace::presetNames();
    QVERIFY(names.contains(QStringLiteral("002-beta")));
    QVERIFY(names.contains(QStringLiteral("001-local-to-global")));
    QVERIFY(names.contains(QStringLiteral("001-local-to-global-poisson")));
    StudyWorkspace workspace;
    QVERIFY(workspace.loadPreset(QStringLiteral("002-beta")));
    const auto config = workspace.form()->config();
    QVERIFY(config);
    QCOMPARE(config->replicates, 100);
    QCOMPARE(config->epsilon, (std::vector<double>{5, 4, 3}));
    QCOMPARE(config->source.generator->spelling(), std::string("beta(0.5,3)"));
    QCOMPARE(config->mechanisms.size(), std::size_t{6});
    // The form writes back the preset as read (the canonical JSON is the same).
    const auto preset =
        study::loadStudyConfig(DPSYNTH_SOURCE_DIR "/resources/studies/002-beta.json");
    QCOMPARE(QString::fromStdString(study::studyConfigToJson(*config)),
             QString::fromStdString(study::studyConfigToJson(preset)));
  }

  void savedConfigReadsBack() {
    QTemporaryDir dir;
    StudyWorkspace workspace;
    workspace.form()->setConfig(tinyStudy(5));
    const QString path = dir.path() + QStringLiteral("/tiny.json");
    QVERIFY(workspace.saveConfig(path));
    QCOMPARE(study::studyConfigHash(study::loadStudyConfig(path.toStdString())),
             study::studyConfigHash(tinyStudy(5)));
    StudyWorkspace other;
    QVERIFY(other.openConfig(path));
    QCOMPARE(other.form()->replicatesBox()->value(), 5);
  }

  void bootstrapTakesTheSynthesisData() {
    QTemporaryDir settings;
    test::isolateSettings(settings);
    MainWindow window;
    window.setErrorPresenter([](const ErrorReport&) {});
    StudyWorkspace* workspace = nullptr;
    for (int i = 0; i < window.workspaces()->count(); ++i)
      if (auto* w = qobject_cast<StudyWorkspace*>(window.workspaces()->widget(i))) workspace = w;
    QVERIFY(workspace);
    QCOMPARE(window.workspaces()->tabText(window.workspaces()->indexOf(workspace)),
             QStringLiteral("Studies"));
    if (!window.document()->hasData()) {
      workspace->bootstrapButton()->click();
      QVERIFY(workspace->statusLabel()->text().contains(QStringLiteral("Load a file")));
      QCOMPARE(workspace->form()->sourceBox()->currentIndex(), 0);
    }
    window.loadDefaults();  // the bundled NB mixture, outcome "count", family negbin
    QVERIFY(window.document()->hasData());
    // The synthesis settings come along (only the data and model did before).
    namespace pipeline = dpsynth::core::pipeline;
    window.document()->edit(
        Field::mechanisms,
        std::vector<pipeline::Mechanism>{pipeline::Mechanism::cw, pipeline::Mechanism::ph});
    window.document()->edit(Field::epsilon, std::optional<double>(3.5));
    window.document()->edit(Field::c, 0.7);
    window.document()->edit(Field::g, 0.1);
    window.document()->edit(Field::lower, std::optional<double>(0.0));
    window.document()->edit(Field::upper, std::optional<double>(60.0));
    window.document()->edit(Field::neighbours, dpsynth::core::privacy::Neighbours::addRemove);
    workspace->bootstrapButton()->click();
    QCOMPARE(workspace->form()->sourceBox()->currentIndex(), 1);
    const auto config = workspace->form()->config();
    QVERIFY2(config, qPrintable(workspace->form()->problems().join("; ")));
    QVERIFY(config->source.bootstrap);
    QVERIFY(QString::fromStdString(config->source.bootstrap->file).endsWith("samples/nbmix.csv"));
    QCOMPARE(config->source.bootstrap->outcome, window.document()->settings().dataset.outcome);
    QCOMPARE(config->source.bootstrap->family, dpsynth::core::models::Family::negbin);
    QVERIFY(!config->source.generator);
    QCOMPARE(config->mechanisms,
             (std::vector<pipeline::Mechanism>{pipeline::Mechanism::cw, pipeline::Mechanism::ph}));
    QCOMPARE(config->epsilon, std::vector<double>{3.5});
    QCOMPARE(config->tuning.c, std::vector<double>{0.7});
    QCOMPARE(config->tuning.g, std::vector<double>{0.1});
    QCOMPARE(config->histogram.upper, std::optional<double>(60.0));
    QCOMPARE(config->neighbours, dpsynth::core::privacy::Neighbours::addRemove);
    // A negbin source has no natural histogram bounds: the hint says they are required.
    auto* lower = workspace->form()->findChild<QLineEdit*>("studyPhLower");
    QVERIFY(lower);
    QVERIFY2(lower->placeholderText().contains("required"), qPrintable(lower->placeholderText()));
  }

  /// The committed screenshot: the 002 preset with R = 5 run in the window's Studies tab.
  void screenshots() {
    if (qEnvironmentVariableIsEmpty("DPSYNTH_SCREENSHOT_DIR"))
      QSKIP("set DPSYNTH_SCREENSHOT_DIR to write the screenshots");
    QTemporaryDir dir;
    MainWindow window;
    window.setErrorPresenter([](const ErrorReport&) {});
    window.show();
    StudyWorkspace* workspace = nullptr;
    for (int i = 0; i < window.workspaces()->count(); ++i)
      if (auto* w = qobject_cast<StudyWorkspace*>(window.workspaces()->widget(i))) workspace = w;
    QVERIFY(workspace);
    window.workspaces()->setCurrentWidget(workspace);
    QVERIFY(workspace->loadPreset(QStringLiteral("002-beta")));
    workspace->form()->replicatesBox()->setValue(5);
    workspace->setOutputFolder(dir.path());
    QVERIFY(runToEnd(*workspace));
    shootStudy(&window, QStringLiteral("studies-workspace-default.png"));
    window.resize(QGuiApplication::primaryScreen()->availableGeometry().size());
    shootStudy(&window, QStringLiteral("studies-workspace.png"));
    auto* views = workspace->views();
    views->setCurrentIndex(1);
    workspace->measureBox()->setCurrentIndex(
        workspace->measureBox()->findData(QStringLiteral("median")));
    shootStudy(&window, QStringLiteral("studies-utility.png"));
    views->setCurrentIndex(2);
    shootStudy(&window, QStringLiteral("studies-counts.png"));
    workspace->form()->epsilonEdit()->setText(QStringLiteral("5, four, -3"));
    shootStudy(&window, QStringLiteral("studies-invalid.png"));
  }
};

QTEST_MAIN(StudyWorkspaceTest)
#include "study_workspace_test.moc"
