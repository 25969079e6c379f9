/// The results table shows the covariate-aware utility columns and marks marginal-only
/// mechanisms (ph) with a tooltip that says they ignore the covariates.
#include "ui/models/results_table_model.h"

#include <QTableView>
#include <QtTest>

using dpsynth::core::report::ResultsRow;
using dpsynth::ui::ResultsTableModel;

namespace {

std::vector<ResultsRow> marginalMarkRows() {
  // Filled in place: copying the rows out of an initializer list makes GCC 12 at -O3 warn
  // (-Wmaybe-uninitialized) inside std::string's copy, a false positive.
  std::vector<ResultsRow> rows(3);
  ResultsRow& conf = rows[0];
  conf.mechanism = "confidential";
  ResultsRow& unweighted = rows[1];
  unweighted.mechanism = "unweighted";
  unweighted.guarantee = "none";
  unweighted.ciOverlap = 0.8;
  unweighted.maxStdDiff = 0.5;
  unweighted.pmse = 0.001;
  unweighted.maxGroupMeanDiff = 0.2;
  ResultsRow& ph = rows[2];
  ph.mechanism = "ph";
  ph.guarantee = "DP";
  ph.marginalOnly = true;
  ph.ciOverlap = -3.5;
  ph.maxStdDiff = 40;
  ph.pmse = 0.05;
  ph.maxGroupMeanDiff = 1.5;
  return rows;
}

}  // namespace

class ResultsTableModelTest : public QObject {
  Q_OBJECT
 private slots:
  void headerHasOneTitlePerColumn() {
    QCOMPARE(ResultsTableModel::displayHeader().size(), int(ResultsTableModel::kColumnCount));
    ResultsTableModel model;
    QCOMPARE(model.headerData(ResultsTableModel::kMarginalOnly, Qt::Horizontal, Qt::ToolTipRole)
                 .toString(),
             ResultsTableModel::marginalOnlyExplanation());
    QVERIFY(ResultsTableModel::marginalOnlyExplanation().contains("ignores the covariates"));
  }

  void marginalOnlyRowsAreMarkedInTheView() {
    ResultsTableModel model;
    model.setResults(marginalMarkRows(), std::vector<QStringList>(2));
    QTableView view;
    view.setModel(&model);
    view.resize(1200, 200);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const auto cell = [&](int row, int column, int role = Qt::DisplayRole) {
      return view.model()->index(row, column).data(role);
    };
    QVERIFY(!model.isMarginalOnly(1));
    QVERIFY(model.isMarginalOnly(2));
    QCOMPARE(cell(2, ResultsTableModel::kMarginalOnly).toString(), QString("marginal only"));
    QCOMPARE(cell(1, ResultsTableModel::kMarginalOnly).toString(), QString("–"));
    QCOMPARE(cell(2, ResultsTableModel::kMechanism, Qt::ToolTipRole).toString(),
             ResultsTableModel::marginalOnlyExplanation());
    QCOMPARE(cell(2, ResultsTableModel::kMarginalOnly, Qt::ToolTipRole).toString(),
             ResultsTableModel::marginalOnlyExplanation());
    QCOMPARE(cell(2, ResultsTableModel::kMaxEcdf, Qt::ToolTipRole).toString(),
             ResultsTableModel::marginalOnlyExplanation());
    QVERIFY(cell(1, ResultsTableModel::kMechanism, Qt::ToolTipRole).toString().isEmpty());
    QVERIFY(cell(2, ResultsTableModel::kMarginalOnly, Qt::ForegroundRole).isValid());
    // The mark is drawn: the column is not hidden and has width.
    QVERIFY(!view.isColumnHidden(ResultsTableModel::kMarginalOnly));
    QVERIFY(view.columnWidth(ResultsTableModel::kMarginalOnly) > 0);

    // The covariate measures, exact under UserRole and n/a for "confidential".
    QCOMPARE(cell(2, ResultsTableModel::kCiOverlap, Qt::UserRole).toDouble(), -3.5);
    QCOMPARE(cell(2, ResultsTableModel::kMaxStdDiff, Qt::UserRole).toDouble(), 40.0);
    QCOMPARE(cell(2, ResultsTableModel::kPmse, Qt::UserRole).toDouble(), 0.05);
    QCOMPARE(cell(2, ResultsTableModel::kMaxGroupMeanDiff, Qt::UserRole).toDouble(), 1.5);
    QCOMPARE(cell(0, ResultsTableModel::kCiOverlap).toString(), QString("–"));

    // Copy/export carry the new CSV columns at the end.
    const QString csv = QString::fromStdString(model.toCsv());
    QVERIFY(
        csv.startsWith("mechanism,guarantee,lipschitz,epsilon,censored,truncated,max_ecdf,"
                       "avg_ecdf,mean,median,q15,q90,marginal_only,ci_overlap,max_std_diff,"
                       "pmse,max_group_mean_diff,replicated_uniques,attribute_cap,"
                       "attribute_cap_baseline,dcr_share\n"));
    QVERIFY(csv.contains("\nph,DP,,,,,,,0,0,0,0,true,-3.5,40,0.05,1.5,,,,\n"));
  }
};

QTEST_MAIN(ResultsTableModelTest)
#include "results_table_model_test.moc"
