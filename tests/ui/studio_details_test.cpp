/// The small things an analyst trips over (issue 23, defect 7), each checked where it shows.
#include <qcustomplot.h>

#include <QAction>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTabWidget>
#include <QToolButton>
#include <QWheelEvent>
#include <QtTest>

#include "studio_test_helpers.h"
#include "ui/dialogs/folder_dialog.h"
#include "ui/models/results_table_model.h"
#include "ui/panels/data_panel.h"
#include "ui/panels/progress_panel.h"
#include "ui/panels/results_panel.h"
#include "ui/panels/tuning_panel.h"
#include "ui/panels/warnings_panel.h"
#include "ui/plots/plot_widget.h"
#include "ui/widgets/tuning_field.h"

using namespace dpsynth::ui;
namespace pipeline = dpsynth::core::pipeline;

namespace {

bool runDetails(MainWindow& window) {
  QSignalSpy ended(window.synthesis(), &SynthesisWorkspace::runEnded);
  if (!window.synthesis()->startRun(false)) return false;
  return test::waitForRun(window, ended);
}

}  // namespace

class StudioDetailsTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QVERIFY(settingsDir_.isValid());
    test::isolateSettings(settingsDir_);
  }

  void autoBinsShowTheValueUsed() {
    MainWindow window;
    window.loadDefaults();  // nbmix: 1000 records
    TuningField* bins = window.synthesis()->tuningPanel()->field("bins");
    QVERIFY(bins->autoBox()->isChecked());
    QCOMPARE(bins->spinBox()->value(), 32.0);             // ⌈√1000⌉, not a placeholder
    QVERIFY(window.services().data->loadSample("beta"));  // 2000 records
    QCOMPARE(bins->spinBox()->value(), 45.0);
  }

  void theNoteCountsTheWarningsTheTabLists_andPhIsAStage() {
    test::ErrorRecorder errors;
    MainWindow window;
    window.setErrorPresenter(errors.presenter());
    window.setRefusalPresenter([](const RefusalReport&) {});
    window.synthesis()->autoRunBox()->setChecked(false);
    window.loadDefaults();
    test::useSmallSampler(window, 2, 150, 150);
    window.document()->edit(Field::lower, 0.0);
    window.document()->edit(Field::upper, 300.0);
    test::setMechanisms(window, {pipeline::Mechanism::lw, pipeline::Mechanism::ph});
    QVERIFY(runDetails(window));
    const int listed = window.synthesis()->warningsPanel()->count();
    QVERIFY(listed > 0);
    const QString note = window.synthesis()->resultsPanel()->note();
    QVERIFY2(note.contains(QStringLiteral("%1 warning(s)").arg(listed)), qPrintable(note));
    QVERIFY(window.synthesis()->bottomTabs()->tabText(1).contains(QString::number(listed)));
    // ph samples nothing, yet it is in the stage list.
    QStringList rows;
    for (auto* label : window.synthesis()->progressPanel()->findChildren<QLabel*>())
      rows << label->text();
    QVERIFY2(rows.join('\n').contains(QStringLiteral("ph · noisy histogram")),
             qPrintable(rows.join('\n')));
  }

  void allTruncatedIsNotAZeroEpsilon() {
    ResultsTableModel model;
    dpsynth::core::report::ResultsRow confidential, truncated;
    confidential.mechanism = "confidential";
    truncated.mechanism = "weighted-e";
    truncated.guarantee = "aDP";
    truncated.lipschitz = 0.0;
    truncated.epsilon = 0.0;
    truncated.truncated = 600;
    truncated.usable = false;
    model.setResults({confidential, truncated}, {{}, {}});
    const auto shown = [&model](int column) {
      return model.data(model.index(1, column), Qt::DisplayRole).toString();
    };
    QVERIFY(shown(ResultsTableModel::kLipschitz).contains("truncated"));
    QVERIFY(shown(ResultsTableModel::kEpsilon).contains("truncated"));
    QVERIFY(model.data(model.index(1, ResultsTableModel::kEpsilon), Qt::ToolTipRole)
                .toString()
                .contains("nothing was fitted"));
  }

  void manyColumnsCanBeFiltered() {
    QTemporaryDir dir;
    QFile file(dir.filePath("wide.csv"));
    QVERIFY(file.open(QIODevice::WriteOnly));
    QStringList header{"y"};
    for (int c = 0; c < 30; ++c)
      header << QStringLiteral("%1_%2").arg(c % 2 ? "age" : "region").arg(c);
    file.write(header.join(',').toUtf8() + '\n');
    for (int r = 0; r < 40; ++r) {
      QStringList row{QString::number(r % 9)};
      for (int c = 0; c < 30; ++c) row << QString::number((r + c) % 4);
      file.write(row.join(',').toUtf8() + '\n');
    }
    file.close();
    MainWindow window;
    QVERIFY(window.services().data->loadFile(file.fileName()));
    window.document()->edit(Field::outcome, std::string("y"));
    DataPanel* panel = window.synthesis()->dataPanel();
    QVERIFY(!panel->covariateFilter()->isHidden());
    panel->covariateFilter()->setText("region");
    int shown = 0;
    for (int i = 0; i < panel->covariateList()->count(); ++i)
      shown += panel->covariateList()->item(i)->isHidden() ? 0 : 1;
    QCOMPARE(shown, 15);
    // A tick through the filtered list is an undoable edit like any other.
    panel->covariateList()->item(0)->setCheckState(Qt::Checked);
    QCOMPARE(window.document()->settings().dataset.covariates.size(), std::size_t(1));
    window.document()->undoStack()->undo();
    QVERIFY(window.document()->settings().dataset.covariates.empty());
  }

  void theNormalScaleSaysWhatToDo() {
    MainWindow window;
    QVERIFY(window.services().data->loadSample("salary"));
    window.document()->edit(Field::family, dpsynth::core::models::Family::normal);
    DataPanel* panel = window.synthesis()->dataPanel();
    QVERIFY(!panel->sdScaleHint()->isHidden());
    QVERIFY(panel->sdScaleHint()->text().contains("never from the confidential"));
    // Public bounds give a suggestion, one click away (an undoable edit).
    window.document()->edit(Field::lower, 0.0);
    window.document()->edit(Field::upper, 200000.0);
    QVERIFY(panel->sdScaleHint()->text().contains("50000"));
    auto* use = panel->findChild<QToolButton*>(QStringLiteral("sdScaleFromBounds"));
    QVERIFY(use && !use->isHidden());
    use->click();
    QCOMPARE(window.document()->settings().run.model.sdScale, 50000.0);
  }

  void sessionsAreRecentFilesToo() {
    QTemporaryDir dir;
    const QString path = dir.filePath("recent.dpsynth");
    MainWindow window;
    window.loadDefaults();
    QVERIFY(window.saveSession(path));
    QVERIFY(AppSettings().recentFiles().contains(path));
    QStringList recent;
    for (QAction* a : window.menuBar()->findChildren<QAction*>())
      if (a->menu() && a->text().contains("recent"))
        for (QAction* item : a->menu()->actions()) recent << item->toolTip();
    QVERIFY2(recent.contains(path), qPrintable(recent.join(',')));
  }

  void aNewExportFolderIsMadeNotRefused() {
    QTemporaryDir dir;
    const QString wanted = dir.filePath("export-2026");
    OutputFolderDialog dialog(nullptr, QStringLiteral("Export"), dir.path());
    dialog.selectFile(wanted);
    dialog.accept();
    QCOMPARE(dialog.result(), int(QDialog::Accepted));
    QVERIFY(QFileInfo(wanted).isDir());
    QCOMPARE(QFileInfo(dialog.selectedFiles().value(0)).absoluteFilePath(),
             QFileInfo(wanted).absoluteFilePath());
  }

  void theWheelOverAPlotScrollsThePane() {
    QScrollArea area;
    auto* inner = new QWidget;
    auto* layout = new QVBoxLayout(inner);
    auto* plot = new PlotWidget;
    plot->setMinimumHeight(300);
    layout->addWidget(new QLabel("above"));
    layout->addWidget(plot);
    for (int i = 0; i < 30; ++i) layout->addWidget(new QLabel("below"));
    area.setWidget(inner);
    area.resize(400, 300);
    area.show();
    QVERIFY(QTest::qWaitForWindowExposed(&area));
    const QCPRange before = plot->customPlot()->xAxis->range();
    QWidget* target = plot->customPlot();
    const QPointF centre = QRectF(target->rect()).center();
    QWheelEvent down(centre, target->mapToGlobal(centre), QPoint(), QPoint(0, -120), Qt::NoButton,
                     Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(target, &down);
    QVERIFY(area.verticalScrollBar()->value() > 0);                    // the pane scrolled
    QCOMPARE(plot->customPlot()->xAxis->range().lower, before.lower);  // the plot did not zoom
  }

 private:
  QTemporaryDir settingsDir_;
};

QTEST_MAIN(StudioDetailsTest)
#include "studio_details_test.moc"
