#include "ui/widgets/column_roles_view.h"

#include <QComboBox>
#include <QLabel>
#include <QListWidget>
#include <QTableWidget>
#include <QtTest>

#include "core/pipeline/export.h"
#include "ui/document/studio_document.h"
#include "ui/panels/data_panel.h"
#include "ui/services/data_service.h"

using namespace dpsynth::ui;

/// The data panel as a view of a document the data service loads into.
struct RolesRig {
  StudioDocument document;
  DataService data{&document};
  DataPanel panel{&document};
};

class ColumnRolesViewTest : public QObject {
  Q_OBJECT

 private slots:
  void everyColumnIsNotReleasedUntilChosen() {
    RolesRig rig;
    DataPanel& panel = rig.panel;
    QVERIFY(rig.data.loadSample("salary"));
    auto* roles = panel.columnRoles();
    QCOMPARE(roles->table()->rowCount(), 4);  // gender, age_group, weeks_worked, salary
    QCOMPARE(roles->role("salary"), ColumnRole::outcome);
    for (const QString column : {"gender", "age_group", "weeks_worked"})
      QCOMPARE(roles->role(column), ColumnRole::notReleased);
    QCOMPARE(roles->releasedColumns(), QStringList({"salary"}));
    QVERIFY(roles->table()->item(0, 1)->text().contains("not released"));
  }

  void rolesFollowTheChoosers() {
    RolesRig rig;
    DataPanel& panel = rig.panel;
    QVERIFY(rig.data.loadSample("salary"));
    auto* roles = panel.columnRoles();
    // Tick a covariate in the existing chooser: the view follows.
    auto* item = panel.covariateList()->findItems("gender", Qt::MatchExactly).front();
    item->setCheckState(Qt::Checked);
    QCOMPARE(roles->role("gender"), ColumnRole::publicCovariate);
    QCOMPARE(roles->role("age_group"), ColumnRole::notReleased);
    // And the view agrees with what core releases.
    QVERIFY(rig.document.dataset());
    QStringList core;
    for (const auto& c : dpsynth::core::pipeline::releasedColumns(*rig.document.dataset()))
      core << QString::fromStdString(c);
    QCOMPARE(roles->releasedColumns(), core);
    QVERIFY(roles->summary()->text().contains("gender"));
    // Another outcome: the old one is no longer released unless ticked.
    panel.outcomeBox()->setCurrentText("weeks_worked");
    QCOMPARE(roles->role("weeks_worked"), ColumnRole::outcome);
    QCOMPARE(roles->role("salary"), ColumnRole::notReleased);
    QCOMPARE(roles->role("gender"), ColumnRole::publicCovariate);
    // The chooser's items were rebuilt for the new outcome.
    panel.covariateList()
        ->findItems("gender", Qt::MatchExactly)
        .front()
        ->setCheckState(Qt::Unchecked);
    QCOMPARE(roles->role("gender"), ColumnRole::notReleased);
  }
};

QTEST_MAIN(ColumnRolesViewTest)
#include "column_roles_view_test.moc"
