/// Settings that depend on the data's scale: reset on new data (and said so), checked against
/// the data and the family before Run, and no run starts by itself on freshly loaded data.
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QTimer>
#include <QUndoStack>
#include <QtTest>

#include "studio_test_helpers.h"
#include "ui/controllers/data_fit_check.h"
#include "ui/main_window.h"
#include "ui/panels/data_panel.h"
#include "ui/panels/mechanism_panel.h"
#include "ui/panels/results_panel.h"
#include "ui/panels/tuning_panel.h"
#include "ui/services/run_controller.h"
#include "ui/widgets/tuning_field.h"

using namespace dpsynth::ui;
namespace pipeline = dpsynth::core::pipeline;

namespace {

/// The user types a value into an optional field ("unset" / "auto" unchecked first).
void type(TuningField* field, double value) {
  if (field->autoBox()) field->autoBox()->setChecked(false);
  field->spinBox()->setValue(value);
}

}  // namespace

class DatasetSettingsTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QVERIFY(settingsDir_.isValid());
    test::isolateSettings(settingsDir_);
  }

  void init() {
    window_ = std::make_unique<MainWindow>();
    window_->setErrorPresenter(errors_.presenter());
    window_->synthesis()->autoRunBox()->setChecked(false);
    window_->loadDefaults();  // nbmix: counts
  }

  void cleanup() {
    window_->synthesis()->autoRunBox()->setChecked(false);
    window_.reset();
  }

  void phBoundsAndRadiusResetOnNewData() {
    TuningPanel* tuning = window_->synthesis()->tuningPanel();
    type(tuning->field("lower"), 0.0);
    type(tuning->field("upper"), 300.0);
    type(tuning->field("radius"), 5.0);
    QCOMPARE(window_->document()->settings().tuning.upper, std::optional<double>(300.0));
    QVERIFY(window_->document()->undoStack()->count() > 0);

    QVERIFY(window_->services().data->loadSample("beta"));
    const auto after = window_->document()->settings().tuning;
    QVERIFY(!after.lower);  // the family's default: unset (beta then uses 0 and 1)
    QVERIFY(!after.upper);
    QCOMPARE(after.radius, pipeline::MechanismConfig{}.radius);
    // Undo must not bring the old data's bounds back.
    QCOMPARE(window_->document()->undoStack()->count(), 0);
    // The analyst is told.
    const QString note = window_->synthesis()->resultsPanel()->note();
    QVERIFY2(note.contains("PH upper") && note.contains("reset", Qt::CaseInsensitive),
             qPrintable(note));
    QVERIFY2(note.contains("CW radius"), qPrintable(note));
  }

  void boundsThatDoNotFitMarkTheFieldAndTheMechanism() {
    TuningPanel* tuning = window_->synthesis()->tuningPanel();
    MechanismPanel* mechanisms = window_->synthesis()->mechanismPanel();
    QVERIFY(tuning->field("upper")->warning().isEmpty());
    QVERIFY(mechanisms->warning(pipeline::Mechanism::ph).isEmpty());
    const double largest = window_->document()->dataset()->y.maxCoeff();
    type(tuning->field("lower"), 0.0);
    type(tuning->field("upper"), largest / 2);  // counts pile up at the upper bound
    QVERIFY(tuning->field("upper")->warning().contains("below the largest outcome value"));
    QVERIFY(tuning->field("lower")->warning().isEmpty());
    QVERIFY(mechanisms->warning(pipeline::Mechanism::ph).contains("PH upper"));
    QVERIFY(mechanisms->warning(pipeline::Mechanism::lwFinal).isEmpty());

    type(tuning->field("lower"), -5.0);  // outside a count family's support
    QVERIFY(tuning->field("lower")->warning().contains("support"));
    type(tuning->field("upper"), largest * 2);
    QVERIFY(tuning->field("upper")->warning().isEmpty());

    type(tuning->field("lower"), 0.0);
    QVERIFY(mechanisms->warning(pipeline::Mechanism::ph).isEmpty());

    // On beta data, bounds outside (0, 1) are outside the family's support.
    QVERIFY(window_->services().data->loadSample("beta"));
    type(tuning->field("upper"), 5.0);
    QVERIFY(tuning->field("upper")->warning().contains("beta family's support"));
    QVERIFY(!mechanisms->warning(pipeline::Mechanism::ph).isEmpty());

    // An absolute CW radius wider than the data's range.
    tuning->checkBox("radiusRelative")->setChecked(false);
    type(tuning->field("radius"), 50.0);
    QVERIFY(tuning->field("radius")->warning().contains("range"));
    QVERIFY(!mechanisms->warning(pipeline::Mechanism::cwFinal).isEmpty());
  }

  void autoRunNeverStartsOnFreshData() {
    RunController* run = window_->services().run;
    window_->synthesis()->autoRunBox()->setChecked(true);
    QVERIFY(window_->services().data->loadSample("poisson"));
    QVERIFY(!run->autoRunTimer()->isActive());
    QVERIFY(!run->isRunning());

    // Read on the worker thread, as with File > Open.
    QSignalSpy ended(window_->services().data, &DataService::loadEnded);
    window_->services().data->openFile(test::samplePath("nbmix"));
    QVERIFY(ended.wait(60000));
    QCOMPARE(window_->document()->source().file, test::samplePath("nbmix"));
    QVERIFY(!run->autoRunTimer()->isActive());
    QVERIFY(!run->isRunning());

    // Opening a session is not an edit either.
    const QString session = QDir(dir_.path()).filePath("s.dpsynth");
    QVERIFY(window_->saveSession(session));
    QVERIFY(window_->openSession(session));
    QVERIFY(!run->autoRunTimer()->isActive());

    // The analyst's first change does start it.
    window_->synthesis()->tuningPanel()->field("c")->spinBox()->setValue(0.7);
    QVERIFY(run->autoRunTimer()->isActive());
    window_->synthesis()->autoRunBox()->setChecked(false);
    QVERIFY(!run->autoRunTimer()->isActive());
  }

 private:
  QTemporaryDir settingsDir_;
  QTemporaryDir dir_;
  test::ErrorRecorder errors_;
  std::unique_ptr<MainWindow> window_;
};

QTEST_MAIN(DatasetSettingsTest)
#include "dataset_settings_test.moc"
