#include "ui/panels/data_panel.h"

#include <QAbstractItemView>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QListWidget>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

#include "core/data/sha256.h"
#include "core/utility/utility.h"
#include "studio_test_helpers.h"
#include "ui/models/csv_preview_model.h"
#include "ui/widgets/column_roles_view.h"
#include "ui/widgets/outcome_summary.h"

using dpsynth::core::models::Family;

namespace {

/// `rows` records "id,age,income,region"; income is the last numeric column.
void writeCsv(const QString& path, int rows) {
  QFile file(path);
  QVERIFY(file.open(QIODevice::WriteOnly));
  static const char* const kRegions[] = {"north", "south", "east", "west"};
  QByteArray text = "id,age,income,region\n";
  for (int i = 0; i < rows; ++i) {
    text += 'P' + QByteArray::number(i) + ',' + QByteArray::number(18 + i % 70) + ',' +
            QByteArray::number(15000 + (i * 37) % 60000) + ".5," + kRegions[i % 4] + '\n';
    if (text.size() > (1 << 20)) {
      file.write(text);
      text.clear();
    }
  }
  file.write(text);
}

}  // namespace
using dpsynth::ui::CsvPreviewModel;
using dpsynth::ui::DataPanel;
using dpsynth::ui::DataService;
using dpsynth::ui::ErrorReport;
using dpsynth::ui::StudioDocument;

/// The panel is a view of a document; the data service loads into it.
struct DataPanelRig {
  StudioDocument document;
  DataService data{&document};
  DataPanel view{&document};
};

class DataPanelTest : public QObject {
  Q_OBJECT

 private slots:
  void loadingASampleFillsPreviewAndChoosers_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("outcome");
    QTest::addColumn<int>("family");
    QTest::addColumn<int>("columns");
    QTest::addColumn<int>("rows");
    QTest::newRow("nbmix") << "nbmix"
                           << "count" << int(Family::negbin) << 1 << 1000;
    QTest::newRow("beta") << "beta"
                          << "value" << int(Family::beta) << 1 << 2000;
    QTest::newRow("poisson") << "poisson"
                             << "count" << int(Family::negbin) << 1 << 1000;
    QTest::newRow("salary") << "salary"
                            << "salary" << int(Family::normal) << 4 << 1000;
  }
  void loadingASampleFillsPreviewAndChoosers() {
    QFETCH(QString, kind);
    QFETCH(QString, outcome);
    QFETCH(int, family);
    QFETCH(int, columns);
    QFETCH(int, rows);
    DataPanelRig panel;
    QSignalSpy loaded(&panel.data, &DataService::dataInstalled);
    QSignalSpy errors(&panel.data, &DataService::errorOccurred);
    QVERIFY(panel.data.loadSample(kind));
    QCOMPARE(loaded.count(), 1);
    QCOMPARE(errors.count(), 0);
    QCOMPARE(panel.view.previewModel()->rowCount(), std::min(rows, CsvPreviewModel::kPreviewRows));
    QCOMPARE(panel.view.previewModel()->columnCount(), columns);
    // Row labels are file lines: the first data row is line 2.
    QCOMPARE(panel.view.previewModel()->headerData(0, Qt::Vertical).toInt(), 2);
    QCOMPARE(panel.view.previewModel()->headerData(0, Qt::Vertical, Qt::ToolTipRole).toString(),
             QString("Line 2 of the file (the header is line 1)"));
    QCOMPARE(panel.view.outcomeBox()->count(), columns);
    QCOMPARE(panel.view.outcomeBox()->currentText(), outcome);
    QCOMPARE(int(panel.document.suggestedFamily()), family);
    QCOMPARE(panel.view.familyBox()->currentData().toInt(), family);
    QCOMPARE(panel.view.covariateList()->count(), columns - 1);
    QVERIFY(panel.document.dataset());
    QCOMPARE(int(panel.document.dataset()->size()), rows);
    QCOMPARE(panel.document.source().sample, kind);
    QCOMPARE(panel.document.source().sha256.size(), std::size_t(64));
  }

  void samplesAreAlsoCompiledIn() {
    DataPanelRig panel;  // registers the resources
    for (const QString& kind : DataService::sampleKinds()) {
      QFile embedded(":/dpsynth/samples/" + kind + ".csv");
      QVERIFY2(embedded.open(QIODevice::ReadOnly), qPrintable(kind));
      QFile disk(dpsynth::ui::test::samplePath(kind));
      QVERIFY(disk.open(QIODevice::ReadOnly));
      QCOMPARE(embedded.readAll(), disk.readAll());
    }
    QVERIFY(QFile::exists(":/dpsynth/icons/run.svg"));
  }

  /// Tab leaves the preview for the next control (it stepped through every cell of it, so a
  /// keyboard user could not reach the choosers below).
  void tabLeavesThePreview() {
    DataPanelRig panel;
    QVERIFY(panel.data.loadSample("nbmix"));
    panel.view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel.view));
    auto* preview = panel.view.findChild<QAbstractItemView*>("dataPreview");
    QVERIFY(preview);
    QVERIFY(!preview->tabKeyNavigation());
    preview->setFocus();
    preview->setCurrentIndex(preview->model()->index(0, 0));
    QTRY_VERIFY(preview->hasFocus());
    QTest::keyClick(preview, Qt::Key_Tab);
    QTRY_VERIFY(!preview->hasFocus());
  }

  void summaryShowsTheOutcomeStatistics() {
    DataPanelRig panel;
    QVERIFY(panel.data.loadSample("nbmix"));
    const auto& y = panel.document.dataset()->y;
    const auto& s = panel.view.summary()->statistics();
    QCOMPARE(s.n, std::size_t(1000));
    QCOMPARE(s.mean, y.sum() / 1000.0);
    double ss = 0;
    for (double v : y) ss += (v - s.mean) * (v - s.mean);
    QVERIFY(std::abs(s.sd - std::sqrt(ss / 999.0)) < 1e-12);
    QCOMPARE(s.min, y.minCoeff());
    QCOMPARE(s.max, y.maxCoeff());
    QCOMPARE(s.median, dpsynth::core::utility::quantile(y, 0.5));
    QVERIFY(panel.view.summary()->text().contains("n = 1000"));
  }

  /// The salary sample brings its public prior scale (its outcome is in the tens of
  /// thousands: at s = 1 the default fit was unusable); the nbmix sample keeps the one set.
  void theSalarySampleSetsItsPublicPriorScale() {
    DataPanelRig panel;
    QVERIFY(panel.data.loadSample("nbmix"));
    QCOMPARE(panel.document.settings().run.model.sdScale, 1.0);
    QSignalSpy installed(&panel.data, &DataService::dataInstalled);
    QVERIFY(panel.data.loadSample("salary"));
    QCOMPARE(panel.document.settings().run.model.sdScale, 10000.0);
    QVERIFY(installed.first().at(1).toStringList().join(" ").contains("public scale"));
  }

  void malformedCsvReportsWhereAndKeepsPreviousData_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("line");
    QTest::newRow("ragged") << "ragged_row.csv" << 3;
    QTest::newRow("text outcome") << "text_outcome.csv" << 4;
    QTest::newRow("binary") << "binary_junk.csv" << 1;
    QTest::newRow("duplicate header") << "duplicate_header.csv" << 1;
    QTest::newRow("latin1") << "latin1_text.csv" << 2;
    QTest::newRow("unclosed quote") << "unclosed_quote.csv" << 3;
  }
  void malformedCsvReportsWhereAndKeepsPreviousData() {
    QFETCH(QString, file);
    QFETCH(int, line);
    DataPanelRig panel;
    QVERIFY(panel.data.loadSample("nbmix"));
    const auto before = panel.document.dataset();
    QSignalSpy errors(&panel.data, &DataService::errorOccurred);
    QSignalSpy loaded(&panel.data, &DataService::dataInstalled);
    QVERIFY(!panel.data.loadFile(dpsynth::ui::test::malformedPath(file)));
    QCOMPARE(errors.count(), 1);
    QCOMPARE(loaded.count(), 0);
    const auto report = errors.first().first().value<ErrorReport>();
    QVERIFY2(report.file.endsWith(file), qPrintable(report.file));
    QCOMPARE(report.line, qint64(line));
    QVERIFY(!report.problem.isEmpty());
    // The previous data is untouched.
    QCOMPARE(panel.document.dataset(), before);
    QCOMPARE(panel.document.source().sample, QString("nbmix"));
    QCOMPARE(panel.view.previewModel()->rowCount(), CsvPreviewModel::kPreviewRows);
    QCOMPARE(panel.view.outcomeBox()->currentText(), QString("count"));
  }

  /// One record: under replace-one (n public) too few to fit, said in the panel; under
  /// add-remove the count is confidential and the data are usable, as `dpsynth run` takes them
  /// (a refusal would tell the database from its neighbour with one record more).
  void oneRecordIsUsableWhereItsCountIsConfidential() {
    QTemporaryDir dir;
    const QString path = dir.filePath("one.csv");
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("count\n7\n");
    file.close();
    DataPanelRig panel;
    QVERIFY(panel.data.loadFile(path));
    QVERIFY(panel.document.hasData());
    QVERIFY(!panel.document.dataset());
    QVERIFY2(panel.document.dataProblem().contains("At least 2"),
             qPrintable(panel.document.dataProblem()));
    auto* problem = panel.view.findChild<QLabel*>("dataProblem");
    QVERIFY(problem);
    QVERIFY(problem->text().contains("At least 2"));
    panel.document.edit(dpsynth::ui::Field::neighbours,
                        dpsynth::core::privacy::Neighbours::addRemove);
    QVERIFY(panel.document.dataset());
    QCOMPARE(panel.document.dataset()->size(), std::size_t{1});
    QVERIFY(problem->text().isEmpty());  // the panel follows the rebuilt data
    panel.document.undoStack()->undo();
    QVERIFY(!panel.document.dataset());
    QVERIFY(problem->text().contains("At least 2"));
    // Opened under add-remove, the load's dataset is the document's.
    panel.document.undoStack()->redo();
    QVERIFY(panel.data.loadFile(path));
    QCOMPARE(panel.document.settings().run.neighbours,
             dpsynth::core::privacy::Neighbours::addRemove);
    QVERIFY(panel.document.dataset());
  }

  /// A header alone is a database of no records: it loads (a refusal at load told it from its
  /// neighbour with one record under add-remove), with no outcome or family suggested from
  /// nothing; under replace-one it cannot run and says so, under add-remove it is usable.
  void aHeaderAloneLoadsAsNoRecords() {
    DataPanelRig panel;
    QSignalSpy errors(&panel.data, &DataService::errorOccurred);
    QVERIFY(panel.data.loadFile(dpsynth::ui::test::malformedPath("header_only.csv")));
    QCOMPARE(errors.count(), 0);
    QVERIFY(panel.document.hasData());
    QVERIFY(panel.document.settings().dataset.outcome.empty());  // two columns could be it
    QVERIFY(panel.document.dataProblem().contains("choose the outcome"));
    auto* suggestion = panel.view.findChild<QLabel*>("familySuggestion");
    QVERIFY(suggestion);
    QCOMPARE(suggestion->text(), QStringLiteral("choose the outcome first"));
    panel.document.edit(dpsynth::ui::Field::outcome, std::string("count"));
    auto* problem = panel.view.findChild<QLabel*>("dataProblem");
    QVERIFY(problem);
    QVERIFY2(problem->text().contains("At least 2"), qPrintable(problem->text()));
    QVERIFY2(suggestion->text().contains("no records suggest"), qPrintable(suggestion->text()));
    panel.document.edit(dpsynth::ui::Field::neighbours,
                        dpsynth::core::privacy::Neighbours::addRemove);
    QVERIFY(panel.document.dataset());
    QCOMPARE(panel.document.dataset()->size(), std::size_t{0});
    QVERIFY(problem->text().isEmpty());
    // A covariate needs records to fit, whatever the relation.
    panel.document.edit(dpsynth::ui::Field::covariates, std::vector<std::string>{"region"});
    QVERIFY(!panel.document.dataset() || !panel.document.dataProblem().isEmpty());
  }

  /// An outcome with no number in it suggests nothing: the panel says so instead of "the
  /// data suggest normal" (normal is only the default then).
  void anOutcomeWithNoNumberSuggestsNoFamily() {
    QTemporaryDir dir;
    const QString path = dir.filePath("empty_outcome.csv");
    {
      QFile f(path);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write("y,age\n,31\nNA,45\n,52\n");
    }
    DataPanelRig panel;
    QVERIFY(panel.data.loadFile(path));
    panel.document.edit(dpsynth::ui::Field::outcome, std::string("y"));
    auto* suggestion = panel.view.findChild<QLabel*>("familySuggestion");
    QVERIFY(suggestion);
    QVERIFY2(suggestion->text().contains("no value of y is a number"),
             qPrintable(suggestion->text()));
    QVERIFY(!suggestion->text().contains("the data suggest"));
    // Declared, the panel still claims no suggestion the values did not make.
    panel.document.edit(dpsynth::ui::Field::family, Family::poisson);
    QVERIFY(panel.document.familyDeclared());
    QCOMPARE(suggestion->text(), QStringLiteral("declared"));
    // Another outcome with numbers suggests from them again.
    panel.document.edit(dpsynth::ui::Field::outcome, std::string("age"));
    QVERIFY2(suggestion->text().contains("the data suggest") || panel.document.familyDeclared(),
             qPrintable(suggestion->text()));
  }

  void textOutcomeNamesTheColumn() {
    DataPanelRig panel;
    QSignalSpy errors(&panel.data, &DataService::errorOccurred);
    QVERIFY(!panel.data.loadFile(dpsynth::ui::test::malformedPath("text_outcome.csv")));
    const auto report = errors.first().first().value<ErrorReport>();
    QCOMPARE(report.column, QString("count"));
    QVERIFY(report.oneLine().contains("text_outcome.csv:4"));
    QVERIFY(!panel.document.hasData());
  }

  void missingFileIsAnError() {
    DataPanelRig panel;
    QSignalSpy errors(&panel.data, &DataService::errorOccurred);
    QVERIFY(!panel.data.loadFile("/nonexistent/dpsynth.csv"));
    QCOMPARE(errors.count(), 1);
  }

  void changingTheOutcomeSuggestsItsFamily() {
    DataPanelRig panel;
    QVERIFY(panel.data.loadSample("salary"));
    QSignalSpy changed(&panel.document, &StudioDocument::changed);
    panel.view.outcomeBox()->setCurrentText("weeks_worked");
    QVERIFY(changed.count() >= 1);
    QCOMPARE(panel.document.suggestedFamily(), Family::negbin);
    QCOMPARE(panel.document.settings().dataset.family, Family::negbin);
    QCOMPARE(panel.view.covariateList()->count(), 3);  // the outcome is not offered as covariate
  }

  void covariatesEnterTheDesign() {
    DataPanelRig panel;
    QVERIFY(panel.data.loadSample("salary"));
    for (int i = 0; i < panel.view.covariateList()->count(); ++i) {
      auto* item = panel.view.covariateList()->item(i);
      if (item->text() == "gender") item->setCheckState(Qt::Checked);
    }
    QCOMPARE(panel.document.settings().dataset.covariates, std::vector<std::string>{"gender"});
    QVERIFY(panel.document.dataset());
    QCOMPARE(panel.document.dataset()->X.cols(), Eigen::Index(2));  // intercept + one dummy
  }

  // ---- Files opened in the window load on the worker thread ------------------------------

  void openFileLoadsOnTheWorkerAndShowsTheTable() {
    QTemporaryDir dir;
    const QString path = dir.filePath("agency.csv");
    writeCsv(path, 5000);
    DataPanelRig panel;
    QSignalSpy loaded(&panel.data, &DataService::dataInstalled);
    QSignalSpy ended(&panel.data, &DataService::loadEnded);
    QSignalSpy errors(&panel.data, &DataService::errorOccurred);
    panel.data.openFile(path);
    QVERIFY(panel.data.isLoading());
    QVERIFY(!panel.document.hasData());  // nothing is installed before the worker is done
    QVERIFY(ended.wait(60000));
    QCOMPARE(ended.first().at(0).toString(), path);
    QCOMPARE(ended.first().at(1).toBool(), true);
    QCOMPARE(loaded.count(), 1);
    QCOMPARE(errors.count(), 0);
    QVERIFY(!panel.data.isLoading());
    QCOMPARE(panel.view.previewModel()->rowCount(), CsvPreviewModel::kPreviewRows);
    QCOMPARE(panel.view.previewModel()->columnCount(), 4);
    QCOMPARE(panel.view.previewModel()->data(panel.view.previewModel()->index(1, 3)).toString(),
             QString("south"));
    // Two numeric columns (age, income) and an identifier: no outcome until one is chosen
    // (issue 23, defect 7), the identifier flagged.
    QCOMPARE(panel.view.outcomeBox()->currentIndex(), -1);
    QVERIFY(!panel.document.dataset());
    QVERIFY(panel.document.dataProblem().contains("outcome"));
    QCOMPARE(panel.document.idLikeColumns(), std::vector<std::string>{"id"});
    QVERIFY(panel.view.columnRoles()->table()->item(0, 1)->text().contains("identifier"));
    panel.view.outcomeBox()->setCurrentText("income");
    QVERIFY(panel.document.dataset());
    QCOMPARE(panel.document.dataset()->size(), std::size_t{5000});
    panel.document.undoStack()->undo();
    QCOMPARE(panel.view.outcomeBox()->currentIndex(), -1);
    QCOMPARE(panel.document.source().file, path);
    QCOMPARE(panel.document.source().displayName, QString("agency.csv"));
    // The checksum is of the file's bytes, as sessions compare it.
    QCOMPARE(QString::fromStdString(panel.document.source().sha256),
             QString::fromStdString(dpsynth::core::data::sha256File(path.toStdString())));
  }

  void cancelKeepsThePreviousData() {
    QTemporaryDir dir;
    const QString path = dir.filePath("large.csv");
    writeCsv(path, 1000000);  // ~30 MB: far from read when Cancel comes right after the start
    DataPanelRig panel;
    QVERIFY(panel.data.loadSample("nbmix"));
    const auto before = panel.document.dataset();
    QSignalSpy loaded(&panel.data, &DataService::dataInstalled);
    QSignalSpy ended(&panel.data, &DataService::loadEnded);
    QSignalSpy errors(&panel.data, &DataService::errorOccurred);
    panel.data.openFile(path);
    panel.data.cancelLoad();
    QVERIFY(ended.wait(60000));
    QCOMPARE(ended.first().at(0).toString(), path);
    QCOMPARE(ended.first().at(1).toBool(), false);
    QCOMPARE(loaded.count(), 0);
    QCOMPARE(errors.count(), 0);
    QCOMPARE(panel.document.dataset(), before);
    QCOMPARE(panel.document.source().sample, QString("nbmix"));
    QCOMPARE(panel.view.outcomeBox()->currentText(), QString("count"));
    QCOMPARE(panel.view.previewModel()->rowCount(), CsvPreviewModel::kPreviewRows);
  }

  void aMalformedFileShowsTheErrorAndKeepsThePreviousData() {
    DataPanelRig panel;
    QVERIFY(panel.data.loadSample("nbmix"));
    const auto before = panel.document.dataset();
    QSignalSpy errors(&panel.data, &DataService::errorOccurred);
    QSignalSpy ended(&panel.data, &DataService::loadEnded);
    panel.data.openFile(dpsynth::ui::test::malformedPath("ragged_row.csv"));
    QVERIFY(ended.wait(60000));
    QCOMPARE(ended.first().at(1).toBool(), false);
    QCOMPARE(errors.count(), 1);
    const auto report = errors.first().first().value<ErrorReport>();
    QCOMPARE(report.title, QString("Cannot load data"));
    QVERIFY2(report.file.endsWith("ragged_row.csv"), qPrintable(report.file));
    QCOMPARE(report.line, qint64(3));
    QCOMPARE(panel.document.dataset(), before);
    QCOMPARE(panel.document.source().sample, QString("nbmix"));
  }

  void aSynchronousLoadStopsTheOneInProgress() {
    QTemporaryDir dir;
    const QString large = dir.filePath("large.csv");
    writeCsv(large, 1000000);
    DataPanelRig panel;
    QSignalSpy ended(&panel.data, &DataService::loadEnded);
    panel.data.openFile(large);
    QVERIFY(panel.data.loadSample("salary"));  // e.g. a session: wins over the file being read
    QVERIFY(ended.wait(60000));
    QCOMPARE(ended.first().at(1).toBool(), false);
    QCOMPARE(panel.document.source().sample, QString("salary"));
  }

  void impossibleFamilyShowsAProblemInsteadOfCrashing() {
    DataPanelRig panel;
    QVERIFY(panel.data.loadSample("nbmix"));
    panel.view.familyBox()->setCurrentIndex(panel.view.familyBox()->findData(int(Family::beta)));
    QVERIFY(!panel.document.dataset());
    QVERIFY(panel.document.dataProblem().contains("count"));
    panel.view.familyBox()->setCurrentIndex(panel.view.familyBox()->findData(int(Family::poisson)));
    QVERIFY(panel.document.dataset());
    QVERIFY(panel.document.dataProblem().isEmpty());
  }
};

QTEST_MAIN(DataPanelTest)
#include "data_panel_test.moc"
