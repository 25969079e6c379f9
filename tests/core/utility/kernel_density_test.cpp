#include "core/utility/kernel_density.h"

#include <QtTest>
#include <cmath>
#include <numbers>
#include <random>
#include <stdexcept>
#include <vector>

using dpsynth::core::utility::kernelDensity;
using dpsynth::core::utility::kernelDensityOn;
using dpsynth::core::utility::kernelDensityWithin;
using dpsynth::core::utility::silvermanBandwidth;

namespace {

/// Right-skewed sample (exponential by inversion, so it does not depend on the library's
/// distribution implementations), like the by-record Lipschitz bounds.
std::vector<double> skewedSample(int n, unsigned seed) {
  std::mt19937_64 engine(seed);
  std::vector<double> out(static_cast<size_t>(n));
  for (auto& v : out) {
    const double u = (static_cast<double>(engine() >> 11) + 0.5) / 9007199254740992.0;
    v = -std::log(u);
  }
  return out;
}

double trapezoid(const std::vector<double>& x, const std::vector<double>& y) {
  double sum = 0;
  for (size_t k = 1; k < x.size(); ++k) sum += 0.5 * (y[k] + y[k - 1]) * (x[k] - x[k - 1]);
  return sum;
}

/// Reference: the textbook sum over samples, no binning.
double exactDensity(const std::vector<double>& values, double x, double h) {
  double sum = 0;
  for (double v : values) {
    const double z = (x - v) / h;
    sum += std::exp(-0.5 * z * z);
  }
  return sum / (static_cast<double>(values.size()) * h * std::sqrt(2 * std::numbers::pi));
}

}  // namespace

class KernelDensityTest : public QObject {
  Q_OBJECT

 private slots:
  void silvermanHandComputed() {
    // {0,1,3}: sd = sqrt(7/3) = 1.52753, IQR = 2 − 0.5 = 1.5, IQR/1.34 = 1.11940 is smaller;
    // h = 0.9 · 1.11940 · 3^(−1/5) = 0.808732.
    const std::vector<double> x{3, 0, 1};
    QVERIFY(std::abs(silvermanBandwidth(x) - 0.808732170430083) < 1e-12);
  }

  void silvermanUsesSdWhenSmaller() {
    // 1..10: sd = 3.02765 < IQR/1.34 = 4.5/1.34 = 3.35821; h = 0.9 · 3.02765 · 10^(−1/5).
    std::vector<double> x;
    for (int i = 1; i <= 10; ++i) x.push_back(i);
    const double expected = 0.9 * std::sqrt(55.0 / 6.0) * std::pow(10.0, -0.2);
    QVERIFY(std::abs(silvermanBandwidth(x) - expected) < 1e-12);
    QVERIFY(std::abs(expected - 1.7193) < 1e-4);
  }

  void silvermanFallbacks() {
    // IQR = 0 → sd (= sqrt(20)).
    const std::vector<double> spike{0, 0, 0, 0, 10};
    QVERIFY(std::abs(silvermanBandwidth(spike) - 0.9 * std::sqrt(20.0) * std::pow(5.0, -0.2)) <
            1e-12);
    // sd = 0 → 1e-3 · |mean|.
    const std::vector<double> constant{-2, -2, -2};
    QVERIFY(std::abs(silvermanBandwidth(constant) - 0.9 * 2e-3 * std::pow(3.0, -0.2)) < 1e-15);
    // all zero → 1e-3; a single value behaves like a constant sample.
    const std::vector<double> zeros{0, 0};
    QVERIFY(std::abs(silvermanBandwidth(zeros) - 0.9 * 1e-3 * std::pow(2.0, -0.2)) < 1e-15);
    const std::vector<double> one{4};
    QVERIFY(std::abs(silvermanBandwidth(one) - 0.9 * 4e-3) < 1e-15);
  }

  void threePointDensityByHand() {
    // f(t) = (1/(3h)) Σ φ((t − x_i)/h) with h = 0.808732, evaluated by hand (Python) at the grid
    // points −1, 0, 1, 2.
    const std::vector<double> x{0, 1, 3};
    const auto est = kernelDensityOn(x, -1.0, 2.0, 4);
    QCOMPARE(est.grid.size(), size_t{4});
    QVERIFY(std::abs(est.bandwidth - 0.808732170430083) < 1e-12);
    const double expected[] = {0.08428289564203979, 0.24115610975134086, 0.2487132432910436,
                               0.16083803504418315};
    for (int k = 0; k < 4; ++k) {
      QVERIFY(std::abs(est.grid[size_t(k)] - (k - 1)) < 1e-12);
      QVERIFY2(std::abs(est.density[size_t(k)] - expected[k]) < 1e-12,
               qPrintable(QString::number(k)));
    }
  }

  void explicitBandwidthIsUsed() {
    const std::vector<double> x{0.0};
    const auto est = kernelDensityOn(x, -1.0, 1.0, 3, 0.5);
    QCOMPARE(est.bandwidth, 0.5);
    // N(0, 0.5²) at 0 and ±1.
    QVERIFY(std::abs(est.density[1] - 1 / (0.5 * std::sqrt(2 * std::numbers::pi))) < 1e-12);
    QVERIFY(std::abs(est.density[0] - std::exp(-2.0) / (0.5 * std::sqrt(2 * std::numbers::pi))) <
            1e-12);
  }

  /// One value 0.5 in [0, 1] with h = 0.4: the density is the kernel plus its mirror images in
  /// 0 and 1, (φ((t − 0.5)/h) + φ((t + 0.5)/h) + φ((t − 1.5)/h))/h, on a grid from 0 to 1.
  void reflectedDensityByHand() {
    const std::vector<double> x{0.5};
    const auto est = kernelDensityWithin(x, 0.0, 1.0, 3, 0.4);
    QCOMPARE(est.grid.front(), 0.0);
    QCOMPARE(est.grid.back(), 1.0);
    const double c = 1 / (0.4 * std::sqrt(2 * std::numbers::pi));
    const double edge = c * (2 * std::exp(-0.5 * 1.25 * 1.25) + std::exp(-0.5 * 3.75 * 3.75));
    const double middle = c * (1 + 2 * std::exp(-0.5 * 2.5 * 2.5));
    QVERIFY2(std::abs(est.density[0] - edge) < 1e-12, qPrintable(QString::number(est.density[0])));
    QVERIFY(std::abs(est.density[1] - middle) < 1e-12);
    QVERIFY(std::abs(est.density[2] - edge) < 1e-12);
  }

  /// A uniform sample on [0, 1]: reflected, the estimate keeps its height at the bounds and its
  /// mass inside them; unreflected, it halves at each bound and leaks below 0.
  void aBoundedSampleKeepsItsMassInside() {
    std::mt19937_64 engine(5);
    std::vector<double> x(2000);
    for (auto& v : x) v = (static_cast<double>(engine() >> 11) + 0.5) / 9007199254740992.0;
    const auto est = kernelDensityWithin(x, 0.0, 1.0, 1024);
    QVERIFY(est.grid.front() >= 0.0 && est.grid.back() <= 1.0);
    QVERIFY(std::abs(trapezoid(est.grid, est.density) - 1) < 0.01);
    QVERIFY2(est.density.front() > 0.85, qPrintable(QString::number(est.density.front())));
    QVERIFY(est.density.back() > 0.85);
    const auto plain = kernelDensity(x, 1024);
    QVERIFY(plain.grid.front() < 0.0);
    QVERIFY(exactDensity(x, 0.0, plain.bandwidth) < 0.6);
    // One-sided: a bound at 0 only.
    const auto half = kernelDensityWithin(skewedSample(3000, 2), 0.0, INFINITY, 1024, 0.0, 6.0);
    QCOMPARE(half.grid.front(), 0.0);
    QVERIFY(std::abs(trapezoid(half.grid, half.density) - 1) < 0.01);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, kernelDensityWithin(x, 1.0, 1.0));
  }

  void integratesToOneExact() {
    const auto x = skewedSample(300, 7);  // 300 · 1024 ≤ 1e6: exact path
    const auto est = kernelDensity(x, 1024, 0.0, 6.0);
    QVERIFY(std::abs(trapezoid(est.grid, est.density) - 1) < 1e-4);
  }

  void integratesToOneBinned() {
    const auto x = skewedSample(50000, 11);  // binned path
    const auto est = kernelDensity(x, 512, 0.0, 6.0);
    QVERIFY(std::abs(trapezoid(est.grid, est.density) - 1) < 1e-4);
  }

  void binnedMatchesExact() {
    const auto x = skewedSample(20000, 3);
    const auto est = kernelDensity(x, 512);
    double worst = 0, peak = 0;
    for (size_t k = 0; k < est.grid.size(); k += 7) {
      const double ref = exactDensity(x, est.grid[k], est.bandwidth);
      worst = std::max(worst, std::abs(est.density[k] - ref));
      peak = std::max(peak, ref);
    }
    QVERIFY2(worst < 2e-3 * peak, qPrintable(QString::number(worst / peak)));
  }

  void samplesOutsideTheGridStillCount() {
    // Grid covers only [0.5, 1.5]; the density there must include the mass of samples outside.
    const auto x = skewedSample(20000, 5);
    const auto est = kernelDensityOn(x, 0.5, 1.5, 200);
    for (size_t k = 0; k < est.grid.size(); k += 9) {
      const double ref = exactDensity(x, est.grid[k], est.bandwidth);
      QVERIFY(std::abs(est.density[k] - ref) < 2e-3 * ref);
    }
  }

  void rejectsBadInput() {
    const std::vector<double> empty;
    const std::vector<double> withNan{1.0, std::nan("")};
    const std::vector<double> ok{1.0, 2.0};
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, silvermanBandwidth(empty));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, kernelDensity(empty));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, kernelDensity(withNan));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, kernelDensityOn(ok, 0.0, 1.0, 1));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, kernelDensityOn(ok, 1.0, 1.0, 10));
  }
};

QTEST_APPLESS_MAIN(KernelDensityTest)
#include "kernel_density_test.moc"
