#include "core/utility/utility.h"

#include <QtTest>
#include <cmath>
#include <limits>
#include <stdexcept>

using namespace dpsynth::core::utility;

namespace {

Eigen::VectorXd vec(std::initializer_list<double> values) {
  Eigen::VectorXd v(static_cast<Eigen::Index>(values.size()));
  Eigen::Index i = 0;
  for (double x : values) v[i++] = x;
  return v;
}

}  // namespace

class UtilityTest : public QObject {
  Q_OBJECT

 private slots:
  void quantileMatchesRType7() {
    // R: quantile(c(1,2,3,4,10), c(.15,.5,.9)) -> 1.6 3.0 7.6 (given unsorted here).
    const Eigen::VectorXd x = vec({10, 3, 1, 4, 2});
    QVERIFY(std::abs(quantile(x, 0.15) - 1.6) < 1e-12);
    QVERIFY(std::abs(quantile(x, 0.5) - 3.0) < 1e-12);
    QVERIFY(std::abs(quantile(x, 0.9) - 7.6) < 1e-12);
    QCOMPARE(quantile(x, 0.0), 1.0);
    QCOMPARE(quantile(x, 1.0), 10.0);
    // R: quantile(c(2.5,-1,7,7), c(.15,.5,.9)) -> 0.575 4.750 7.000
    const Eigen::VectorXd z = vec({2.5, -1, 7, 7});
    QVERIFY(std::abs(quantile(z, 0.15) - 0.575) < 1e-12);
    QVERIFY(std::abs(quantile(z, 0.5) - 4.75) < 1e-12);
    QVERIFY(std::abs(quantile(z, 0.9) - 7.0) < 1e-12);
    QCOMPARE(quantile(vec({5}), 0.37), 5.0);
    QVERIFY(std::abs(quantileSorted({1, 2, 3, 4, 10}, 0.15) - 1.6) < 1e-12);
  }

  void quantileRejectsBadInput() {
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, quantile(Eigen::VectorXd(), 0.5));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, quantile(vec({1, 2}), 1.5));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, quantile(vec({1, 2}), -0.1));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             quantile(vec({1, 2}), std::numeric_limits<double>::quiet_NaN()));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             quantile(vec({1, std::numeric_limits<double>::quiet_NaN()}), 0.5));
  }

  void describeSummaries() {
    const DistributionSummary s = describe(vec({2.5, -1, 7, 7}));
    QVERIFY(std::abs(s.mean - 3.875) < 1e-12);
    QVERIFY(std::abs(s.median - 4.75) < 1e-12);
    QVERIFY(std::abs(s.q15 - 0.575) < 1e-12);
    QVERIFY(std::abs(s.q90 - 7.0) < 1e-12);
    // An empty database has no summary (the report writes null), rather than an exception.
    const DistributionSummary none = describe(Eigen::VectorXd());
    QVERIFY(std::isnan(none.mean) && std::isnan(none.median) && std::isnan(none.q15) &&
            std::isnan(none.q90));
  }

  void ecdfDistancesWithTies() {
    // conf = {1,2,2,3}, syn = {2,3,3,4,5}. Distinct pooled values (multiplicity):
    //   v:      1(1)   2(3)   3(3)   4(1)   5(1)
    //   F_conf: 1/4    3/4    1      1      1
    //   F_syn:  0      1/5    3/5    4/5    1
    //   diff:   .25    .55    .40    .20    0
    // max = .55; avg = (.0625 + 3*.3025 + 3*.16 + .04 + 0) / 9 = 1.49 / 9.
    const UtilityMeasures u = measureUtility(vec({3, 2, 1, 2}), vec({5, 3, 2, 4, 3}));
    QVERIFY(std::abs(u.maxEcdf - 0.55) < 1e-12);
    QVERIFY(std::abs(u.avgEcdf - 1.49 / 9.0) < 1e-12);
    // Summaries are of the synthetic sample.
    QVERIFY(std::abs(u.mean - 3.4) < 1e-12);
    QVERIFY(std::abs(u.median - 3.0) < 1e-12);
    QVERIFY(std::abs(u.q15 - 2.6) < 1e-12);  // h = 0.6: 2 + 0.6 * (3 - 2)
    QVERIFY(std::abs(u.q90 - 4.6) < 1e-12);  // h = 3.6: 4 + 0.6 * (5 - 4)

    // conf = {0,0,0}, syn = {0,1}: at 0 (4 points) diff = 1 - 1/2; at 1 diff = 0.
    const UtilityMeasures w = measureUtility(vec({0, 0, 0}), vec({0, 1}));
    QVERIFY(std::abs(w.maxEcdf - 0.5) < 1e-12);
    QVERIFY(std::abs(w.avgEcdf - 0.2) < 1e-12);  // 4 * 0.25 / 5
  }

  void ecdfDisjointSamples() {
    // conf entirely below syn. F_conf - F_syn at the pooled points 1, 2, 3, 4 is
    // 1/2, 1, 1/2, 0: max = 1; avg = (.25 + 1 + .25 + 0) / 4.
    const UtilityMeasures u = measureUtility(vec({1, 2}), vec({3, 4}));
    QCOMPARE(u.maxEcdf, 1.0);
    QVERIFY(std::abs(u.avgEcdf - 1.5 / 4.0) < 1e-12);
  }

  void identicalSamplesHaveZeroDistance() {
    const Eigen::VectorXd x = vec({4, 1, 1, 7, 3, 3, 3, 9});
    Eigen::VectorXd shuffled = x.reverse();
    const UtilityMeasures u = measureUtility(x, shuffled);
    QCOMPARE(u.maxEcdf, 0.0);
    QCOMPARE(u.avgEcdf, 0.0);
  }

  void measureUtilityOfAnEmptyDatabase() {
    // Nothing to compare with: the ECDF distances are NaN, the synthetic summary is there.
    const UtilityMeasures u = measureUtility(Eigen::VectorXd(), vec({1, 3}));
    QVERIFY(std::isnan(u.maxEcdf) && std::isnan(u.avgEcdf));
    QCOMPARE(u.mean, 2.0);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, measureUtility(vec({1}), Eigen::VectorXd()));
  }
};

QTEST_APPLESS_MAIN(UtilityTest)
#include "utility_test.moc"
