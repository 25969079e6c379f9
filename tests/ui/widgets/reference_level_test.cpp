/// Issue 25's studio choice: the reference level of a categorical covariate, picked in the column
/// roles, is one typed document edit (undo and redo), changes the design the run uses, leaves
/// with its covariate, and is saved in and restored from the session.
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QListWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

#include "core/session/session.h"
#include "tests/ui/studio_test_helpers.h"
#include "ui/main_window.h"
#include "ui/panels/data_panel.h"
#include "ui/services/data_service.h"
#include "ui/widgets/column_roles_view.h"
#include "ui/workspaces/synthesis/synthesis_workspace.h"

using namespace dpsynth::ui;

namespace {

bool hasDesignColumn(const StudioDocument& document, const std::string& name) {
  const auto dataset = document.dataset();
  if (!dataset) return false;
  const auto& names = dataset->designNames;
  return std::find(names.begin(), names.end(), name) != names.end();
}

/// Picks `level` in a chooser as a user does (activated, not a programmatic index change).
void pick(QComboBox* box, const QString& level) {
  const int index = box->findData(level);
  QVERIFY2(index >= 0, qPrintable(level));
  box->setCurrentIndex(index);
  emit box->activated(index);
}

}  // namespace

class ReferenceLevelTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QVERIFY(settingsDir_.isValid());
    test::isolateSettings(settingsDir_);
  }

  void theReferenceIsATypedEditSavedInTheSession() {
    QTemporaryDir dir;
    MainWindow window;
    window.setErrorPresenter(errors_.presenter());
    StudioDocument* document = window.document();
    DataPanel* panel = window.synthesis()->dataPanel();
    ColumnRolesView* roles = panel->columnRoles();
    QVERIFY(window.services().data->loadSample("salary"));
    QVERIFY(!roles->referenceChooser("gender"));  // not a covariate yet
    QVERIFY(roles->table()->isColumnHidden(ColumnRolesView::kReference));

    panel->covariateList()
        ->findItems("gender", Qt::MatchExactly)
        .front()
        ->setCheckState(Qt::Checked);
    QComboBox* gender = roles->referenceChooser("gender");
    QVERIFY(gender);
    QVERIFY(!roles->table()->isColumnHidden(ColumnRolesView::kReference));
    // Sorted order, the first level the default: F is the reference, M has the dummy.
    QCOMPARE(gender->count(), 2);
    QCOMPARE(gender->currentData().toString(), QStringLiteral("F"));
    QVERIFY(gender->currentText().contains(QLatin1String("first")));
    QVERIFY(hasDesignColumn(*document, "gender=M"));
    const int steps = document->undoStack()->count();

    pick(gender, QStringLiteral("M"));
    QCOMPARE(document->settings().dataset.referenceLevels,
             (std::map<std::string, std::string>{{"gender", "M"}}));
    QVERIFY(hasDesignColumn(*document, "gender=F"));
    QVERIFY(!hasDesignColumn(*document, "gender=M"));
    QCOMPARE(document->undoStack()->count(), steps + 1);
    QVERIFY(document->undoStack()->undoText().contains(QLatin1String("gender")));
    QCOMPARE(roles->referenceChooser("gender")->currentData().toString(), QStringLiteral("M"));

    document->undoStack()->undo();
    QVERIFY(document->settings().dataset.referenceLevels.empty());
    QVERIFY(hasDesignColumn(*document, "gender=M"));
    QCOMPARE(roles->referenceChooser("gender")->currentData().toString(), QStringLiteral("F"));
    document->undoStack()->redo();
    QCOMPARE(roles->referenceChooser("gender")->currentData().toString(), QStringLiteral("M"));

    // Choosing the first level again is the default: the session names no reference for it.
    pick(roles->referenceChooser("gender"), QStringLiteral("F"));
    QVERIFY(document->settings().dataset.referenceLevels.empty());
    pick(roles->referenceChooser("gender"), QStringLiteral("M"));

    // Saved in the session and back when it is opened.
    const QString path = QDir(dir.path()).filePath(QStringLiteral("reference.dpsynth"));
    QVERIFY(window.saveSession(path));
    // For a look at the choice on screen: dpsynth-studio --session <dir>/reference.dpsynth.
    if (const QString shots = qEnvironmentVariable("DPSYNTH_SCREENSHOT_DIR"); !shots.isEmpty())
      QFile::copy(path, QDir(shots).filePath(QStringLiteral("reference.dpsynth")));
    const auto saved = dpsynth::core::session::loadSession(path.toStdString());
    QCOMPARE(saved.dataset.referenceLevels, (std::map<std::string, std::string>{{"gender", "M"}}));
    {
      MainWindow reopened;
      reopened.setErrorPresenter(errors_.presenter());
      QVERIFY(reopened.openSession(path));
      QCOMPARE(reopened.document()->settings().dataset.referenceLevels,
               (std::map<std::string, std::string>{{"gender", "M"}}));
      QComboBox* shown =
          reopened.synthesis()->dataPanel()->columnRoles()->referenceChooser("gender");
      QVERIFY(shown);
      QCOMPARE(shown->currentData().toString(), QStringLiteral("M"));
      QVERIFY(hasDesignColumn(*reopened.document(), "gender=F"));
      QVERIFY(!reopened.document()->isModified());
    }

    // Unticking the covariate takes its reference with it, in the same undo step.
    const int before = document->undoStack()->count();
    panel->covariateList()
        ->findItems("gender", Qt::MatchExactly)
        .front()
        ->setCheckState(Qt::Unchecked);
    QVERIFY(document->settings().dataset.referenceLevels.empty());
    QVERIFY(document->dataProblem().isEmpty());
    QCOMPARE(document->undoStack()->count(), before + 1);
    document->undoStack()->undo();
    QCOMPARE(document->settings().dataset.referenceLevels,
             (std::map<std::string, std::string>{{"gender", "M"}}));

    // A reference the data do not hold (a session made on other data): the problem is said,
    // the chooser shows it as such and still offers the data's levels, and a pick mends it;
    // the other covariate's choice stays shown.
    panel->covariateList()
        ->findItems("age_group", Qt::MatchExactly)
        .front()
        ->setCheckState(Qt::Checked);
    document->edit(Field::referenceLevels,
                   ReferenceLevels{{"gender", "X"}, {"age_group", "35-49"}});
    QVERIFY(!document->dataset());
    QVERIFY2(document->dataProblem().contains(QLatin1String("'X'")),
             qPrintable(document->dataProblem()));
    QComboBox* mend = roles->referenceChooser("gender");
    QVERIFY(mend);
    QCOMPARE(mend->currentData().toString(), QStringLiteral("X"));
    QVERIFY(mend->currentText().contains(QLatin1String("not in the data")));
    QCOMPARE(roles->referenceChooser("age_group")->currentData().toString(),
             QStringLiteral("35-49"));
    pick(mend, QStringLiteral("F"));
    QVERIFY(document->dataset());
    QCOMPARE(document->settings().dataset.referenceLevels,
             (std::map<std::string, std::string>{{"age_group", "35-49"}}));
    QVERIFY(hasDesignColumn(*document, "age_group=16-24"));
    QCOMPARE(errors_.count(), std::size_t(0));
  }

 private:
  QTemporaryDir settingsDir_;
  test::ErrorRecorder errors_;
};

QTEST_MAIN(ReferenceLevelTest)
#include "reference_level_test.moc"
