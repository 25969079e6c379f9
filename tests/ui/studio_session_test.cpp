#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QLabel>
#include <QMimeData>
#include <QPushButton>
#include <QSignalSpy>
#include <QUrl>
#include <QtTest>
#include <nlohmann/json.hpp>

#include "core/session/session.h"
#include "studio_test_helpers.h"
#include "ui/app_settings.h"
#include "ui/controllers/session_controller.h"
#include "ui/dialogs/data_error_dialog.h"
#include "ui/main_window.h"
#include "ui/panels/data_panel.h"
#include "ui/panels/mechanism_panel.h"
#include "ui/panels/sampler_panel.h"
#include "ui/panels/tuning_panel.h"
#include "ui/plots/plot_widget.h"
#include "ui/widgets/guarantee_badge.h"
#include "ui/widgets/tuning_field.h"

using namespace dpsynth::ui;
namespace pipeline = dpsynth::core::pipeline;
using dpsynth::core::models::Family;

namespace {

QString copyFile(const QString& from, const QString& to) {
  QFile::remove(to);
  if (!QFile::copy(from, to)) return {};
  QFile::setPermissions(to, QFile::ReadOwner | QFile::WriteOwner);
  return to;
}

}  // namespace

class StudioSessionTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QVERIFY(settingsDir_.isValid());
    test::isolateSettings(settingsDir_);
  }

  void sessionRoundTripThroughTheUi() {
    QTemporaryDir dir;
    const QString data = copyFile(test::samplePath("salary"), dir.filePath("salary.csv"));
    QVERIFY(!data.isEmpty());
    const QString path = dir.filePath("analysis.dpsynth");

    test::ErrorRecorder errors;
    StudioSettings saved;
    {
      MainWindow window;
      window.setErrorPresenter(errors.presenter());
      QVERIFY(window.services().data->loadFile(data));
      auto spec = window.document()->settings().dataset;
      QVERIFY(spec.outcome.empty());  // two numeric columns: none until chosen
      spec.outcome = "salary";
      spec.family = dpsynth::core::models::Family::normal;
      spec.covariates = {"gender", "age_group"};
      QVERIFY(dpsynth::ui::test::setChoice(window, spec, 20000.0));
      window.synthesis()->tuningPanel()->field("c")->spinBox()->setValue(0.6);
      window.document()->edit(dpsynth::ui::Field::k, 0.92);
      window.document()->edit(dpsynth::ui::Field::epsilon, 3.0);
      window.document()->edit(dpsynth::ui::Field::downscale, std::optional<double>());
      window.document()->edit(dpsynth::ui::Field::lower, 0.0);
      window.document()->edit(dpsynth::ui::Field::upper, 500000.0);
      window.synthesis()->tuningPanel()->checkBox("radiusRelative")->setChecked(false);
      dpsynth::ui::test::setMechanisms(
          window,
          {pipeline::Mechanism::lwFinal, pipeline::Mechanism::censorW, pipeline::Mechanism::ph});
      test::useSmallSampler(window, 3, 120, 130, 424242);  // reproducible, seed 424242
      window.synthesis()->samplerPanel()->neighboursBox()->setCurrentIndex(
          window.synthesis()->samplerPanel()->neighboursBox()->findData(
              int(dpsynth::core::privacy::Neighbours::addRemove)));
      // The published size (SPEC §0): a size declared public, and ε_n of the noisy one.
      window.synthesis()->samplerPanel()->field("declaredRows")->setValue(750.0);
      window.synthesis()->samplerPanel()->field("sizeEpsilon")->setValue(0.25);
      saved = window.document()->current();
      QCOMPARE(saved.run.size.declaredRows, std::optional<std::size_t>(750));
      QCOMPARE(saved.run.size.epsilon, 0.25);
      QVERIFY(window.saveSession(path));
    }
    // The file holds settings only: no data values.
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const auto json = nlohmann::json::parse(file.readAll().toStdString());
    QCOMPARE(json["version"].get<int>(), 1);
    QCOMPARE(QString::fromStdString(json["data"]["file"].get<std::string>()), data);
    QCOMPARE(json["data"]["sha256"].get<std::string>().size(), std::size_t(64));
    QVERIFY(json.dump().find("96618.27") == std::string::npos);  // first salary of the data
    QCOMPARE(json["run"]["seed"].get<std::uint64_t>(), std::uint64_t(424242));
    QCOMPARE(json["run"]["neighbours"].get<std::string>(), std::string("add-remove"));
    QCOMPARE(json["run"]["rows"].get<int>(), 750);
    QCOMPARE(json["run"]["size_epsilon"].get<double>(), 0.25);

    MainWindow reopened;
    reopened.setErrorPresenter(errors.presenter());
    reopened.loadDefaults();  // something else loaded first
    QSignalSpy changed(reopened.sessionController(), &SessionController::dataChanged);
    QVERIFY(reopened.openSession(path));
    QCOMPARE(errors.count(), std::size_t(0));
    QCOMPARE(changed.count(), 0);
    QCOMPARE(reopened.document()->source().file, data);
    const auto s = reopened.document()->current();
    QCOMPARE(s.dataset.outcome, std::string("salary"));
    QCOMPARE(s.dataset.covariates, (std::vector<std::string>{"gender", "age_group"}));
    QCOMPARE(s.dataset.family, Family::normal);
    QCOMPARE(s.run.model.sdScale, 20000.0);
    QCOMPARE(s.mechanisms, saved.mechanisms);
    QCOMPARE(s.tuning.c, 0.6);
    QCOMPARE(s.tuning.k, std::optional<double>(0.92));
    QCOMPARE(s.tuning.epsilon, std::optional<double>(3.0));
    QVERIFY(!s.tuning.downscale);
    QCOMPARE(s.tuning.lower, std::optional<double>(0.0));
    QCOMPARE(s.tuning.upper, std::optional<double>(500000.0));
    QVERIFY(!s.tuning.radiusRelative);
    QCOMPARE(s.run.nuts.chains, 3);
    QCOMPARE(s.run.nuts.warmup, 120);
    QCOMPARE(s.run.nuts.draws, 130);
    QCOMPARE(s.run.nuts.seed, std::uint64_t(424242));
    QVERIFY(s.reproducible);
    QVERIFY(reopened.synthesis()->samplerPanel()->reproducibleBox()->isChecked());
    QCOMPARE(s.run.neighbours, dpsynth::core::privacy::Neighbours::addRemove);
    QCOMPARE(s.run.size.declaredRows, std::optional<std::size_t>(750));
    QCOMPARE(s.run.size.epsilon, 0.25);
    QVERIFY(reopened.document()->dataset());
    QCOMPARE(reopened.document()->dataset()->X.cols(), Eigen::Index(1 + 1 + 3));
    QVERIFY(reopened.windowTitle().contains("analysis.dpsynth"));
  }

  void releaseSessionsNeverHoldASeed() {
    QTemporaryDir dir;
    const QString data = copyFile(test::samplePath("nbmix"), dir.filePath("nb.csv"));
    const QString path = dir.filePath("release.dpsynth");
    test::ErrorRecorder errors;
    dpsynth::core::random::Seed releaseSeed;
    {
      MainWindow window;
      window.setErrorPresenter(errors.presenter());
      QVERIFY(window.services().data->loadFile(data));
      QVERIFY(!window.synthesis()
                   ->samplerPanel()
                   ->reproducibleBox()
                   ->isChecked());  // new analyses: release
      const auto settings = window.document()->current();
      releaseSeed = settings.runSettings().nuts.seed;
      QVERIFY(!releaseSeed.isUserSeed());
      QVERIFY(window.saveSession(path));
    }
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray text = file.readAll();
    const auto json = nlohmann::json::parse(text.toStdString());
    QVERIFY(json["run"]["seed"].is_null());
    // The family was only suggested from the data: saved so, and a release then asks for it.
    QCOMPARE(json["data"]["family_declared"].get<bool>(), false);
    // Neither word of the OS seed is anywhere in the file.
    QVERIFY(!text.contains(QByteArray::number(qulonglong(releaseSeed.lo))));
    QVERIFY(!text.contains(QByteArray::number(qulonglong(releaseSeed.hi))));

    MainWindow reopened;
    reopened.setErrorPresenter(errors.presenter());
    QVERIFY(reopened.openSession(path));
    QCOMPARE(errors.count(), std::size_t(0));
    const auto s = reopened.document()->current();
    QVERIFY(!s.reproducible);
    QVERIFY(s.runSettings().release);
    QVERIFY(s.runSettings().nuts.seed != releaseSeed);  // a fresh secret seed
    QVERIFY(!reopened.document()->familyDeclared());
    reopened.document()->edit(dpsynth::ui::Field::family, s.dataset.family);  // picked: declared
    QVERIFY(reopened.saveSession(path));
    QVERIFY(dpsynth::core::session::loadSession(path.toStdString()).familyDeclared);
  }

  void referenceWeightsRoundTripAndFlipCensorWToDp() {
    QTemporaryDir dir;
    const QString data = copyFile(test::samplePath("beta"), dir.filePath("beta.csv"));
    const QString reference = copyFile(test::samplePath("beta"), dir.filePath("reference.csv"));
    const QString path = dir.filePath("ref.dpsynth");
    test::ErrorRecorder errors;
    {
      MainWindow window;
      window.setErrorPresenter(errors.presenter());
      QVERIFY(window.services().data->loadFile(data));
      dpsynth::ui::test::setMechanisms(window, {pipeline::Mechanism::censorW});
      window.document()->setCurrentMechanism(pipeline::Mechanism::censorW);
      QVERIFY(!window.synthesis()->guaranteeBadge()->text().contains("strict DP"));
      QVERIFY(window.synthesis()->guaranteeBadge()->text().contains("asymptotic DP"));
      QVERIFY(!window.document()->current().run.weightReference);

      QVERIFY(
          window.services().data->loadReference(reference, window.document()->settings().dataset));
      const auto s = window.document()->current();
      QVERIFY(s.run.weightReference);
      QCOMPARE(s.run.weightReference->family, Family::beta);
      QCOMPARE(s.weightsFrom, reference.toStdString());
      QVERIFY2(window.synthesis()->guaranteeBadge()->text().contains("strict DP"),
               qPrintable(window.synthesis()->guaranteeBadge()->text()));
      QVERIFY(window.saveSession(path));

      // A reference that cannot be read is shown like a data error; the loaded one stays.
      QVERIFY(!window.services().data->loadReference(test::malformedPath("ragged_row.csv"),
                                                     window.document()->settings().dataset));
      QCOMPARE(errors.count(), std::size_t(1));
      QVERIFY(errors.last().title.contains("reference"));
      QCOMPARE(errors.last().line, qint64(3));
      QVERIFY(window.document()->current().run.weightReference);

      window.synthesis()->tuningPanel()->referenceClearButton()->click();
      QVERIFY(!window.document()->current().run.weightReference);
      QVERIFY(!window.synthesis()->guaranteeBadge()->text().contains("strict DP"));
    }
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const auto json = nlohmann::json::parse(file.readAll().toStdString());
    QCOMPARE(QString::fromStdString(json["data"]["weights_from"].get<std::string>()), reference);

    MainWindow reopened;
    reopened.setErrorPresenter(errors.presenter());
    QVERIFY(reopened.openSession(path));
    const auto s = reopened.document()->current();
    QCOMPARE(s.weightsFrom, reference.toStdString());
    QVERIFY(s.run.weightReference);
    QVERIFY(
        reopened.synthesis()->tuningPanel()->referenceLabel()->text().contains("reference.csv"));
  }

  /// A session typed over the data's name (the dialog lists *.dpsynth only) replaced the
  /// confidential file: refused, the data as they were.
  void aSessionIsNeverSavedOverItsData() {
    QTemporaryDir dir;
    const QString data = copyFile(test::samplePath("nbmix"), dir.filePath("nb.csv"));
    QFile original(data);
    QVERIFY(original.open(QIODevice::ReadOnly));
    const QByteArray before = original.readAll();
    original.close();
    test::ErrorRecorder errors;
    MainWindow window;
    window.setErrorPresenter(errors.presenter());
    QVERIFY(window.services().data->loadFile(data));
    QVERIFY(!window.saveSession(data));
    QCOMPARE(errors.count(), std::size_t(1));
    QFile after(data);
    QVERIFY(after.open(QIODevice::ReadOnly));
    QCOMPARE(after.readAll(), before);
  }

  /// A plot exported as nb.png writes nb.csv beside it: with nb.csv the open data, refused
  /// (answered Yes, the replace question replaced the confidential file).
  void aPlotIsNeverExportedOverItsData() {
    QTemporaryDir dir;
    const QString data = copyFile(test::samplePath("nbmix"), dir.filePath("nb.csv"));
    {
      MainWindow window;
      QVERIFY(window.services().data->loadFile(data));
      const QString problem = dpsynth::ui::PlotWidget::exportProblem(dir.filePath("nb.png"));
      QVERIFY2(problem.contains("refusing to overwrite"), qPrintable(problem));
      QVERIFY(dpsynth::ui::PlotWidget::exportProblem(dir.filePath("other.png")).isEmpty());
    }
    // No window, no file read: nothing refused.
    QVERIFY(dpsynth::ui::PlotWidget::exportProblem(dir.filePath("nb.png")).isEmpty());
  }

  void changedDataFileIsReported() {
    QTemporaryDir dir;
    const QString data = copyFile(test::samplePath("nbmix"), dir.filePath("nb.csv"));
    const QString path = dir.filePath("nb.dpsynth");
    test::ErrorRecorder errors;
    {
      MainWindow window;
      window.setErrorPresenter(errors.presenter());
      QVERIFY(window.services().data->loadFile(data));
      QVERIFY(window.saveSession(path));
    }
    QFile edit(data);
    QVERIFY(edit.open(QIODevice::Append));
    edit.write("101\n");  // one more record
    edit.close();

    MainWindow window;
    window.setErrorPresenter(errors.presenter());
    QSignalSpy changed(window.sessionController(), &SessionController::dataChanged);
    QVERIFY(window.openSession(path));
    QCOMPARE(changed.count(), 1);
    QVERIFY(changed.first().first().toString().contains("changed since the session was saved"));
    QCOMPARE(errors.count(), std::size_t(1));  // shown to the user
    QCOMPARE(window.document()->dataset()->size(), std::size_t(1001));
  }

  void unreadableSessionKeepsTheCurrentState() {
    QTemporaryDir dir;
    const QString path = dir.filePath("bad.dpsynth");
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"version": 7})");
    file.close();
    test::ErrorRecorder errors;
    MainWindow window;
    window.setErrorPresenter(errors.presenter());
    window.loadDefaults();
    QVERIFY(!window.openSession(path));
    QCOMPARE(errors.count(), std::size_t(1));
    QVERIFY(errors.last().problem.contains("version 7"));
    QCOMPARE(window.document()->source().sample, QString("nbmix"));
  }

  void sampleSessionsReloadTheSample() {
    QTemporaryDir dir;
    const QString path = dir.filePath("s.dpsynth");
    test::ErrorRecorder errors;
    {
      MainWindow window;
      window.setErrorPresenter(errors.presenter());
      QVERIFY(window.services().data->loadSample("beta"));
      QVERIFY(window.saveSession(path));
    }
    MainWindow window;
    window.setErrorPresenter(errors.presenter());
    QVERIFY(window.openSession(path));
    QCOMPARE(window.document()->source().sample, QString("beta"));
    QCOMPARE(window.document()->settings().dataset.family, Family::beta);
    QCOMPARE(errors.count(), std::size_t(0));
  }

  void droppingACsvLoadsItAndRemembersIt() {
    QTemporaryDir dir;
    const QString data = copyFile(test::samplePath("poisson"), dir.filePath("counts.csv"));
    test::ErrorRecorder errors;
    MainWindow window;
    window.setErrorPresenter(errors.presenter());
    auto* mime = new QMimeData;
    mime->setUrls({QUrl::fromLocalFile(data)});
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &drop);
    // A dropped file is read on the worker thread, like one chosen with Open.
    QTRY_COMPARE_WITH_TIMEOUT(window.document()->source().file, data, 60000);
    QCOMPARE(errors.count(), std::size_t(0));
    QCOMPARE(AppSettings().recentFiles().value(0), data);
    delete mime;
  }

  void malformedCsvShowsADialogAndKeepsTheData() {
    MainWindow window;  // the real presenter: a non-modal dialog
    window.loadDefaults();
    const auto before = window.document()->dataset();
    QVERIFY(!window.services().data->loadFile(test::malformedPath("ragged_row.csv")));
    auto* dialog = window.findChild<DataErrorDialog*>();
    QVERIFY(dialog);
    QVERIFY(dialog->isVisible());
    QVERIFY(dialog->report().file.endsWith("ragged_row.csv"));
    QCOMPARE(dialog->report().line, qint64(3));
    QVERIFY(dialog->report().problem.contains("found 3"));
    QCOMPARE(window.document()->dataset(), before);
    dialog->accept();
  }

 private:
  QTemporaryDir settingsDir_;
};

QTEST_MAIN(StudioSessionTest)
#include "studio_session_test.moc"
