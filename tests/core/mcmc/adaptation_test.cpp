#include <QtTest>
#include <cmath>
#include <vector>

#include "core/mcmc/diagonal_metric.h"
#include "core/mcmc/hamiltonian.h"
#include "core/mcmc/step_size_adapter.h"
#include "core/mcmc/step_size_search.h"
#include "core/mcmc/windowed_metric_adapter.h"
#include "core/random/rng.h"
#include "support/gaussian_models.h"

using dpsynth::core::mcmc::DiagonalMetric;
using dpsynth::core::mcmc::Hamiltonian;
using dpsynth::core::mcmc::PhasePoint;
using dpsynth::core::mcmc::searchInitialStepSize;
using dpsynth::core::mcmc::StepSizeAdapter;
using dpsynth::core::mcmc::WindowedMetricAdapter;
namespace rnd = dpsynth::core::random;
namespace test = dpsynth::test;

namespace {

/// Iterations (0-based) after which the adapter produced a new metric.
std::vector<int> updateIterations(int warmup) {
  WindowedMetricAdapter adapter(1, warmup);
  Eigen::VectorXd inverse = Eigen::VectorXd::Ones(1);
  std::vector<int> updates;
  for (int i = 0; i < warmup; ++i) {
    if (adapter.learn(Eigen::VectorXd::Constant(1, static_cast<double>(i % 7)), inverse)) {
      updates.push_back(i);
    }
  }
  return updates;
}

/// Log2 of x / base when it is an integer power of two, else NaN.
double log2Ratio(double x, double base) {
  const double k = std::log2(x / base);
  return std::abs(k - std::round(k)) < 1e-12 ? std::round(k) : std::nan("");
}

}  // namespace

class AdaptationTest : public QObject {
  Q_OBJECT

 private slots:
  void dualAveragingFirstStepByHand() {
    StepSizeAdapter adapter(0.8);
    adapter.setMu(std::log(10.0));
    // n = 1: eta = 1/11, s_bar = (0.8 - 0.3)/11, x = mu - s_bar * 1 / 0.05, x_bar = x.
    const double sBar = 0.5 / 11.0;
    const double x = std::log(10.0) - sBar / 0.05;
    QVERIFY(std::abs(adapter.learn(0.3) - std::exp(x)) < 1e-12);
    QVERIFY(std::abs(adapter.finalStepSize() - std::exp(x)) < 1e-12);
    // n = 2: eta = 1/12; x_bar weight 2^-0.75.
    const double sBar2 = (1.0 - 1.0 / 12.0) * sBar + (0.8 - 1.0) / 12.0;
    const double x2 = std::log(10.0) - sBar2 * std::sqrt(2.0) / 0.05;
    const double w = std::pow(2.0, -0.75);
    QVERIFY(std::abs(adapter.learn(1.7) - std::exp(x2)) < 1e-12);  // 1.7 is clipped to 1
    QVERIFY(std::abs(adapter.finalStepSize() - std::exp((1 - w) * x + w * x2)) < 1e-12);
    adapter.restart();
    QCOMPARE(adapter.iterations(), 0);
    QCOMPARE(adapter.finalStepSize(), 1.0);
  }

  void dualAveragingConvergesOnSyntheticAcceptance() {
    // Acceptance exp(-eps) hits 0.8 at eps* = -log 0.8; add bounded noise as a chain would.
    const double target = -std::log(0.8);
    StepSizeAdapter adapter(0.8);
    double eps = 1.0;
    adapter.setMu(std::log(10 * eps));
    rnd::Rng rng = rnd::makeRng(3, 0);
    for (int i = 0; i < 2000; ++i) {
      const double noise = 0.1 * (2.0 * rnd::uniform01(rng) - 1.0);
      eps = adapter.learn(std::clamp(std::exp(-eps) + noise, 0.0, 1.0));
    }
    const double final = adapter.finalStepSize();
    QVERIFY2(std::abs(final / target - 1.0) < 0.05, qPrintable(QString::number(final)));
    // A different target moves the answer: 0.6 -> eps = -log 0.6.
    StepSizeAdapter other(0.6);
    other.setMu(std::log(10.0));
    eps = 1.0;
    for (int i = 0; i < 2000; ++i) eps = other.learn(std::exp(-eps));
    QVERIFY(std::abs(other.finalStepSize() / -std::log(0.6) - 1.0) < 0.05);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, StepSizeAdapter(1.0));
  }

  void windowScheduleForWarmup1000() {
    // Buffers 75 / 50, windows of 25, 50, 100, 200 and the last stretched to 500.
    QCOMPARE(updateIterations(1000), (std::vector<int>{99, 149, 249, 449, 949}));
    WindowedMetricAdapter adapter(1, 1000);
    QCOMPARE(adapter.initBuffer(), 75);
    QCOMPARE(adapter.termBuffer(), 50);
    QCOMPARE(adapter.baseWindow(), 25);
  }

  void windowScheduleForShortWarmup() {
    // 100 < 150: 15 / 75 / 10, a single window over iterations 15..89.
    QCOMPARE(updateIterations(100), (std::vector<int>{89}));
    WindowedMetricAdapter adapter(1, 100);
    QCOMPARE(adapter.initBuffer(), 15);
    QCOMPARE(adapter.termBuffer(), 10);
    QCOMPARE(adapter.baseWindow(), 75);
    QCOMPARE(updateIterations(150), (std::vector<int>{99}));
    QCOMPARE(updateIterations(20), (std::vector<int>{17}));  // 3 / 15 / 2
    QVERIFY(updateIterations(19).empty());                   // too short: no metric adaptation
    QVERIFY(WindowedMetricAdapter(1, 0).disabled());
    // 2000: windows end at 99, 149, 249, 449, 849; the next would end at 1649 but the one
    // after it could not fit (1649 + 1600 >= 1950), so it is stretched to 1949.
    QCOMPARE(updateIterations(2000), (std::vector<int>{99, 149, 249, 449, 849, 1949}));
  }

  void varianceEstimateIsRegularised() {
    // warmup 100: the window holds iterations 15..89 (n = 75). Feed a known sequence.
    WindowedMetricAdapter adapter(2, 100);
    Eigen::VectorXd inverse = Eigen::VectorXd::Ones(2);
    auto point = [](int i) {
      return Eigen::Vector2d(std::sin(0.37 * i) * 3.0, 0.01 * std::cos(1.3 * i) + 5.0);
    };
    for (int i = 0; i < 100; ++i) {
      const bool updated = adapter.learn(point(i), inverse);
      QCOMPARE(updated, i == 89);
    }
    const int n = 75;
    Eigen::Vector2d mean = Eigen::Vector2d::Zero();
    for (int i = 15; i < 90; ++i) mean += point(i);
    mean /= n;
    Eigen::Vector2d ss = Eigen::Vector2d::Zero();
    for (int i = 15; i < 90; ++i) ss += (point(i) - mean).cwiseAbs2();
    const Eigen::Vector2d var = ss / (n - 1);
    const Eigen::Vector2d expected = (n / (n + 5.0)) * var.array() + 1e-3 * 5.0 / (n + 5.0);
    QVERIFY2((inverse - expected).cwiseAbs().maxCoeff() < 1e-12,
             qPrintable(QString("%1 vs %2").arg(inverse[0]).arg(expected[0])));
  }

  void stepSizeSearchDoublesOrHalves() {
    test::IidGaussianModel model(1);
    DiagonalMetric metric(1);
    Hamiltonian h(model, metric);
    PhasePoint z(1);
    z.q[0] = 0.5;
    h.updatePotential(z);
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
      rnd::Rng rng = rnd::makeRng(seed, 0);
      // From a tiny step the one-step acceptance is ~1: it must double, by a power of two.
      const double up = searchInitialStepSize(h, z, 1e-3, rng);
      const double k = log2Ratio(up, 1e-3);
      QVERIFY(!std::isnan(k) && k >= 1);
      QVERIFY2(up > 0.1 && up < 20, qPrintable(QString::number(up)));
      // From a huge step the acceptance is ~0: it must halve.
      const double down = searchInitialStepSize(h, z, 1e3, rng);
      const double k2 = log2Ratio(down, 1e3);
      QVERIFY(!std::isnan(k2) && k2 <= -1);
      QVERIFY2(down > 0.1 && down < 20, qPrintable(QString::number(down)));
    }
    QCOMPARE(z.q[0], 0.5);  // the point is not moved
    rnd::Rng rng = rnd::makeRng(1, 0);
    QCOMPARE(searchInitialStepSize(h, z, 2e7, rng), 2e7);  // left alone, as in Stan
    std::stop_source stopped;
    stopped.request_stop();
    QCOMPARE(searchInitialStepSize(h, z, 1e-3, rng, stopped.get_token()), 1e-3);
  }
};

QTEST_APPLESS_MAIN(AdaptationTest)
#include "adaptation_test.moc"
