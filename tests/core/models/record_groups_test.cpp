#include "core/models/record_groups.h"

#include <QtTest>
#include <map>
#include <set>
#include <tuple>
#include <vector>

#include "support/model_fixtures.h"

using namespace dpsynth::core::models;
using dpsynth::test::vec;

class RecordGroupsTest : public QObject {
  Q_OBJECT

 private slots:
  void mergesIdenticalRecords() {
    // Records 0, 2, 5 share (y, x); 1 and 4 share y but not x; 3 is alone.
    const Eigen::VectorXd y = vec({3, 3, 3, 7, 3, 3});
    Eigen::MatrixXd X(6, 2);
    X << 1, 0, 1, 1, 1, 0, 1, 0, 1, 2, 1, 0;
    const std::vector<double> alpha{1.0, 0.5, 0.25, 0.0, 0.5, 1.0};
    const RecordGroups g = groupRecords(y, X, alpha);
    QCOMPARE(g.patterns(), std::size_t(4));
    QCOMPARE(g.recordPattern[0], g.recordPattern[2]);
    QCOMPARE(g.recordPattern[0], g.recordPattern[5]);
    QVERIFY(g.recordPattern[1] != g.recordPattern[4]);
    // Every record maps to a pattern with its own outcome and design row.
    for (Eigen::Index i = 0; i < 6; ++i) {
      const auto p = Eigen::Index(g.recordPattern[std::size_t(i)]);
      QCOMPARE(g.y[p], y[i]);
      QVERIFY(g.X.row(p) == X.row(i));
    }
    QCOMPARE(g.weight[Eigen::Index(g.recordPattern[0])], 2.25);
    // The record with α = 0 forms the only inactive pattern, placed last.
    QCOMPARE(g.active, std::size_t(3));
    QCOMPARE(g.recordPattern[3], std::size_t(3));
    QCOMPARE(g.weight[3], 0.0);
    // Terms: distinct (pattern, α) with α > 0: {p0: 1.0 ×2, 0.25 ×1}, {p1: 0.5}, {p4: 0.5}.
    QCOMPARE(g.terms.size(), std::size_t(4));
    double counted = 0.0;
    for (const auto& t : g.terms) {
      QVERIFY(t.pattern < g.active);
      QVERIFY(t.alpha > 0.0);
      counted += t.count;
      if (t.pattern == g.recordPattern[0] && t.alpha == 1.0) QCOMPARE(t.count, 2.0);
    }
    QCOMPARE(counted, 5.0);
  }

  void emptyAlphaMeansOnes() {
    const RecordGroups g = groupRecords(vec({1, 2, 1, 1}), Eigen::MatrixXd::Ones(4, 1), {});
    QCOMPARE(g.patterns(), std::size_t(2));
    QCOMPARE(g.active, std::size_t(2));
    QCOMPARE(g.weight.sum(), 4.0);
    QCOMPARE(g.terms.size(), std::size_t(2));
  }

  /// Without terms (an unclamped likelihood) the patterns, weights and record map are the same
  /// and no term is kept.
  void withoutTermsKeepsThePatterns() {
    const Eigen::VectorXd y = vec({3, 3, 3, 7, 3, 3});
    Eigen::MatrixXd X(6, 2);
    X << 1, 0, 1, 1, 1, 0, 1, 0, 1, 2, 1, 0;
    const std::vector<double> alpha{1.0, 0.5, 0.25, 0.0, 0.5, 1.0};
    const RecordGroups all = groupRecords(y, X, alpha);
    const RecordGroups bare = groupRecords(y, X, alpha, {}, /*withTerms=*/false);
    QVERIFY(!all.terms.empty());
    QVERIFY(bare.terms.empty());
    QVERIFY(bare.y == all.y);
    QVERIFY(bare.X == all.X);
    QVERIFY(bare.weight == all.weight);
    QCOMPARE(bare.active, all.active);
    QVERIFY(bare.recordPattern == all.recordPattern);
  }

  /// Intercept-only counts: the number of patterns is the number of distinct values.
  void countsCollapseToDistinctValues() {
    const auto d = dpsynth::test::fixtureDataset(Family::negbin, 1000, 0, 3);
    const RecordGroups g = groupRecords(d.y, d.X, {});
    const std::set<double> distinct(d.y.data(), d.y.data() + d.y.size());
    QCOMPARE(g.patterns(), distinct.size());
    QVERIFY(g.patterns() < 150);
    QCOMPARE(g.weight.sum(), 1000.0);
  }
};

QTEST_APPLESS_MAIN(RecordGroupsTest)
#include "record_groups_test.moc"
