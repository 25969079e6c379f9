// The studio's data panel loads SPSS, Stata and SAS files as it loads a CSV (issue 25): the
// same loader, an outcome guessed among the numeric columns (never a date or a labelled
// category), the labels' levels in the design.
#include <QListWidget>
#include <QSignalSpy>
#include <QTableWidget>
#include <QtTest>

#include "ui/document/column_guess.h"
#include "ui/document/studio_document.h"
#include "ui/panels/data_panel.h"
#include "ui/services/data_service.h"
#include "ui/widgets/column_roles_view.h"

using dpsynth::ui::DataPanel;
using dpsynth::ui::DataService;
using dpsynth::ui::StudioDocument;

namespace {

QString panelSurvey(const QString& extension) {
  return QString(DPSYNTH_SOURCE_DIR) + "/tests/data/formats/survey." + extension;
}

}  // namespace

class StatFileLoadTest : public QObject {
  Q_OBJECT
 private slots:
  void loadsEveryFormat_data() {
    QTest::addColumn<QString>("extension");
    for (const char* e : {"sav", "zsav", "por", "dta", "sas7bdat", "xpt"})
      QTest::newRow(e) << QString(e);
  }
  void loadsEveryFormat() {
    QFETCH(QString, extension);
    StudioDocument document;
    DataService data(&document);
    DataPanel panel(&document);
    QSignalSpy errors(&data, &DataService::errorOccurred);
    QVERIFY(data.loadFile(panelSurvey(extension)));
    QCOMPARE(errors.count(), 0);
    QVERIFY(document.hasData());
    QCOMPARE(document.table()->header.size(), std::size_t{6});
    // Several numeric columns: no outcome until the analyst chooses one (issue 23, defect 7),
    // and "seen" (a date) and the labelled categories are never offered as one.
    QVERIFY(document.settings().dataset.outcome.empty());
    QVERIFY(!document.dataset());
    const auto candidates =
        dpsynth::ui::outcomeCandidates(*document.table(), document.idLikeColumns());
    QStringList offered;
    for (const auto& c : candidates) offered << QString::fromStdString(c).toLower();
    QVERIFY2(offered.contains("income") && !offered.contains("seen"),
             qPrintable(offered.join(',')));
    std::string income;
    for (const auto& c : candidates)
      if (QString::fromStdString(c).toLower() == "income") income = c;
    document.edit(dpsynth::ui::Field::outcome, income);
    QVERIFY(document.dataset());
    QCOMPARE(QString::fromStdString(document.dataset()->outcomeName).toLower(), QString("income"));
    // The column roles show the variable labels.
    QVERIFY(!panel.columnRoles()->table()->isColumnHidden(2));
    QCOMPARE(panel.columnRoles()->table()->item(0, 2)->text(),
             QString("Doctor visits in the last year"));
    QCOMPARE(QString::fromStdString(document.table()->columns[0].description),
             QString("Doctor visits in the last year"));
  }
};

QTEST_MAIN(StatFileLoadTest)
#include "stat_file_load_test.moc"
