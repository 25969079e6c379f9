#include "core/data/regression_samples.h"

#include <QtTest>
#include <cmath>
#include <set>
#include <stdexcept>

using namespace dpsynth::core;
using models::Family;

namespace {

/// Least-squares coefficients of y on the design.
Eigen::VectorXd leastSquares(const data::Dataset& d) {
  return d.X.colPivHouseholderQr().solve(d.y);
}

}  // namespace

class RegressionSamplesTest : public QObject {
  Q_OBJECT
 private slots:
  void normalRegressionHasTheDocumentedModel() {
    const data::Dataset d = data::normalRegressionSample(20000, 5);
    QCOMPARE(d.family, Family::normal);
    QCOMPARE(d.X.cols(), Eigen::Index{7});
    QCOMPARE(d.designNames.front(), std::string("(Intercept)"));
    const Eigen::VectorXd b = leastSquares(d);
    const double want[] = {10.0, 1.5, -0.8, 0.3, 0.5, -0.4, 1.0};
    for (int j = 0; j < 7; ++j) QVERIFY(std::abs(b[j] - want[j]) < 0.1);
    const Eigen::VectorXd resid = d.y - d.X * b;
    QVERIFY(std::abs(std::sqrt(resid.squaredNorm() / 20000.0) - 2.0) < 0.05);
    // Same seed, same data; another seed, other data.
    QVERIFY(data::normalRegressionSample(100, 5).y == data::normalRegressionSample(100, 5).y);
    QVERIFY(data::normalRegressionSample(100, 5).y != data::normalRegressionSample(100, 6).y);
  }

  void poissonRegressionHasFewDesignPatterns() {
    const data::Dataset d = data::poissonRegressionSample(20000, 5);
    QCOMPARE(d.family, Family::poisson);
    QCOMPARE(d.X.cols(), Eigen::Index{5});
    std::set<std::vector<double>> rows;
    for (Eigen::Index i = 0; i < d.X.rows(); ++i) {
      QCOMPARE(d.y[i], std::round(d.y[i]));
      QVERIFY(d.y[i] >= 0.0);
      rows.insert({d.X(i, 1), d.X(i, 2), d.X(i, 3), d.X(i, 4)});
    }
    QCOMPARE(rows.size(), std::size_t{24});  // 6 household sizes × 4 regions
    // log E y = log 4 + 0.3 (household − 3) + region effect: the mean of the reference cell.
    double sum = 0;
    int count = 0;
    for (Eigen::Index i = 0; i < d.X.rows(); ++i) {
      if (d.X(i, 1) == 3.0 && d.X.row(i).tail(3).sum() == 0.0) {
        sum += d.y[i];
        ++count;
      }
    }
    QVERIFY(count > 500);
    QVERIFY(std::abs(sum / count - 4.0) < 0.3);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, data::poissonRegressionSample(1, 5));
  }
};

QTEST_APPLESS_MAIN(RegressionSamplesTest)
#include "regression_samples_test.moc"
