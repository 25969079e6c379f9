/// Sessions keep the last run's results: reopening shows them at once, marked with when and on
/// which data they were made, and stale when the data differs. Nothing per record is stored.
#include <QDoubleSpinBox>
#include <QFile>
#include <QLabel>
#include <QtTest>
#include <nlohmann/json.hpp>

#include "studio_test_helpers.h"
#include "ui/controllers/document_controller.h"
#include "ui/controllers/export_actions.h"
#include "ui/controllers/session_controller.h"
#include "ui/main_window.h"
#include "ui/models/results_table_model.h"
#include "ui/panels/data_panel.h"
#include "ui/panels/progress_panel.h"
#include "ui/panels/results_panel.h"
#include "ui/panels/tuning_panel.h"
#include "ui/plots/plot_widget.h"
#include "ui/plots/plots_view.h"
#include "ui/widgets/tuning_field.h"

using namespace dpsynth::ui;
using nlohmann::json;

namespace {

json readJson(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return {};
  return json::parse(f.readAll().toStdString());
}

void writeJson(const QString& path, const json& doc) {
  QFile f(path);
  QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
  f.write(QByteArray::fromStdString(doc.dump(2)));
}

/// The longest list of numbers anywhere in `value`.
std::size_t longestNumberList(const json& value) {
  std::size_t longest = 0;
  if (value.is_array()) {
    bool numbers = !value.empty();
    for (const auto& item : value) numbers = numbers && item.is_number();
    if (numbers) longest = value.size();
  }
  if (value.is_structured()) {
    for (const auto& item : value) longest = std::max(longest, longestNumberList(item));
  }
  return longest;
}

}  // namespace

class SessionResultsTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QVERIFY(settingsDir_.isValid());
    test::isolateSettings(settingsDir_);
  }

  void aSessionWithResultsReopensShowingThem() {
    const QString path = dir_.filePath("run.dpsynth");
    std::vector<dpsynth::core::report::ResultsRow> rows;
    std::string sha;
    {
      MainWindow window;
      window.setErrorPresenter(errors_.presenter());
      window.synthesis()->autoRunBox()->setChecked(false);
      window.loadDefaults();
      test::useSmallSampler(window);
      QSignalSpy ended(window.synthesis(), &dpsynth::ui::SynthesisWorkspace::runEnded);
      QVERIFY(window.synthesis()->startRun(false));
      QVERIFY(test::waitForRun(window, ended));
      QVERIFY(window.document()->storedResults().has_value());
      QVERIFY(window.isWindowModified());  // a run is work worth saving
      rows = window.synthesis()->resultsPanel()->model()->rows();
      sha = window.document()->source().sha256;
      QVERIFY(window.saveSession(path));
    }
    const json doc = readJson(path);
    QVERIFY(doc.contains("results"));
    QCOMPARE(doc["results"]["rows"].size(), rows.size());
    QCOMPARE(doc["results"]["data_sha256"].get<std::string>(), sha);
    // Reductions only: no list as long as the data (1000 records) or the draws (2 × 150).
    QVERIFY(longestNumberList(doc["results"]) <= 21);

    MainWindow reopened;
    reopened.setErrorPresenter(errors_.presenter());
    QVERIFY(reopened.openSession(path));
    ResultsTableModel* model = reopened.synthesis()->resultsPanel()->model();
    QVERIFY(!model->isEmpty());
    QCOMPARE(model->rows().size(), rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
      QCOMPARE(model->rows()[i].mechanism, rows[i].mechanism);
      QCOMPARE(model->rows()[i].lipschitz, rows[i].lipschitz);
      QCOMPARE(model->rows()[i].epsilon, rows[i].epsilon);
      QCOMPARE(model->rows()[i].mean, rows[i].mean);
      QCOMPARE(model->rows()[i].maxEcdf, rows[i].maxEcdf);
    }
    QVERIFY(!model->isStale());
    const QString note = reopened.synthesis()->resultsPanel()->note();
    QVERIFY2(
        note.contains("Results from") && note.contains(QString::fromStdString(sha.substr(0, 12))),
        qPrintable(note));
    QVERIFY(!note.contains("STALE"));
    QVERIFY(!reopened.isWindowModified());
    // Issue 23, defect 4: the Warnings tab shows the session's run, not "No run yet".
    const QString warningsNote =
        reopened.findChild<QLabel*>(QStringLiteral("warningsNote"))->text();
    QVERIFY2(warningsNote.contains("session's run"), qPrintable(warningsNote));
    QVERIFY(!warningsNote.contains("Stale"));
    // The Lipschitz violins come back, drawn from the stored quantiles.
    QTRY_VERIFY2(!reopened.synthesis()
                      ->plotsView()
                      ->plotSummary()
                      .section('\n', 0, 0)
                      .contains(": 0 plottables"),
                 qPrintable(reopened.synthesis()->plotsView()->plotSummary()));
    QVERIFY(errors_.count() == 0);
    // The panes without a stored reduction say why they are empty, the progress pane where the
    // results come from, and the badge the ε of the table beside it.
    const QString traces =
        reopened.synthesis()->plotsView()->plot(dpsynth::ui::PlotsView::kTraces)->caption();
    QVERIFY2(traces.contains("not the draws"), qPrintable(traces));
    const QString progress = reopened.synthesis()->progressPanel()->summary();
    QVERIFY2(progress.contains("session file"), qPrintable(progress));
    const QString badge = reopened.findChild<QLabel*>(QStringLiteral("guaranteeBadge"))->text();
    QVERIFY2(!badge.contains("after the run") && badge.contains("ε"), qPrintable(badge));
    // The session keeps the table, not the draws: exporting says so and what to do.
    reopened.exportActions()->exportSyntheticWithDialog(nullptr, std::nullopt, 1);
    QCOMPARE(errors_.count(), std::size_t(1));
    QVERIFY2(errors_.last().problem.contains("press Run"), qPrintable(errors_.last().problem));
    errors_.reports->clear();

    // A settings change marks them outdated, keeping the "results from" mark.
    dpsynth::ui::PlotWidget* lipschitz =
        reopened.synthesis()->plotsView()->plot(dpsynth::ui::PlotsView::kLipschitz);
    QVERIFY(!lipschitz->isStale());
    QVERIFY2(lipschitz->caption().contains("session results"), qPrintable(lipschitz->caption()));
    reopened.synthesis()->tuningPanel()->field("c")->spinBox()->setValue(0.5);
    QVERIFY(model->isStale());
    QVERIFY(reopened.synthesis()->resultsPanel()->note().contains("Results from"));
    // The violins beside the table are greyed with it (they had no run label, so stayed bright).
    QVERIFY(lipschitz->isStale());
  }

  void aSessionOpenedInTheWindowWithItsReferenceStaysCurrent() {
    // Issue 23, defect 4: File > Open reads the data and the reference on worker threads; the
    // reference arriving after the results are shown does not make them STALE.
    const QString path = dir_.filePath("reference.dpsynth");
    {
      MainWindow window;
      window.setErrorPresenter(errors_.presenter());
      window.setRefusalPresenter([](const RefusalReport&) {});
      window.synthesis()->autoRunBox()->setChecked(false);
      const QString data = dir_.filePath("counts.csv");
      QFile::remove(data);
      QVERIFY(QFile::copy(test::samplePath("nbmix"), data));
      QVERIFY(window.services().data->loadFile(data));
      window.document()->edit(Field::family, dpsynth::core::models::Family::negbin);
      test::useSmallSampler(window);
      QVERIFY(window.services().data->loadReference(test::samplePath("poisson"),
                                                    window.document()->settings().dataset));
      test::setMechanisms(window, {dpsynth::core::pipeline::Mechanism::censorW});
      QSignalSpy ended(window.synthesis(), &dpsynth::ui::SynthesisWorkspace::runEnded);
      QVERIFY(window.synthesis()->startRun(false));
      QVERIFY(test::waitForRun(window, ended));
      QVERIFY(window.document()->resultsCurrent());
      QVERIFY(window.saveSession(path));
    }
    MainWindow reopened;
    reopened.setErrorPresenter(errors_.presenter());
    QSignalSpy opened(reopened.sessionController(), &SessionController::opened);
    reopened.sessionController()->openInBackground(path);
    QVERIFY(reopened.services().data->isLoading());  // the data file, on the worker
    QVERIFY(opened.wait(60000));
    QTRY_VERIFY_WITH_TIMEOUT(reopened.document()->reference().isLoaded(), 60000);
    QTest::qWait(50);
    QVERIFY(reopened.document()->resultsCurrent());
    ResultsTableModel* model = reopened.synthesis()->resultsPanel()->model();
    QVERIFY(!model->isEmpty());
    QVERIFY(!model->isStale());
    QVERIFY(!reopened.synthesis()->resultsPanel()->note().contains("STALE"));
    QVERIFY(!reopened.isWindowModified());
    QCOMPARE(errors_.count(), std::size_t(0));
  }

  void resultsMadeOnOtherDataAreMarkedStale() {
    const QString path = dir_.filePath("run.dpsynth");  // from the test above
    json doc = readJson(path);
    QVERIFY(doc.contains("results"));
    doc["results"]["data_sha256"] = std::string(64, 'f');
    const QString edited = dir_.filePath("other.dpsynth");
    writeJson(edited, doc);
    MainWindow window;
    window.setErrorPresenter(errors_.presenter());
    QVERIFY(window.openSession(edited));
    QVERIFY(!window.synthesis()->resultsPanel()->model()->isEmpty());
    QVERIFY(window.synthesis()->resultsPanel()->model()->isStale());
    const QString note = window.synthesis()->resultsPanel()->note();
    QVERIFY2(note.contains("ffffffffffff") && note.contains("STALE"), qPrintable(note));
    QVERIFY(window.synthesis()->plotsView()->plot(dpsynth::ui::PlotsView::kLipschitz)->isStale());
  }

  void aSessionWithoutResultsStillOpens() {
    // Written before sessions kept results.
    MainWindow window;
    window.setErrorPresenter(errors_.presenter());
    QVERIFY(window.openSession(DPSYNTH_SOURCE_DIR "/tests/data/sessions/before_results.dpsynth"));
    QVERIFY(window.synthesis()->resultsPanel()->model()->isEmpty());
    QVERIFY(!window.document()->storedResults().has_value());
    QVERIFY(window.windowTitle().startsWith("before_results.dpsynth[*]"));
    QCOMPARE(window.document()->settings().dataset.outcome, std::string("count"));
  }

 private:
  QTemporaryDir settingsDir_;
  QTemporaryDir dir_;
  test::ErrorRecorder errors_;
};

QTEST_MAIN(SessionResultsTest)
#include "session_results_test.moc"
