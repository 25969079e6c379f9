/// The walk an analyst takes through issue 23's employees example, end to end in the window:
/// id, postcode and income confidential, gender, age group and weeks public; lw-final, censor-w
/// with a reference file, ph; export; quit; reopen. It checks what each step must show, not the
/// random numbers, and prints what it saw (qInfo) for the closing note.
#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>
#include <cmath>

#include "studio_test_helpers.h"
#include "ui/controllers/export_actions.h"
#include "ui/controllers/session_controller.h"
#include "ui/models/results_table_model.h"
#include "ui/panels/data_panel.h"
#include "ui/panels/results_panel.h"
#include "ui/panels/warnings_panel.h"
#include "ui/widgets/column_roles_view.h"
#include "ui/widgets/guarantee_badge.h"

using namespace dpsynth::ui;
namespace pipeline = dpsynth::core::pipeline;

namespace {

/// n employees; `firstLevels` decides which gender and age group appear first.
void writeEmployees(const QString& path, int n, int seed, bool femaleFirst) {
  QFile file(path);
  QVERIFY(file.open(QIODevice::WriteOnly));
  file.write("id,postcode,income,gender,age_group,weeks\n");
  static const char* const kAges[] = {"16-24", "25-34", "35-49", "50-64"};
  for (int i = 0; i < n; ++i) {
    const int k = (i * 7919 + seed * 104729) % 9973;
    const bool female = ((i + (femaleFirst ? 0 : 1)) % 2) == 0;
    const int age = (i + (femaleFirst ? 0 : 3)) % 4;
    const int weeks = 20 + k % 33;
    const double income =
        18000 + 6000 * age + (female ? -2500 : 0) + 350 * (weeks - 36) + (k % 997) * 9.0;
    file.write(QStringLiteral("%1,%2,%3,%4,%5,%6\n")
                   .arg(1000 + i)
                   .arg(10000 + k % 40 * 25)
                   .arg(std::round(income))
                   .arg(female ? "F" : "M", kAges[age])
                   .arg(weeks)
                   .toUtf8());
  }
}

}  // namespace

class EmployeesWalkthroughTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QVERIFY(settingsDir_.isValid());
    test::isolateSettings(settingsDir_);
  }

  void theEmployeesExample() {
    QTemporaryDir dir;
    const QString data = dir.filePath("employees.csv");
    const QString reference = dir.filePath("employees_2023.csv");
    writeEmployees(data, 600, 1, true);
    writeEmployees(reference, 400, 2, false);  // levels first seen in another order
    const QString session = dir.filePath("employees.dpsynth");
    const QString out = dir.filePath("export");
    test::ErrorRecorder errors;
    test::RefusalRecorder refusals;
    {
      MainWindow window;
      window.setErrorPresenter(errors.presenter());
      window.setRefusalPresenter(refusals.presenter());
      window.synthesis()->autoRunBox()->setChecked(false);
      StudioDocument* doc = window.document();
      // 1. Open: several columns could be the outcome, so none is chosen; id and postcode are
      //    flagged.
      QVERIFY(window.services().data->loadFile(data));
      QVERIFY(doc->settings().dataset.outcome.empty());
      QCOMPARE(doc->idLikeColumns(), (std::vector<std::string>{"id", "postcode"}));
      qInfo(
          "1. open: outcome none chosen; flagged: %s",
          qPrintable(window.synthesis()->dataPanel()->columnRoles()->table()->item(1, 1)->text()));
      // 2. Outcome income (family suggested, then picked), public covariates.
      doc->edit(Field::outcome, std::string("income"));
      QVERIFY(!doc->familyDeclared());
      doc->edit(Field::family, dpsynth::core::models::Family::normal);
      doc->edit(Field::covariates, std::vector<std::string>{"gender", "age_group", "weeks"});
      QVERIFY(doc->dataset());
      const QStringList released =
          window.synthesis()->dataPanel()->columnRoles()->releasedColumns();
      QCOMPARE(released, (QStringList{"income", "gender", "age_group", "weeks"}));
      qInfo("2. roles: the release holds %s", qPrintable(released.join(", ")));
      // 3. A public scale for the normal priors, from public bounds.
      doc->edit(Field::lower, 0.0);
      doc->edit(Field::upper, 80000.0);
      window.synthesis()->dataPanel()->findChild<QToolButton*>("sdScaleFromBounds")->click();
      QCOMPARE(doc->settings().run.model.sdScale, 20000.0);
      qInfo("3. prior scale: %s",
            qPrintable(window.synthesis()->dataPanel()->sdScaleHint()->text()));
      // 4. lw-final, censor-w with the reference (levels in another order: matched), ph.
      test::setMechanisms(window, {pipeline::Mechanism::lwFinal, pipeline::Mechanism::censorW,
                                   pipeline::Mechanism::ph});
      QVERIFY(window.services().data->loadReference(reference, doc->settings().dataset));
      std::string problem;
      QVERIFY2(doc->referenceDataset(&problem), problem.c_str());
      doc->setCurrentMechanism(pipeline::Mechanism::censorW);
      QVERIFY(window.synthesis()->guaranteeBadge()->text().contains("strict DP"));
      qInfo("4. censor-w badge: %s", qPrintable(window.synthesis()->guaranteeBadge()->text()));
      doc->edit(Field::chains, 2);
      doc->edit(Field::warmup, 600);
      doc->edit(Field::draws, 600);
      // 5. Run (a release: the family was declared).
      QSignalSpy ended(window.synthesis(), &SynthesisWorkspace::runEnded);
      QVERIFY(window.synthesis()->startRun(false));
      QVERIFY(test::waitForRun(window, ended, 300000));
      const RunOutput& output = *doc->lastOutput();
      QCOMPARE(output.table.size(), std::size_t(4));
      for (std::size_t j = 0; j < 3; ++j)
        qInfo("5. %s", qPrintable(ExportActions::releaseChoiceText(output, j)));
      // censor-w with reference weights: strict DP, unless this release run's (OS-seeded) fit
      // failed its screen, when it is refused and blocks only itself.
      QVERIFY(output.table[2].guarantee == "DP" || !output.result->mechanisms[1].refusals.empty());
      // 6. Export all, as the dialog offers it: exactly the usable labelled outputs.
      const auto chosen = ExportActions::defaultReleaseChoice(output);
      qInfo("6. export: %s",
            qPrintable(ExportActions::releaseSummary(output, chosen).section("\n\n", 0, 1)));
      window.exportActions()->exportAll(output, out, chosen);
      for (std::size_t j = 0; j < output.result->mechanisms.size(); ++j) {
        const auto& m = output.result->mechanisms[j];
        const QString name = QString::fromStdString(pipeline::mechanismName(m.config.mechanism));
        const bool inRelease =
            QFileInfo::exists(QDir(out).filePath("release/synthetic_" + name + ".csv"));
        const bool wanted =
            std::find(chosen.begin(), chosen.end(), m.config.mechanism) != chosen.end();
        QCOMPARE(inRelease, wanted && m.refusals.empty());
      }
      // 7. Save and quit.
      QVERIFY(window.saveSession(session));
      QVERIFY(!window.isWindowModified());
    }
    // 8. Reopen (as File > Open session does): current results, their warnings, the reference.
    MainWindow reopened;
    reopened.setErrorPresenter(errors.presenter());
    QSignalSpy opened(reopened.sessionController(), &SessionController::opened);
    reopened.sessionController()->openInBackground(session);
    QVERIFY(opened.wait(120000));
    QTRY_VERIFY_WITH_TIMEOUT(reopened.document()->reference().isLoaded(), 60000);
    QTest::qWait(50);
    QVERIFY(reopened.document()->resultsCurrent());
    QVERIFY(!reopened.synthesis()->resultsPanel()->model()->isStale());
    const QString warnings = reopened.findChild<QLabel*>("warningsNote")->text();
    QVERIFY(warnings.contains("session's run"));
    qInfo("8. reopened: %s | warnings: %s",
          qPrintable(reopened.synthesis()->resultsPanel()->note()), qPrintable(warnings));
    QCOMPARE(errors.count(), std::size_t(0));
  }

 private:
  QTemporaryDir settingsDir_;
};

QTEST_MAIN(EmployeesWalkthroughTest)
#include "employees_walkthrough_test.moc"
