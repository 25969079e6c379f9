/// Loading files in the window: a CSV or a reference dataset chosen there is read on a worker
/// thread; a malformed one shows the same error dialog as before and changes nothing; a recent
/// file that has gone leaves the menu.
#include <QAction>
#include <QFile>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QSignalSpy>
#include <QtTest>

#include "studio_test_helpers.h"
#include "ui/app_settings.h"
#include "ui/controllers/session_controller.h"
#include "ui/dialogs/data_error_dialog.h"
#include "ui/main_window.h"
#include "ui/panels/data_panel.h"
#include "ui/panels/tuning_panel.h"
#include "ui/services/data_loader.h"

using namespace dpsynth::ui;

class StudioLoadTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QVERIFY(settingsDir_.isValid());
    test::isolateSettings(settingsDir_);
  }

  void aMalformedFileShowsTheErrorDialogAndKeepsTheData() {
    MainWindow window;  // the real presenter: a non-modal dialog
    window.loadDefaults();
    const auto before = window.document()->dataset();
    const QString title = window.windowTitle();
    QSignalSpy ended(window.services().data, &DataService::loadEnded);
    window.services().data->openFile(test::malformedPath("text_outcome.csv"));
    QVERIFY(ended.wait(60000));
    auto* dialog = window.findChild<DataErrorDialog*>();
    QVERIFY(dialog);
    QVERIFY(dialog->isVisible());
    QCOMPARE(dialog->report().title, QString("Cannot load data"));
    QVERIFY(dialog->report().file.endsWith("text_outcome.csv"));
    QCOMPARE(dialog->report().line, qint64(4));
    QCOMPARE(dialog->report().column, QString("count"));
    QCOMPARE(window.document()->dataset(), before);
    QCOMPARE(window.windowTitle(), title);
    dialog->accept();
  }

  void aGoneRecentFileLeavesTheMenu() {
    QTemporaryDir dir;
    const QString data = dir.filePath("gone.csv");
    QVERIFY(QFile::copy(test::samplePath("poisson"), data));
    test::ErrorRecorder errors;
    MainWindow window;
    window.setErrorPresenter(errors.presenter());
    QVERIFY(window.services().data->loadFile(data));
    QCOMPARE(AppSettings().recentFiles().value(0), data);
    QVERIFY(QFile::remove(data));
    QAction* recent = nullptr;
    for (QAction* a : window.menuBar()->actions()) {
      if (!a->menu()) continue;
      for (QAction* item : a->menu()->actions()) {
        if (item->menu() && item->text().contains("recent"))
          recent = item->menu()->actions().value(0);
      }
    }
    QVERIFY(recent);
    QSignalSpy ended(window.services().data, &DataService::loadEnded);
    recent->trigger();
    QVERIFY(ended.wait(60000));
    QCOMPARE(errors.count(), std::size_t(1));
    QVERIFY(errors.last().problem.contains("does not exist"));
    QVERIFY(!AppSettings().recentFiles().contains(data));
  }

  void aReferenceChosenInTheWindowLoadsOnTheWorker() {
    test::ErrorRecorder errors;
    MainWindow window;
    window.setErrorPresenter(errors.presenter());
    QVERIFY(window.services().data->loadSample("nbmix"));
    StudioDocument* document = window.document();
    DataLoader* loader = window.services().data->referenceLoader();
    QSignalSpy changed(document, &StudioDocument::changed);
    emit window.synthesis()->tuningPanel()->referenceChosen(test::samplePath("poisson"));
    QVERIFY(loader->isLoading());
    QTRY_VERIFY_WITH_TIMEOUT(document->reference().isLoaded(), 60000);
    QCOMPARE(document->reference().path(), test::samplePath("poisson"));
    std::string problem;
    QVERIFY(document->referenceDataset(&problem));
    QVERIFY(problem.empty());
    QVERIFY(window.synthesis()->tuningPanel()->referenceLabel()->text().contains("poisson.csv"));

    // A malformed reference: the error dialog, and the reference loaded before stays.
    changed.clear();
    QSignalSpy ended(loader, &DataLoader::ended);
    emit window.synthesis()->tuningPanel()->referenceChosen(test::malformedPath("ragged_row.csv"));
    QVERIFY(ended.wait(60000));
    QCOMPARE(errors.count(), std::size_t(1));
    QCOMPARE(errors.last().title, QString("Cannot load reference data"));
    QCOMPARE(errors.last().line, qint64(3));
    QCOMPARE(document->reference().path(), test::samplePath("poisson"));
    QCOMPARE(changed.count(), 0);
  }

  void aSessionOpenedInTheWindowReadsItsDataOnTheWorker() {
    QTemporaryDir dir;
    const QString data = dir.filePath("salary.csv");
    QVERIFY(QFile::copy(test::samplePath("salary"), data));
    QFile::setPermissions(data, QFile::ReadOwner | QFile::WriteOwner);
    const QString path = dir.filePath("analysis.dpsynth");
    test::ErrorRecorder errors;
    dpsynth::core::data::DatasetSpec spec;
    {
      MainWindow window;
      window.setErrorPresenter(errors.presenter());
      QVERIFY(window.services().data->loadFile(data));
      spec = window.document()->settings().dataset;
      spec.outcome = "salary";
      spec.family = dpsynth::core::models::Family::normal;
      spec.covariates = {"gender", "age_group"};
      QVERIFY(dpsynth::ui::test::setChoice(window, spec, 1.0));
      QVERIFY(window.saveSession(path));
    }
    MainWindow window;
    window.setErrorPresenter(errors.presenter());
    window.loadDefaults();
    QSignalSpy opened(window.sessionController(), &SessionController::pathChanged);
    QSignalSpy changed(window.sessionController(), &SessionController::dataChanged);
    window.sessionController()->openInBackground(path);
    QVERIFY(window.services().data->isLoading());
    QCOMPARE(opened.count(), 0);  // applied only once the data is there
    QVERIFY(opened.wait(60000));
    QCOMPARE(window.document()->source().file, data);
    QVERIFY(window.document()->settings().dataset.covariates == spec.covariates);
    QCOMPARE(window.sessionController()->currentPath(), path);
    QCOMPARE(changed.count(), 0);
    QCOMPARE(errors.count(), std::size_t(0));

    // Changed data: said, from the digest of the bytes the worker read.
    QFile file(data);
    QVERIFY(file.open(QIODevice::Append));
    file.write("F,25-34,52,12345.67\n");
    file.close();
    opened.clear();
    window.sessionController()->openInBackground(path);
    QVERIFY(opened.wait(60000));
    QCOMPARE(changed.count(), 1);
    QVERIFY(changed.first().first().toString().contains("has changed"));

    // A cancelled load applies nothing of the session.
    window.loadDefaults();
    opened.clear();
    QSignalSpy ended(window.services().data, &DataService::loadEnded);
    window.sessionController()->openInBackground(path);
    window.services().data->cancelLoad();
    QVERIFY(ended.wait(60000));
    QTest::qWait(50);
    QCOMPARE(opened.count(), 0);
    QCOMPARE(window.document()->source().sample, QString("nbmix"));
  }

 private:
  QTemporaryDir settingsDir_;
};

QTEST_MAIN(StudioLoadTest)
#include "studio_load_test.moc"
