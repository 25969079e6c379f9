#include <QtTest>
#include <cmath>
#include <limits>

#include "core/mcmc/diagonal_metric.h"
#include "core/mcmc/hamiltonian.h"
#include "core/mcmc/welford_variance.h"
#include "core/random/rng.h"
#include "support/gaussian_models.h"

using dpsynth::core::mcmc::DiagonalMetric;
using dpsynth::core::mcmc::Hamiltonian;
using dpsynth::core::mcmc::PhasePoint;
using dpsynth::core::mcmc::WelfordVariance;
namespace rnd = dpsynth::core::random;
namespace test = dpsynth::test;

class MetricTest : public QObject {
  Q_OBJECT

 private slots:
  void kineticEnergyAndVelocity() {
    const DiagonalMetric metric(Eigen::VectorXd(Eigen::Vector3d(2.0, 0.5, 1.0)));
    const Eigen::Vector3d p(1.0, -2.0, 3.0);
    // (2 * 1 + 0.5 * 4 + 1 * 9) / 2 = 6.5
    QCOMPARE(metric.kineticEnergy(p), 6.5);
    QVERIFY(metric.velocity(p).isApprox(Eigen::Vector3d(2.0, -1.0, 3.0)));
    QCOMPARE(DiagonalMetric(3).inverse(), Eigen::VectorXd(Eigen::Vector3d::Ones()));
  }

  void momentumHasCovarianceM() {
    // p ~ Normal(0, M): variances 1 / inverse = 0.25 and 4.
    const DiagonalMetric metric(Eigen::VectorXd(Eigen::Vector2d(4.0, 0.25)));
    rnd::Rng rng = rnd::makeRng(11, 0);
    const int n = 40000;
    Eigen::Vector2d sum = Eigen::Vector2d::Zero(), sumSq = Eigen::Vector2d::Zero();
    Eigen::VectorXd p;
    for (int i = 0; i < n; ++i) {
      metric.sampleMomentum(rng, p);
      sum += p;
      sumSq += p.cwiseProduct(p);
    }
    const Eigen::Vector2d mean = sum / n;
    const Eigen::Vector2d var = sumSq / n - mean.cwiseProduct(mean);
    QVERIFY(std::abs(mean[0]) < 0.02 && std::abs(mean[1]) < 0.08);
    // Relative sd of a variance estimate is sqrt(2 / n) = 0.7%; allow 3%.
    QVERIFY2(std::abs(var[0] / 0.25 - 1) < 0.03, qPrintable(QString::number(var[0])));
    QVERIFY2(std::abs(var[1] / 4.0 - 1) < 0.03, qPrintable(QString::number(var[1])));
  }

  void rejectsInvalidInverse() {
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, DiagonalMetric(0));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             DiagonalMetric(Eigen::VectorXd(Eigen::Vector2d(1.0, 0.0))));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             DiagonalMetric(Eigen::VectorXd(Eigen::Vector2d(1.0, std::nan("")))));
    DiagonalMetric metric(2);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, metric.setInverse(Eigen::VectorXd::Ones(3)));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             metric.setInverse(Eigen::VectorXd(Eigen::Vector2d(-1.0, 1.0))));
    metric.setInverse(Eigen::Vector2d(3.0, 0.1));
    QCOMPARE(metric.inverse()[0], 3.0);
  }

  void welfordMatchesTwoPassVariance() {
    WelfordVariance w(2);
    QCOMPARE(w.variance(), Eigen::VectorXd(Eigen::Vector2d::Zero()));
    const double xs[] = {1e6 + 1, 1e6 + 4, 1e6 + 7, 1e6 + 13};  // large offset: stability
    for (double x : xs) w.add(Eigen::Vector2d(x, -2.0 * x));
    QCOMPARE(w.count(), 4);
    // Deviations from the mean 1e6 + 6.25: -5.25, -2.25, 0.75, 6.75; sum of squares 78.75.
    QVERIFY(std::abs(w.mean()[0] - (1e6 + 6.25)) < 1e-9);
    QVERIFY(std::abs(w.variance()[0] - 78.75 / 3.0) < 1e-8);
    QVERIFY(std::abs(w.variance()[1] - 4.0 * 78.75 / 3.0) < 1e-7);
    w.restart();
    QCOMPARE(w.count(), 0);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, w.add(Eigen::VectorXd::Ones(3)));
  }

  void hamiltonianTreatsNonFiniteAsOutsideSupport() {
    test::NowhereFiniteModel model(2);
    DiagonalMetric metric(2);
    Hamiltonian h(model, metric);
    PhasePoint z(2);
    h.updatePotential(z);
    QVERIFY(std::isinf(z.logDensity) && z.logDensity < 0);
    QCOMPARE(h.energy(z), std::numeric_limits<double>::infinity());
    QCOMPARE(h.gradientEvaluations(), 1LL);
  }
};

QTEST_APPLESS_MAIN(MetricTest)
#include "metric_test.moc"
