#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QListWidget>
#include <QSignalSpy>
#include <QSlider>
#include <QToolButton>
#include <QUndoStack>
#include <QtTest>

#include "ui/document/studio_document.h"
#include "ui/panels/mechanism_panel.h"
#include "ui/panels/sampler_panel.h"
#include "ui/panels/tuning_panel.h"
#include "ui/widgets/tuning_field.h"

using namespace dpsynth::ui;
namespace pipeline = dpsynth::core::pipeline;

/// The document and its settings panels without a window: what undo/redo needs.
struct UndoRig {
  UndoRig() {
    StudioSettings settings;  // no mechanism checked
    settings.tuning = defaultTuning();
    document.replaceSettings(settings);
  }
  StudioDocument document;
  MechanismPanel mechanisms{&document};
  TuningPanel tuning{&document};
  SamplerPanel sampler{&document};
  /// The document's settings, as a run would take them.
  struct Controller {
    StudioDocument* document;
    StudioSettings current() const { return document->current(); }
  } controller{&document};
  QUndoStack& undo() { return *document.undoStack(); }
};

class SettingsUndoTest : public QObject {
  Q_OBJECT

 private slots:
  void spinEditUndoRedo() {
    UndoRig rig;
    auto* c = rig.tuning.field("c");
    c->spinBox()->setValue(0.4);
    QCOMPARE(rig.undo().count(), 1);
    QCOMPARE(rig.controller.current().tuning.c, 0.4);
    rig.undo().undo();
    QCOMPARE(rig.controller.current().tuning.c, 1.0);
    QCOMPARE(c->spinBox()->value(), 1.0);
    rig.undo().redo();
    QCOMPARE(rig.controller.current().tuning.c, 0.4);
    // The slider follows the spin box both ways.
    QCOMPARE(c->slider()->value(), 200);  // 0.4 on the 0..2 slider of 1000 steps
  }

  void sliderDragIsOneUndoStep() {
    UndoRig rig;
    auto* g = rig.tuning.field("g");
    auto* slider = g->slider();
    emit slider->sliderPressed();
    slider->setSliderDown(true);
    for (int position : {600, 650, 700, 750, 800}) slider->setValue(position);
    slider->setSliderDown(false);
    QCOMPARE(rig.undo().count(), 1);
    QCOMPARE(rig.controller.current().tuning.g, 0.3);  // -0.5 + 0.8 * 1.0
    rig.undo().undo();
    QCOMPARE(rig.controller.current().tuning.g, 0.0);
    rig.undo().redo();
    QCOMPARE(rig.controller.current().tuning.g, 0.3);

    // A second drag is a second step; a plain spin edit afterwards a third.
    emit slider->sliderPressed();
    slider->setSliderDown(true);
    slider->setValue(400);
    slider->setValue(300);
    slider->setSliderDown(false);
    g->spinBox()->setValue(0.05);
    QCOMPARE(rig.undo().count(), 3);
    rig.undo().undo();
    QCOMPARE(rig.controller.current().tuning.g, -0.2);
  }

  void autoCheckBoxUndo() {
    UndoRig rig;
    auto* k = rig.tuning.field("k");
    QVERIFY(!rig.controller.current().tuning.k);  // auto by default
    QCOMPARE(k->spinBox()->value(), 0.95);        // shows a sensible value, not the minimum
    k->autoBox()->setChecked(false);
    QCOMPARE(rig.controller.current().tuning.k, std::optional<double>(0.95));
    k->spinBox()->setValue(0.8);
    QCOMPARE(rig.undo().count(), 2);
    rig.undo().undo();
    QCOMPARE(rig.controller.current().tuning.k, std::optional<double>(0.95));
    rig.undo().undo();
    QVERIFY(!rig.controller.current().tuning.k);
    QVERIFY(k->autoBox()->isChecked());
    QVERIFY(!k->spinBox()->isEnabled());
  }

  void resetButtonIsUndoable() {
    UndoRig rig;
    auto* eps = rig.tuning.field("epsilon");
    eps->spinBox()->setValue(2.0);
    eps->resetButton()->click();
    QCOMPARE(rig.controller.current().tuning.epsilon, std::optional<double>(5.0));
    rig.undo().undo();
    QCOMPARE(rig.controller.current().tuning.epsilon, std::optional<double>(2.0));
  }

  void checkBoxesMechanismsAndSamplerUndo() {
    UndoRig rig;
    rig.tuning.checkBox("radiusRelative")->setChecked(false);
    auto* item = rig.mechanisms.list()->findItems("censor-w", Qt::MatchExactly).front();
    item->setCheckState(Qt::Checked);
    rig.sampler.field("chains")->spinBox()->setValue(2);
    rig.sampler.seedEdit()->setText("5");  // a release has no seed to edit
    emit rig.sampler.seedEdit()->editingFinished();
    QCOMPARE(rig.undo().count(), 3);
    QVERIFY(rig.sampler.seedEdit()->text().isEmpty());  // a release's seed is never shown
    rig.sampler.reproducibleBox()->setChecked(true);
    rig.sampler.seedEdit()->setText("18446744073709551615");
    emit rig.sampler.seedEdit()->editingFinished();
    QCOMPARE(rig.undo().count(), 5);
    auto s = rig.controller.current();
    QVERIFY(!s.tuning.radiusRelative);
    QCOMPARE(s.mechanisms, std::vector<pipeline::Mechanism>{pipeline::Mechanism::censorW});
    QCOMPARE(s.run.nuts.chains, 2);
    QCOMPARE(s.run.nuts.seed, std::uint64_t(18446744073709551615ull));
    for (int i = 0; i < 5; ++i) rig.undo().undo();
    s = rig.controller.current();
    QVERIFY(!s.reproducible);
    QVERIFY(s.tuning.radiusRelative);
    QVERIFY(s.mechanisms.empty());
    QCOMPARE(s.run.nuts.chains, 4);
    QCOMPARE(s.run.nuts.seed, std::uint64_t(1));
    QVERIFY(rig.sampler.seedEdit()->text().isEmpty());
    for (int i = 0; i < 4; ++i) rig.undo().redo();  // up to "reproducible" on
    QCOMPARE(rig.sampler.seedEdit()->text(), QString("1"));
  }

  void reproducibleSwitchAndNeighboursUndo() {
    UndoRig rig;
    // New analyses are releases: the seed field is unused and the run gets an OS seed.
    auto s = rig.controller.current();
    QVERIFY(!s.reproducible);
    QVERIFY(!rig.sampler.seedEdit()->isEnabled());
    auto run = s.runSettings();
    QVERIFY(run.release);
    QVERIFY(!run.nuts.seed.isUserSeed());
    // The release seed stays the same across reads (auto-run reuses cached stages)...
    QCOMPARE(rig.controller.current().runSettings().nuts.seed, run.nuts.seed);

    rig.sampler.reproducibleBox()->setChecked(true);
    rig.sampler.neighboursBox()->setCurrentIndex(
        rig.sampler.neighboursBox()->findData(int(dpsynth::core::privacy::Neighbours::addRemove)));
    QCOMPARE(rig.undo().count(), 2);
    s = rig.controller.current();
    QVERIFY(s.reproducible);
    QVERIFY(rig.sampler.seedEdit()->isEnabled());
    QVERIFY(!s.runSettings().release);
    QCOMPARE(s.runSettings().nuts.seed, dpsynth::core::random::Seed(1));
    QCOMPARE(s.runSettings().neighbours, dpsynth::core::privacy::Neighbours::addRemove);
    rig.undo().undo();
    QCOMPARE(rig.controller.current().run.neighbours,
             dpsynth::core::privacy::Neighbours::replaceOne);
    rig.undo().undo();
    QVERIFY(!rig.controller.current().reproducible);
    QVERIFY(rig.controller.current().runSettings().release);
    rig.undo().redo();
    QVERIFY(rig.controller.current().reproducible);

    // ...and a new dataset gets a new one.
    LoadedData data;
    data.table = std::make_shared<const dpsynth::core::data::CsvTable>(
        dpsynth::core::data::parseCsv("y\n1\n2\n", "y.csv"));
    data.spec.outcome = "y";
    rig.document.installData(data);
    QVERIFY(*rig.controller.current().releaseSeed != run.nuts.seed);
  }

  void undoAndRedoAnnounceChanges() {
    UndoRig rig;
    QSignalSpy changed(&rig.document, &StudioDocument::edited);
    rig.tuning.field("c")->spinBox()->setValue(0.7);
    QCOMPARE(changed.count(), 1);
    rig.undo().undo();
    QCOMPARE(changed.count(), 2);  // auto-run must see undo too
    rig.undo().redo();
    QCOMPARE(changed.count(), 3);
    QCOMPARE(rig.undo().count(), 1);  // programmatic changes push nothing
  }

  void applyShowsSettingsAndClearsHistory() {
    UndoRig rig;
    rig.tuning.field("c")->spinBox()->setValue(0.7);
    StudioSettings s;
    s.tuning = defaultTuning();
    s.tuning.c = 0.25;
    s.tuning.g = 0.1;
    s.tuning.k = 0.9;
    s.tuning.epsilon = std::nullopt;
    s.tuning.downscale = std::nullopt;
    s.tuning.lower = -1;
    s.tuning.upper = 300;
    s.tuning.bins = 17;
    s.reproducible = true;
    s.run.neighbours = dpsynth::core::privacy::Neighbours::addRemove;
    s.tuning.radius = 3.5;
    s.tuning.radiusRelative = false;
    s.mechanisms = {pipeline::Mechanism::lw, pipeline::Mechanism::ph};
    s.run.nuts.chains = 3;
    s.run.nuts.warmup = 200;
    s.run.nuts.draws = 300;
    s.run.nuts.threads = 2;
    s.run.nuts.seed = 99;
    s.syntheticDatasets = 4;
    rig.document.replaceSettings(s);
    QCOMPARE(rig.undo().count(), 0);
    const auto t = rig.controller.current();
    QCOMPARE(t.tuning.c, 0.25);
    QCOMPARE(t.tuning.g, 0.1);
    QCOMPARE(t.tuning.k, std::optional<double>(0.9));
    QVERIFY(!t.tuning.epsilon);
    QVERIFY(!t.tuning.downscale);
    QCOMPARE(t.tuning.lower, std::optional<double>(-1));
    QCOMPARE(t.tuning.upper, std::optional<double>(300));
    QCOMPARE(t.tuning.bins, 17);
    QVERIFY(t.reproducible);
    QCOMPARE(t.run.neighbours, dpsynth::core::privacy::Neighbours::addRemove);
    QCOMPARE(t.tuning.radius, 3.5);
    QVERIFY(!t.tuning.radiusRelative);
    QCOMPARE(t.mechanisms, s.mechanisms);
    QCOMPARE(t.run.nuts.chains, 3);
    QCOMPARE(t.run.nuts.warmup, 200);
    QCOMPARE(t.run.nuts.draws, 300);
    QCOMPARE(t.run.nuts.threads, 2);
    QCOMPARE(t.run.nuts.seed, std::uint64_t(99));
    QCOMPARE(t.syntheticDatasets, 4);
  }

  void problemsListEveryBlocker() {
    StudioSettings s;
    s.tuning = defaultTuning();
    s.tuning.epsilon = std::nullopt;
    s.mechanisms = {pipeline::Mechanism::censorW, pipeline::Mechanism::ph};
    const auto problems = s.problems();
    QCOMPARE(problems.size(), std::size_t(3));  // ε twice, PH bounds once
    s.dataset.family = dpsynth::core::models::Family::beta;
    s.tuning.epsilon = 1.0;
    QVERIFY(s.problems().empty());  // beta: PH bounds default to [0, 1]
    QCOMPARE(s.mechanismConfigs()[1].upper, std::optional<double>(1.0));
  }
};

QTEST_MAIN(SettingsUndoTest)
#include "settings_undo_test.moc"
