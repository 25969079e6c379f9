#include "ui/panels/data_panel.h"

#include <QComboBox>
#include <QFile>
#include <QListWidget>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include "core/data/sha256.h"
#include "core/utility/utility.h"
#include "studio_test_helpers.h"
#include "ui/models/csv_preview_model.h"
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
using dpsynth::ui::ErrorReport;

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
    DataPanel panel;
    QSignalSpy loaded(&panel, &DataPanel::loaded);
    QSignalSpy errors(&panel, &DataPanel::errorOccurred);
    QVERIFY(panel.loadSample(kind));
    QCOMPARE(loaded.count(), 1);
    QCOMPARE(errors.count(), 0);
    QCOMPARE(panel.previewModel()->rowCount(), std::min(rows, CsvPreviewModel::kPreviewRows));
    QCOMPARE(panel.previewModel()->columnCount(), columns);
    // Row labels are file lines: the first data row is line 2.
    QCOMPARE(panel.previewModel()->headerData(0, Qt::Vertical).toInt(), 2);
    QCOMPARE(panel.outcomeBox()->count(), columns);
    QCOMPARE(panel.outcomeBox()->currentText(), outcome);
    QCOMPARE(int(panel.suggestedFamily()), family);
    QCOMPARE(panel.familyBox()->currentData().toInt(), family);
    QCOMPARE(panel.covariateList()->count(), columns - 1);
    QVERIFY(panel.dataset());
    QCOMPARE(int(panel.dataset()->size()), rows);
    QCOMPARE(panel.source().sample, kind);
    QCOMPARE(panel.source().sha256.size(), std::size_t(64));
  }

  void samplesAreAlsoCompiledIn() {
    DataPanel panel;  // registers the resources
    for (const QString& kind : DataPanel::sampleKinds()) {
      QFile embedded(":/dpsynth/samples/" + kind + ".csv");
      QVERIFY2(embedded.open(QIODevice::ReadOnly), qPrintable(kind));
      QFile disk(dpsynth::ui::test::samplePath(kind));
      QVERIFY(disk.open(QIODevice::ReadOnly));
      QCOMPARE(embedded.readAll(), disk.readAll());
    }
    QVERIFY(QFile::exists(":/dpsynth/icons/run.svg"));
  }

  void summaryShowsTheOutcomeStatistics() {
    DataPanel panel;
    QVERIFY(panel.loadSample("nbmix"));
    const auto& y = panel.dataset()->y;
    const auto& s = panel.summary()->statistics();
    QCOMPARE(s.n, std::size_t(1000));
    QCOMPARE(s.mean, y.sum() / 1000.0);
    double ss = 0;
    for (double v : y) ss += (v - s.mean) * (v - s.mean);
    QVERIFY(std::abs(s.sd - std::sqrt(ss / 999.0)) < 1e-12);
    QCOMPARE(s.min, y.minCoeff());
    QCOMPARE(s.max, y.maxCoeff());
    QCOMPARE(s.median, dpsynth::core::utility::quantile(y, 0.5));
    QVERIFY(panel.summary()->text().contains("n = 1000"));
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
    DataPanel panel;
    QVERIFY(panel.loadSample("nbmix"));
    const auto before = panel.dataset();
    QSignalSpy errors(&panel, &DataPanel::errorOccurred);
    QSignalSpy loaded(&panel, &DataPanel::loaded);
    QVERIFY(!panel.loadFile(dpsynth::ui::test::malformedPath(file)));
    QCOMPARE(errors.count(), 1);
    QCOMPARE(loaded.count(), 0);
    const auto report = errors.first().first().value<ErrorReport>();
    QVERIFY2(report.file.endsWith(file), qPrintable(report.file));
    QCOMPARE(report.line, qint64(line));
    QVERIFY(!report.problem.isEmpty());
    // The previous data is untouched.
    QCOMPARE(panel.dataset(), before);
    QCOMPARE(panel.source().sample, QString("nbmix"));
    QCOMPARE(panel.previewModel()->rowCount(), CsvPreviewModel::kPreviewRows);
    QCOMPARE(panel.outcomeBox()->currentText(), QString("count"));
  }

  void textOutcomeNamesTheColumn() {
    DataPanel panel;
    QSignalSpy errors(&panel, &DataPanel::errorOccurred);
    QVERIFY(!panel.loadFile(dpsynth::ui::test::malformedPath("text_outcome.csv")));
    const auto report = errors.first().first().value<ErrorReport>();
    QCOMPARE(report.column, QString("count"));
    QVERIFY(report.oneLine().contains("text_outcome.csv:4"));
    QVERIFY(!panel.hasData());
  }

  void missingFileIsAnError() {
    DataPanel panel;
    QSignalSpy errors(&panel, &DataPanel::errorOccurred);
    QVERIFY(!panel.loadFile("/nonexistent/dpsynth.csv"));
    QCOMPARE(errors.count(), 1);
  }

  void changingTheOutcomeSuggestsItsFamily() {
    DataPanel panel;
    QVERIFY(panel.loadSample("salary"));
    QSignalSpy changed(&panel, &DataPanel::choiceChanged);
    panel.outcomeBox()->setCurrentText("weeks_worked");
    QVERIFY(changed.count() >= 1);
    QCOMPARE(panel.suggestedFamily(), Family::negbin);
    QCOMPARE(panel.choice().family, Family::negbin);
    QCOMPARE(panel.covariateList()->count(), 3);  // the outcome is not offered as covariate
  }

  void covariatesEnterTheDesign() {
    DataPanel panel;
    QVERIFY(panel.loadSample("salary"));
    for (int i = 0; i < panel.covariateList()->count(); ++i) {
      auto* item = panel.covariateList()->item(i);
      if (item->text() == "gender") item->setCheckState(Qt::Checked);
    }
    QCOMPARE(panel.choice().covariates, std::vector<std::string>{"gender"});
    QVERIFY(panel.dataset());
    QCOMPARE(panel.dataset()->X.cols(), Eigen::Index(2));  // intercept + one dummy
  }

  // ---- Files opened in the window load on the worker thread ------------------------------

  void openFileLoadsOnTheWorkerAndShowsTheTable() {
    QTemporaryDir dir;
    const QString path = dir.filePath("agency.csv");
    writeCsv(path, 5000);
    DataPanel panel;
    QSignalSpy loaded(&panel, &DataPanel::loaded);
    QSignalSpy ended(&panel, &DataPanel::loadEnded);
    QSignalSpy errors(&panel, &DataPanel::errorOccurred);
    panel.openFile(path);
    QVERIFY(panel.isLoading());
    QVERIFY(!panel.hasData());  // nothing is installed before the worker is done
    QVERIFY(ended.wait(60000));
    QCOMPARE(ended.first().at(0).toString(), path);
    QCOMPARE(ended.first().at(1).toBool(), true);
    QCOMPARE(loaded.count(), 1);
    QCOMPARE(errors.count(), 0);
    QVERIFY(!panel.isLoading());
    QCOMPARE(panel.previewModel()->rowCount(), CsvPreviewModel::kPreviewRows);
    QCOMPARE(panel.previewModel()->columnCount(), 4);
    QCOMPARE(panel.previewModel()->data(panel.previewModel()->index(1, 3)).toString(),
             QString("south"));
    QCOMPARE(panel.outcomeBox()->currentText(), QString("income"));  // last numeric column
    QVERIFY(panel.dataset());
    QCOMPARE(panel.dataset()->size(), std::size_t{5000});
    QCOMPARE(panel.source().file, path);
    QCOMPARE(panel.source().displayName, QString("agency.csv"));
    // The checksum is of the file's bytes, as sessions compare it.
    QCOMPARE(QString::fromStdString(panel.source().sha256),
             QString::fromStdString(dpsynth::core::data::sha256File(path.toStdString())));
  }

  void cancelKeepsThePreviousData() {
    QTemporaryDir dir;
    const QString path = dir.filePath("large.csv");
    writeCsv(path, 1000000);  // ~30 MB: far from read when Cancel comes right after the start
    DataPanel panel;
    QVERIFY(panel.loadSample("nbmix"));
    const auto before = panel.dataset();
    QSignalSpy loaded(&panel, &DataPanel::loaded);
    QSignalSpy ended(&panel, &DataPanel::loadEnded);
    QSignalSpy errors(&panel, &DataPanel::errorOccurred);
    panel.openFile(path);
    panel.cancelLoad();
    QVERIFY(ended.wait(60000));
    QCOMPARE(ended.first().at(0).toString(), path);
    QCOMPARE(ended.first().at(1).toBool(), false);
    QCOMPARE(loaded.count(), 0);
    QCOMPARE(errors.count(), 0);
    QCOMPARE(panel.dataset(), before);
    QCOMPARE(panel.source().sample, QString("nbmix"));
    QCOMPARE(panel.outcomeBox()->currentText(), QString("count"));
    QCOMPARE(panel.previewModel()->rowCount(), CsvPreviewModel::kPreviewRows);
  }

  void aMalformedFileShowsTheErrorAndKeepsThePreviousData() {
    DataPanel panel;
    QVERIFY(panel.loadSample("nbmix"));
    const auto before = panel.dataset();
    QSignalSpy errors(&panel, &DataPanel::errorOccurred);
    QSignalSpy ended(&panel, &DataPanel::loadEnded);
    panel.openFile(dpsynth::ui::test::malformedPath("ragged_row.csv"));
    QVERIFY(ended.wait(60000));
    QCOMPARE(ended.first().at(1).toBool(), false);
    QCOMPARE(errors.count(), 1);
    const auto report = errors.first().first().value<ErrorReport>();
    QCOMPARE(report.title, QString("Cannot load data"));
    QVERIFY2(report.file.endsWith("ragged_row.csv"), qPrintable(report.file));
    QCOMPARE(report.line, qint64(3));
    QCOMPARE(panel.dataset(), before);
    QCOMPARE(panel.source().sample, QString("nbmix"));
  }

  void aSynchronousLoadStopsTheOneInProgress() {
    QTemporaryDir dir;
    const QString large = dir.filePath("large.csv");
    writeCsv(large, 1000000);
    DataPanel panel;
    QSignalSpy ended(&panel, &DataPanel::loadEnded);
    panel.openFile(large);
    QVERIFY(panel.loadSample("salary"));  // e.g. a session: wins over the file being read
    QVERIFY(ended.wait(60000));
    QCOMPARE(ended.first().at(1).toBool(), false);
    QCOMPARE(panel.source().sample, QString("salary"));
  }

  void impossibleFamilyShowsAProblemInsteadOfCrashing() {
    DataPanel panel;
    QVERIFY(panel.loadSample("nbmix"));
    panel.familyBox()->setCurrentIndex(panel.familyBox()->findData(int(Family::beta)));
    QVERIFY(!panel.dataset());
    QVERIFY(panel.problem().contains("count"));
    panel.familyBox()->setCurrentIndex(panel.familyBox()->findData(int(Family::poisson)));
    QVERIFY(panel.dataset());
    QVERIFY(panel.problem().isEmpty());
  }
};

QTEST_MAIN(DataPanelTest)
#include "data_panel_test.moc"
