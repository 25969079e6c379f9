#include "core/mcmc/leapfrog.h"

#include <QtTest>
#include <cmath>

#include "core/mcmc/diagonal_metric.h"
#include "core/mcmc/hamiltonian.h"
#include "core/random/rng.h"
#include "support/gaussian_models.h"

using dpsynth::core::mcmc::DiagonalMetric;
using dpsynth::core::mcmc::Hamiltonian;
using dpsynth::core::mcmc::leapfrog;
using dpsynth::core::mcmc::PhasePoint;
namespace rnd = dpsynth::core::random;
namespace test = dpsynth::test;

namespace {

PhasePoint startAt(Hamiltonian& h, const Eigen::VectorXd& q, const Eigen::VectorXd& p) {
  PhasePoint z(static_cast<int>(q.size()));
  z.q = q;
  z.p = p;
  h.updatePotential(z);
  return z;
}

/// Largest |H - H0| along n steps of size eps from z.
double maxEnergyError(Hamiltonian& h, PhasePoint z, double eps, int n) {
  const double h0 = h.energy(z);
  double worst = 0.0;
  for (int i = 0; i < n; ++i) {
    leapfrog(h, z, eps);
    worst = std::max(worst, std::abs(h.energy(z) - h0));
  }
  return worst;
}

}  // namespace

class LeapfrogTest : public QObject {
  Q_OBJECT

 private slots:
  void oneStepMatchesHandComputation() {
    // 1-D standard normal, M^{-1} = 4, q = 1, p = 0.5, eps = 0.1:
    // p_half = 0.5 - 0.05 * 1 = 0.45; q1 = 1 + 0.1 * 4 * 0.45 = 1.18; p1 = 0.45 - 0.05 * 1.18.
    test::IidGaussianModel model(1);
    DiagonalMetric metric(Eigen::VectorXd::Constant(1, 4.0));
    Hamiltonian h(model, metric);
    PhasePoint z = startAt(h, Eigen::VectorXd::Constant(1, 1.0), Eigen::VectorXd::Constant(1, 0.5));
    leapfrog(h, z, 0.1);
    QVERIFY(std::abs(z.q[0] - 1.18) < 1e-14);
    QVERIFY(std::abs(z.p[0] - 0.391) < 1e-14);
    QVERIFY(std::abs(z.logDensity - (-0.5 * 1.18 * 1.18)) < 1e-14);
    QVERIFY(std::abs(z.grad[0] + 1.18) < 1e-14);
    // Energy = -log density + p^2 M^{-1} / 2.
    QVERIFY(std::abs(h.energy(z) - (0.5 * 1.18 * 1.18 + 0.5 * 4 * 0.391 * 0.391)) < 1e-14);
  }

  void isTimeReversible() {
    Eigen::MatrixXd cov(3, 3);
    cov << 1.0, 0.5, 0.2, 0.5, 2.0, -0.3, 0.2, -0.3, 0.7;
    test::CorrelatedGaussianModel model(Eigen::Vector3d(0.3, -1.0, 2.0), cov);
    DiagonalMetric metric(Eigen::VectorXd(Eigen::Vector3d(0.5, 2.0, 1.0)));
    Hamiltonian h(model, metric);
    const PhasePoint start =
        startAt(h, Eigen::Vector3d(1.0, 0.5, -0.5), Eigen::Vector3d(0.7, -1.2, 0.3));
    PhasePoint z = start;
    for (int i = 0; i < 50; ++i) leapfrog(h, z, 0.15);
    QVERIFY((z.q - start.q).norm() > 0.1);  // it did move
    z.p = -z.p;
    for (int i = 0; i < 50; ++i) leapfrog(h, z, 0.15);
    z.p = -z.p;
    QVERIFY2((z.q - start.q).norm() < 1e-10, "positions do not return");
    QVERIFY2((z.p - start.p).norm() < 1e-10, "momenta do not return");
    // Integrating with -eps is the same as flipping the momentum.
    PhasePoint back = start;
    for (int i = 0; i < 50; ++i) leapfrog(h, back, -0.15);
    PhasePoint flipped = start;
    flipped.p = -flipped.p;
    for (int i = 0; i < 50; ++i) leapfrog(h, flipped, 0.15);
    QVERIFY((back.q - flipped.q).norm() < 1e-12);
    QVERIFY((back.p + flipped.p).norm() < 1e-12);
  }

  void conservesEnergyToSecondOrder() {
    test::IidGaussianModel model(Eigen::VectorXd::Zero(3), Eigen::Vector3d(1.0, 0.5, 2.0));
    DiagonalMetric metric(3);
    Hamiltonian h(model, metric);
    const PhasePoint z =
        startAt(h, Eigen::Vector3d(1.0, -0.5, 2.0), Eigen::Vector3d(0.3, 1.0, -0.8));
    // Same integration time T = 2 with eps and eps / 2.
    const double coarse = maxEnergyError(h, z, 0.01, 200);
    const double fine = maxEnergyError(h, z, 0.005, 400);
    QVERIFY2(coarse < 1e-4, qPrintable(QString::number(coarse)));
    QVERIFY(coarse > 0.0);
    const double ratio = coarse / fine;
    QVERIFY2(ratio > 3.5 && ratio < 4.5, qPrintable(QString("ratio %1").arg(ratio)));
  }

  void countsOneGradientPerStep() {
    test::IidGaussianModel model(2);
    DiagonalMetric metric(2);
    Hamiltonian h(model, metric);
    PhasePoint z = startAt(h, Eigen::Vector2d(0.1, 0.2), Eigen::Vector2d(1.0, 0.0));
    for (int i = 0; i < 7; ++i) leapfrog(h, z, 0.1);
    QCOMPARE(h.gradientEvaluations(), 8LL);
    QCOMPARE(model.calls(), 8LL);
  }

  void leavingTheSupportGivesInfiniteEnergy() {
    test::HalfSpaceGaussianModel model(2);
    DiagonalMetric metric(2);
    Hamiltonian h(model, metric);
    PhasePoint z = startAt(h, Eigen::Vector2d(0.1, 0.0), Eigen::Vector2d(-2.0, 0.0));
    QVERIFY(std::isfinite(h.energy(z)));
    leapfrog(h, z, 0.5);  // q0 = 0.1 + 0.5 * (-2 - 0.025) < 0
    QVERIFY(std::isinf(z.logDensity) && z.logDensity < 0);
    QVERIFY(std::isinf(h.energy(z)) && h.energy(z) > 0);
  }
};

QTEST_APPLESS_MAIN(LeapfrogTest)
#include "leapfrog_test.moc"
