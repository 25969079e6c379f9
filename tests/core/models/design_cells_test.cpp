/// The cells of a regression design (design_cells.h): which columns join, the patterns'
/// order, and that reordering keeps every record's outcome, design row and weight.
#include "core/models/design_cells.h"

#include <QtTest>
#include <set>
#include <vector>

#include "core/random/rng.h"

using namespace dpsynth::core;
using models::DesignCells;
using models::RecordGroups;

namespace {

/// n records: intercept, the dummies of a 4-level and a 3-level factor, one continuous column
/// and one numeric column of 0/1/2 (not an indicator); outcomes 0..5.
struct Records {
  Eigen::VectorXd y;
  Eigen::MatrixXd X;
};
Records survey(int n, std::uint64_t seed) {
  auto rng = random::makeRng(seed, 0);
  Records r{Eigen::VectorXd(n), Eigen::MatrixXd::Zero(n, 8)};
  for (int i = 0; i < n; ++i) {
    r.X(i, 0) = 1.0;
    const int region = static_cast<int>(random::uniform01(rng) * 4);
    if (region > 0) r.X(i, region) = 1.0;  // columns 1-3
    const int sector = static_cast<int>(random::uniform01(rng) * 3);
    if (sector > 0) r.X(i, 3 + sector) = 1.0;  // columns 4-5
    r.X(i, 6) = 20.0 + 45.0 * random::uniform01(rng);
    r.X(i, 7) = static_cast<double>(static_cast<int>(random::uniform01(rng) * 3));
    r.y[i] = static_cast<double>(static_cast<int>(random::uniform01(rng) * 6));
  }
  return r;
}

/// Every record still finds its own outcome and design row; the weights per pattern add up to
/// the records' α; terms are sorted by pattern and name active patterns.
void checkGroups(const Records& r, const std::vector<double>& alpha, const RecordGroups& g) {
  Eigen::VectorXd weight = Eigen::VectorXd::Zero(g.y.size());
  for (Eigen::Index i = 0; i < r.y.size(); ++i) {
    const auto p = static_cast<Eigen::Index>(g.recordPattern[static_cast<std::size_t>(i)]);
    QCOMPARE(g.y[p], r.y[i]);
    QVERIFY(g.X.row(p) == r.X.row(i));
    weight[p] += alpha.empty() ? 1.0 : alpha[static_cast<std::size_t>(i)];
  }
  QVERIFY((weight - g.weight).cwiseAbs().maxCoeff() < 1e-12);
  for (std::size_t p = 0; p < g.patterns(); ++p) {
    QCOMPARE(g.weight[static_cast<Eigen::Index>(p)] > 0.0, p < g.active);
  }
  for (std::size_t t = 0; t < g.terms.size(); ++t) {
    QVERIFY(g.terms[t].pattern < g.active);
    if (t > 0) QVERIFY(g.terms[t - 1].pattern <= g.terms[t].pattern);
  }
}

/// Cells partition the patterns, each holds patterns equal in the cell columns (its values),
/// and no cell holds both active and inactive patterns.
void checkCells(const RecordGroups& g, const DesignCells& cells) {
  QCOMPARE(cells.start.front(), std::ptrdiff_t(0));
  QCOMPARE(cells.start.back(), static_cast<std::ptrdiff_t>(g.patterns()));
  const auto m = cells.cellColumns.size();
  QCOMPARE(cells.values.size(), static_cast<std::size_t>(cells.cells()) * m);
  QCOMPARE(m + cells.readColumns.size(), static_cast<std::size_t>(g.X.cols()));
  for (int c = 0; c < cells.cells(); ++c) {
    const auto begin = cells.start[static_cast<std::size_t>(c)];
    const auto end = cells.start[static_cast<std::size_t>(c) + 1];
    QVERIFY(begin < end);
    QVERIFY(static_cast<std::size_t>(begin) >= g.active ||
            static_cast<std::size_t>(end) <= g.active);
    for (auto p = begin; p < end; ++p) {
      for (std::size_t i = 0; i < m; ++i) {
        QCOMPARE(g.X(p, cells.cellColumns[i]), cells.values[static_cast<std::size_t>(c) * m + i]);
      }
    }
  }
}

}  // namespace

class DesignCellsTest : public QObject {
  Q_OBJECT

 private slots:
  /// 1500 records: the budget (23 cells) takes both factors' dummies (12 cells); the
  /// continuous and the 0/1/2 columns are read per record.
  void indicatorsJoinWithinTheBudget() {
    const Records r = survey(1500, 1);
    RecordGroups g = models::groupRecords(r.y, r.X, {}, {}, /*withTerms=*/false);
    const DesignCells cells = models::orderByCells(g);
    QCOMPARE(cells.cellColumns, (std::vector<int>{0, 1, 2, 3, 4, 5}));
    QCOMPARE(cells.readColumns, (std::vector<int>{6, 7}));
    QCOMPARE(cells.cells(), 12);
    checkGroups(r, {}, g);
    checkCells(g, cells);
  }

  /// 300 records: a budget of 4 cells. The first region dummy makes 2 cells, the second 3; the
  /// third would make 4 (it joins), and then no sector dummy fits (8 > 4).
  void indicatorsBeyondTheBudgetAreRead() {
    const Records r = survey(300, 2);
    RecordGroups g = models::groupRecords(r.y, r.X, {}, {}, false);
    const DesignCells cells = models::orderByCells(g);
    QCOMPARE(cells.cellColumns, (std::vector<int>{0, 1, 2, 3}));
    QCOMPARE(cells.readColumns, (std::vector<int>{4, 5, 6, 7}));
    QCOMPARE(cells.cells(), 4);
    checkCells(g, cells);
  }

  /// With α = 0 for some records the inactive patterns stay last, in cells of their own, and
  /// the censored likelihood's terms follow their patterns.
  void inactivePatternsStayLast() {
    const Records r = survey(2000, 3);
    auto rng = random::makeRng(4, 0);
    std::vector<double> alpha(2000);
    for (double& a : alpha) a = random::uniform01(rng) < 0.2 ? 0.0 : random::uniform01(rng);
    RecordGroups g = models::groupRecords(r.y, r.X, alpha, {}, /*withTerms=*/true);
    const std::size_t active = g.active;
    QVERIFY(active > 0 && active < g.patterns());
    const DesignCells cells = models::orderByCells(g);
    QCOMPARE(g.active, active);
    QVERIFY(cells.cells() > 12);  // the inactive patterns' cells come after the active ones'
    checkGroups(r, alpha, g);
    checkCells(g, cells);
  }

  /// Only constant columns: one cell, and the patterns keep their order.
  void continuousDesignIsOneCell() {
    Records r = survey(500, 5);
    const Eigen::MatrixXd X = r.X(Eigen::all, std::vector<Eigen::Index>{0, 6});
    RecordGroups g = models::groupRecords(r.y, X, {}, {}, false);
    const Eigen::MatrixXd before = g.X;
    const DesignCells cells = models::orderByCells(g);
    QCOMPARE(cells.cells(), 1);
    QCOMPARE(cells.cellColumns, std::vector<int>{0});
    QVERIFY(g.X == before);
  }
};

QTEST_APPLESS_MAIN(DesignCellsTest)
#include "design_cells_test.moc"
