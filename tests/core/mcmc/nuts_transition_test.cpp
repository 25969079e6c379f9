#include "core/mcmc/nuts_transition.h"

#include <QtTest>
#include <cmath>
#include <stop_token>

#include "core/mcmc/dense_metric.h"
#include "core/mcmc/diagonal_metric.h"
#include "core/mcmc/hamiltonian.h"
#include "core/random/rng.h"
#include "support/gaussian_models.h"

using dpsynth::core::mcmc::DenseMetric;
using dpsynth::core::mcmc::DiagonalMetric;
using dpsynth::core::mcmc::Hamiltonian;
using dpsynth::core::mcmc::NutsTransition;
using dpsynth::core::mcmc::PhasePoint;
using dpsynth::core::mcmc::TransitionStats;
namespace detail = dpsynth::core::mcmc::detail;
namespace rnd = dpsynth::core::random;
namespace test = dpsynth::test;

namespace {

PhasePoint startAt(Hamiltonian& h, const Eigen::VectorXd& q) {
  PhasePoint z(static_cast<int>(q.size()));
  z.q = q;
  h.updatePotential(z);
  return z;
}

struct Moments {
  Eigen::VectorXd mean, var;
};

/// Runs n transitions with a fixed step size (no adaptation) and returns the draw moments.
Moments runFixed(const dpsynth::core::models::Model& model, double eps, int n, std::uint64_t seed,
                 int maxDepth = 10) {
  DiagonalMetric metric(model.dim());
  Hamiltonian h(model, metric);
  NutsTransition nuts(h, maxDepth);
  PhasePoint z = startAt(h, Eigen::VectorXd::Constant(model.dim(), 0.1));
  rnd::Rng rng = rnd::makeRng(seed, 0);
  Eigen::VectorXd sum = Eigen::VectorXd::Zero(model.dim()), sumSq = sum;
  for (int i = 0; i < n; ++i) {
    nuts.transition(z, eps, rng);
    sum += z.q;
    sumSq += z.q.cwiseAbs2();
  }
  Moments m;
  m.mean = sum / n;
  m.var = sumSq / n - m.mean.cwiseAbs2();
  return m;
}

}  // namespace

class NutsTransitionTest : public QObject {
  Q_OBJECT

 private slots:
  void logSumExp() {
    const double inf = std::numeric_limits<double>::infinity();
    QVERIFY(std::abs(detail::logSumExp(std::log(2.0), std::log(3.0)) - std::log(5.0)) < 1e-15);
    QCOMPARE(detail::logSumExp(-inf, 1.5), 1.5);
    QCOMPARE(detail::logSumExp(1.5, -inf), 1.5);
    QCOMPARE(detail::logSumExp(-inf, -inf), -inf);
    QVERIFY(std::abs(detail::logSumExp(1000.0, 1000.0) - (1000.0 + std::log(2.0))) < 1e-12);
  }

  void noUTurnCriterion() {
    const Eigen::Vector2d rho(1.0, 0.0);
    QVERIFY(detail::noUTurn(Eigen::Vector2d(1, 0), Eigen::Vector2d(0.5, 1), rho));
    QVERIFY(!detail::noUTurn(Eigen::Vector2d(1, 0), Eigen::Vector2d(-0.5, 1), rho));
    QVERIFY(!detail::noUTurn(Eigen::Vector2d(-1, 0), Eigen::Vector2d(1, 0), rho));
    QVERIFY(!detail::noUTurn(Eigen::Vector2d(0, 1), Eigen::Vector2d(1, 0), rho));  // needs > 0
  }

  void leavesTheStandardNormalInvariant() {
    // Exactness of the multinomial selection, independent of any adaptation: moments of a
    // 2-D normal with sds (1, 3) at two fixed step sizes.
    test::IidGaussianModel model(Eigen::Vector2d::Zero(), Eigen::Vector2d(1.0, 3.0));
    for (double eps : {0.3, 1.2}) {
      const Moments m = runFixed(model, eps, 20000, 17);
      QVERIFY2(std::abs(m.mean[0]) < 0.04 && std::abs(m.mean[1]) < 0.12,
               qPrintable(QString("eps %1 mean %2 %3").arg(eps).arg(m.mean[0]).arg(m.mean[1])));
      QVERIFY2(std::abs(m.var[0] - 1.0) < 0.06 && std::abs(m.var[1] / 9.0 - 1.0) < 0.06,
               qPrintable(QString("eps %1 var %2 %3").arg(eps).arg(m.var[0]).arg(m.var[1])));
    }
  }

  void samplesTheBanana() {
    // x0 ~ N(0,1), x1 | x0 ~ N(0.5 (x0^2 - 1), 1): E x1 = 0, Var x1 = 1 + 2 * 0.25 = 1.5.
    test::BananaModel model(0.5);
    const Moments m = runFixed(model, 0.4, 20000, 5);
    QVERIFY2(std::abs(m.mean[0]) < 0.05 && std::abs(m.mean[1]) < 0.06,
             qPrintable(QString("%1 %2").arg(m.mean[0]).arg(m.mean[1])));
    QVERIFY2(std::abs(m.var[0] - 1.0) < 0.07 && std::abs(m.var[1] - 1.5) < 0.1,
             qPrintable(QString("%1 %2").arg(m.var[0]).arg(m.var[1])));
  }

  void trajectoryStopsNearHalfAPeriod() {
    // For a unit normal the orbit has period 2 pi: with eps = 0.1 half an orbit is about 31
    // steps. Trajectories that start near a turning point fold back sooner, so depths range
    // from 1 to 6 but never approach the maximum.
    test::IidGaussianModel model(1);
    DiagonalMetric metric(1);
    Hamiltonian h(model, metric);
    NutsTransition nuts(h, 10);
    PhasePoint z = startAt(h, Eigen::VectorXd::Constant(1, 0.5));
    rnd::Rng rng = rnd::makeRng(2, 0);
    long long steps = 0;
    for (int i = 0; i < 500; ++i) {
      const TransitionStats s = nuts.transition(z, 0.1, rng);
      QVERIFY(s.treeDepth >= 1 && s.treeDepth <= 6);
      QCOMPARE(s.leapfrogSteps >= (1 << s.treeDepth) - 1, true);
      QVERIFY(!s.divergent);
      QVERIFY2(s.acceptStat > 0.97,
               qPrintable(QString::number(s.acceptStat)));  // energy error O(eps^2)
      steps += s.leapfrogSteps;
    }
    QCOMPARE(h.gradientEvaluations(), steps + 1);  // + the starting point
    const double meanSteps = steps / 500.0;        // 18.4 with this seed
    QVERIFY2(meanSteps > 10 && meanSteps < 40, qPrintable(QString::number(meanSteps)));
  }

  void tinyStepSaturatesTheTree() {
    test::IidGaussianModel model(3);
    DiagonalMetric metric(3);
    Hamiltonian h(model, metric);
    NutsTransition nuts(h, 4);
    PhasePoint z = startAt(h, Eigen::VectorXd::Constant(3, 0.3));
    rnd::Rng rng = rnd::makeRng(9, 0);
    for (int i = 0; i < 20; ++i) {
      const TransitionStats s = nuts.transition(z, 1e-4, rng);
      QCOMPARE(s.treeDepth, 4);
      QCOMPARE(s.leapfrogSteps, 15);  // 1 + 2 + 4 + 8
      QVERIFY(s.acceptStat > 0.999999);
    }
  }

  void divergenceAtTheBoundaryOfTheSupport() {
    test::HalfSpaceGaussianModel model(2);
    DiagonalMetric metric(2);
    Hamiltonian h(model, metric);
    NutsTransition nuts(h, 10);
    PhasePoint z = startAt(h, Eigen::Vector2d(0.2, 0.0));
    rnd::Rng rng = rnd::makeRng(4, 0);
    int divergent = 0;
    for (int i = 0; i < 300; ++i) {
      const TransitionStats s = nuts.transition(z, 0.8, rng);
      divergent += s.divergent;
      QVERIFY(z.q[0] > 0.0);  // never accepts a state outside the support
      QVERIFY(std::isfinite(z.logDensity));
      QVERIFY(std::isfinite(s.energy));
      QVERIFY(s.acceptStat >= 0.0 && s.acceptStat <= 1.0);
    }
    QVERIFY2(divergent > 10, qPrintable(QString::number(divergent)));
  }

  /// The transition keeps its vectors between calls; nothing left in them by an earlier
  /// trajectory (full, U-turned or diverged) may reach a later one. A transition reused for 300
  /// steps must give the same bits as a fresh one per step, for a dense and a diagonal metric.
  void reusedWorkspaceGivesTheBitsOfAFreshOne() {
    Eigen::Matrix3d cov;
    cov << 1.0, 0.8, 0.1,  //
        0.8, 2.0, -0.3,    //
        0.1, -0.3, 0.5;
    test::CorrelatedGaussianModel gaussian(Eigen::Vector3d(0.5, -1.0, 2.0), cov);
    test::HalfSpaceGaussianModel halfSpace(3);  // diverges at its boundary with eps = 0.8
    Eigen::Matrix3d inverse;
    inverse << 1.2, 0.5, 0.0,  //
        0.5, 1.5, -0.2,        //
        0.0, -0.2, 0.6;
    const DenseMetric dense{Eigen::MatrixXd(inverse)};
    const DiagonalMetric diagonal{Eigen::VectorXd(Eigen::Vector3d(0.8, 1.3, 0.4))};
    struct Case {
      const dpsynth::core::models::Model* model;
      const dpsynth::core::mcmc::Metric* metric;
      double eps;
      int maxDepth;
    };
    const Case cases[] = {{&gaussian, &dense, 0.7, 10},
                          {&gaussian, &diagonal, 0.3, 4},
                          {&halfSpace, &dense, 0.8, 10},
                          {&halfSpace, &diagonal, 0.8, 10}};
    int divergent = 0, saturated = 0;
    for (const Case& c : cases) {
      Hamiltonian h(*c.model, *c.metric);
      NutsTransition reused(h, c.maxDepth);
      PhasePoint z = startAt(h, Eigen::Vector3d(0.3, 0.2, 0.1));
      PhasePoint fresh = z;
      rnd::Rng rng = rnd::makeRng(21, 0);
      rnd::Rng freshRng = rng;
      for (int i = 0; i < 300; ++i) {
        const TransitionStats a = reused.transition(z, c.eps, rng);
        NutsTransition once(h, c.maxDepth);
        const TransitionStats b = once.transition(fresh, c.eps, freshRng);
        QVERIFY(z.q == fresh.q && z.p == fresh.p && z.grad == fresh.grad);
        QVERIFY(z.logDensity == fresh.logDensity);
        QVERIFY(a.acceptStat == b.acceptStat && a.energy == b.energy);
        QCOMPARE(a.treeDepth, b.treeDepth);
        QCOMPARE(a.leapfrogSteps, b.leapfrogSteps);
        QCOMPARE(a.divergent, b.divergent);
        divergent += a.divergent;
        saturated += a.treeDepth == c.maxDepth;
      }
    }
    QVERIFY2(divergent > 10, qPrintable(QString::number(divergent)));  // the early returns ran
    QVERIFY2(saturated > 10, qPrintable(QString::number(saturated)));  // and the full trees
  }

  void stopsBeforeTheFirstStepWhenCancelled() {
    test::IidGaussianModel model(2);
    DiagonalMetric metric(2);
    Hamiltonian h(model, metric);
    NutsTransition nuts(h, 10);
    PhasePoint z = startAt(h, Eigen::Vector2d(0.4, -0.4));
    const Eigen::VectorXd before = z.q;
    rnd::Rng rng = rnd::makeRng(1, 0);
    std::stop_source source;
    source.request_stop();
    const TransitionStats s = nuts.transition(z, 0.5, rng, source.get_token());
    QVERIFY(s.cancelled);
    QCOMPARE(s.leapfrogSteps, 0);
    QCOMPARE(z.q, before);
    QCOMPARE(h.gradientEvaluations(), 1LL);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, NutsTransition(h, 0));
  }
};

QTEST_APPLESS_MAIN(NutsTransitionTest)
#include "nuts_transition_test.moc"
