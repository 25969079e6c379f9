/// Export all releases what the analyst chose (issue 23, defect 1): an unusable output stays in
/// internal/ unless chosen, a refused mechanism blocks only itself, and the confirmation says
/// exactly what is written.
#include <QCheckBox>
#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include "core/pipeline/release_claim.h"
#include "studio_test_helpers.h"
#include "support/test_files.h"
#include "ui/controllers/export_actions.h"
#include "ui/dialogs/export_all_dialog.h"
#include "ui/main_window.h"

using namespace dpsynth::ui;
namespace pipeline = dpsynth::core::pipeline;

namespace {

bool runChoice(MainWindow& window) {
  QSignalSpy ended(window.synthesis(), &SynthesisWorkspace::runEnded);
  if (!window.synthesis()->startRun(false)) return false;
  return test::waitForRun(window, ended);
}

bool exists(const QString& folder, const QString& name) {
  return QFileInfo::exists(QDir(folder).filePath(name));
}

}  // namespace

class ExportChoiceTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QVERIFY(settingsDir_.isValid());
    test::isolateSettings(settingsDir_);
  }

  void anUnusableOutputStaysInternalUnlessChosen() {
    test::ErrorRecorder errors;
    MainWindow window;
    window.setErrorPresenter(errors.presenter());
    window.setRefusalPresenter([](const RefusalReport&) {});
    window.synthesis()->autoRunBox()->setChecked(false);
    window.loadDefaults();  // nbmix, a public sample: its family is declared
    test::useSmallSampler(window, 2, 300, 300);
    window.document()->edit(Field::reproducible, false);  // a release run
    window.document()->edit(Field::epsilon, 0.01);        // censor-uw censors nearly every record
    test::setMechanisms(window, {pipeline::Mechanism::lw, pipeline::Mechanism::censorUw});
    QVERIFY(runChoice(window));
    const RunOutput& out = *window.document()->lastOutput();
    QCOMPARE(out.table.size(), std::size_t(3));
    QVERIFY(!out.table[2].usable);  // censor-uw: nearly every record censored, unusable
    QVERIFY(pipeline::releasable(out.result->mechanisms[1]));  // ... but labelled DP
    // lw's verdict depends on this release run's own (OS) randomness: the rule is what counts.
    const bool lwUsable = out.table[1].usable;

    // The default choice and the dialog: censor-uw unticked, its verdict beside it.
    QCOMPARE(ExportActions::defaultReleaseChoice(out),
             lwUsable ? std::vector<pipeline::Mechanism>{pipeline::Mechanism::lw}
                      : std::vector<pipeline::Mechanism>{});
    ExportAllDialog dialog(out);
    QCOMPARE(dialog.box(pipeline::Mechanism::lw)->isChecked(), lwUsable);
    dialog.box(pipeline::Mechanism::lw)->setChecked(true);  // the analyst releases lw
    QCheckBox* censor = dialog.box(pipeline::Mechanism::censorUw);
    QVERIFY(!censor->isChecked());
    QVERIFY(censor->isEnabled());
    QVERIFY(censor->text().contains("UNUSABLE"));
    QString summary = dialog.summary()->text();
    QVERIFY2(summary.contains("release/ (publishable) will hold, for lw:"), qPrintable(summary));
    QVERIFY(summary.contains("internal/ will hold the synthetic data of censor-uw"));
    QVERIFY(!summary.contains("Nothing will be written to release/"));

    QTemporaryDir dir;
    const QString folder = dir.filePath("out");
    QVERIFY(window.exportActions()->exportAll(out, folder, dialog.chosen()));
    QVERIFY(exists(folder, "release/synthetic_lw.csv"));
    QVERIFY(!exists(folder, "release/synthetic_censor-uw.csv"));
    QVERIFY(exists(folder, "internal/synthetic_censor-uw.csv"));
    const QString note = QString::fromStdString(
        dpsynth::test::readFile(QDir(folder).filePath("release/release_note.html")));
    // Left out by a choice the note states: it may have looked at the confidential verdict.
    QVERIFY2(note.contains("not covered by ε. Left out: censor-uw."), qPrintable(note));

    // Chosen all the same: released, and the confirmation says it is unusable.
    censor->setChecked(true);
    summary = dialog.summary()->text();
    QVERIFY2(summary.contains("Released although their verdict is UNUSABLE: ") &&
                 summary.section("UNUSABLE: ", 1).contains("censor-uw"),
             qPrintable(summary));
    QVERIFY(window.exportActions()->exportAll(out, folder, dialog.chosen()));
    QVERIFY(exists(folder, "release/synthetic_censor-uw.csv"));
    const QString allNote = QString::fromStdString(
        dpsynth::test::readFile(QDir(folder).filePath("release/release_note.html")));
    QVERIFY(!allNote.contains("Left out:"));
    QCOMPARE(errors.count(), std::size_t(0));
  }

  void aRefusalBlocksOnlyItself() {
    test::ErrorRecorder errors;
    test::RefusalRecorder refusals;
    MainWindow window;
    window.setErrorPresenter(errors.presenter());
    window.setRefusalPresenter(refusals.presenter());
    window.synthesis()->autoRunBox()->setChecked(false);
    // A regression with far too few draws: censor-uw's DP stage fails its screen.
    QVERIFY(window.services().data->loadSample("salary"));
    dpsynth::core::data::DatasetSpec spec;
    spec.outcome = "weeks_worked";
    spec.covariates = {"gender"};
    spec.family = dpsynth::core::models::Family::negbin;
    QVERIFY(test::setChoice(window, spec, 1.0));
    test::useSmallSampler(window, 2, 40, 10);
    window.document()->edit(Field::reproducible, false);
    test::setMechanisms(window, {pipeline::Mechanism::lwFinal, pipeline::Mechanism::censorUw});
    QVERIFY(runChoice(window));
    const RunOutput& out = *window.document()->lastOutput();
    QVERIFY(!out.result->mechanisms[1].refusals.empty());
    QVERIFY(pipeline::releasable(out.result->mechanisms[0]));
    const std::vector<pipeline::Mechanism> chosen{pipeline::Mechanism::lwFinal,
                                                  pipeline::Mechanism::censorUw};
    const QString summary = ExportActions::releaseSummary(out, chosen);
    QVERIFY(summary.contains("release/ (publishable) will hold, for lw-final"));
    QVERIFY(
        summary.contains("censor-uw failed its diagnostics: its synthetic data are not "
                         "written at all"));
    QTemporaryDir dir;
    const QString folder = dir.filePath("out");
    QVERIFY(!window.exportActions()->exportAll(out, folder, chosen));  // refused: said
    QVERIFY(exists(folder, "release/synthetic_lw-final.csv"));
    QVERIFY(!exists(folder, "release/synthetic_censor-uw.csv"));
    QVERIFY(!exists(folder, "internal/synthetic_censor-uw.csv"));
    QVERIFY(exists(folder, "internal/report_censor-uw.json"));
    QCOMPARE(refusals.last().when, RefusalReport::When::exportAll);
    QCOMPARE(refusals.last().released, QStringList{"lw-final"});
    const QString text = refusalParagraphs(refusals.last()).join('\n');
    QVERIFY2(text.contains("release/ holds the other mechanisms you chose: lw-final"),
             qPrintable(text));
    QCOMPARE(errors.count(), std::size_t(0));
  }

 private:
  QTemporaryDir settingsDir_;
};

QTEST_MAIN(ExportChoiceTest)
#include "export_choice_test.moc"
