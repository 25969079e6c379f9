/// The exact sampler's base axes: an interval's mass must be the integral of the density, and
/// draw(lo, hi, u) must put exactly the share u of that mass below it, far into the tails too
/// (the sampler is exact only if proposals follow the base restricted to each cell).
#include "core/privacy/prior_axis.h"

#include <QtTest>
#include <cmath>
#include <limits>
#include <vector>

#include "core/random/rng.h"

using namespace dpsynth::core;
using namespace dpsynth::core::privacy;

namespace {

constexpr double kAxisInfinity = std::numeric_limits<double>::infinity();

std::vector<PriorAxis> axes() {
  return {PriorAxis::cauchy(1.0), PriorAxis::cauchy(10.0), PriorAxis::halfCauchy(5.0),
          PriorAxis::unit(), PriorAxis::paretoExcess(0.1, 1.5)};
}

/// ∫ density over [lo, hi] by Simpson's rule in the variable x = lo + (hi − lo)·s.
double integrate(const PriorAxis& axis, double lo, double hi) {
  const int n = 20000;
  const double h = (hi - lo) / n;
  double sum = 0.0;
  for (int i = 0; i <= n; ++i) {
    const double w = i == 0 || i == n ? 1.0 : (i % 2 == 1 ? 4.0 : 2.0);
    sum += w * std::exp(axis.logDensity(lo + i * h));
  }
  return sum * h / 3.0;
}

}  // namespace

class PriorAxisTest : public QObject {
  Q_OBJECT

 private slots:
  void massIsTheIntegralOfTheDensity() {
    for (const PriorAxis& axis : axes()) {
      const double lo = axis.kind() == PriorAxis::Kind::cauchy ? -3.0 : 0.0;
      for (double hi : {0.001, 0.3, 0.9, 4.0}) {
        if (axis.kind() == PriorAxis::Kind::unit && hi > 1.0) continue;
        const double want = integrate(axis, lo, hi);
        QVERIFY2(std::abs(axis.mass(lo, hi) - want) <= 1e-9 * want,
                 qPrintable(QString("%1 vs %2").arg(axis.mass(lo, hi)).arg(want)));
      }
      QVERIFY(std::abs(axis.mass(axis.lowest(), axis.highest()) - 1.0) < 1e-15);
    }
  }

  void piecesAddUpToTheWhole() {
    random::Rng rng = random::makeRng(3);
    for (const PriorAxis& axis : axes()) {
      std::vector<double> cuts{axis.lowest(), axis.highest()};
      for (int k = 0; k < 200; ++k) {
        const std::size_t i = random::uniformIndex(rng, cuts.size() - 1);
        const double mid = axis.split(cuts[i], cuts[i + 1]);
        if (mid > cuts[i] && mid < cuts[i + 1]) cuts.insert(cuts.begin() + i + 1, mid);
      }
      double total = 0.0;
      for (std::size_t i = 0; i + 1 < cuts.size(); ++i) total += axis.mass(cuts[i], cuts[i + 1]);
      QVERIFY2(std::abs(total - 1.0) < 1e-12, qPrintable(QString::number(total - 1.0)));
    }
  }

  void drawPutsTheRightShareBelowIt() {
    // Intervals in the body, far out in both tails and unbounded, where a quantile near 1 would
    // have lost every digit.
    const std::vector<std::pair<double, double>> cauchyIntervals{
        {-kAxisInfinity, kAxisInfinity}, {-2.0, 3.0},   {1e12, 1e13},   {1e15, kAxisInfinity},
        {-kAxisInfinity, -1e15},         {-1e-9, 1e-9}, {-5.0, -4.999}, {0.5, 0.5000001}};
    const std::vector<std::pair<double, double>> positiveIntervals{
        {0.0, kAxisInfinity}, {0.0, 1e-12}, {3.0, 3.0001}, {1e10, 1e11}, {1e14, kAxisInfinity}};
    for (const PriorAxis& axis : axes()) {
      const auto& intervals =
          axis.kind() == PriorAxis::Kind::cauchy ? cauchyIntervals : positiveIntervals;
      for (auto [lo, hi] : intervals) {
        if (axis.kind() == PriorAxis::Kind::unit) {
          if (std::isinf(hi) || hi > 1.0) hi = lo < 0.5 ? 0.75 : 1.0;
          if (lo >= hi) lo = hi / 2;
        }
        const double whole = axis.mass(lo, hi);
        QVERIFY(whole > 0.0);
        for (double u : {1e-12, 0.01, 0.25, 0.5, 0.9, 1.0 - 1e-9}) {
          const double x = axis.draw(lo, hi, u);
          QVERIFY(x >= lo && x <= hi);
          const double share = axis.mass(lo, x) / whole;
          // Allowed: 1e-9 relative, plus the share one rounding of x can move for a narrow
          // interval (finite ends only).
          const double size = std::max(std::isfinite(lo) ? std::abs(lo) : 0.0,
                                       std::isfinite(hi) ? std::abs(hi) : 0.0);
          const double resolution =
              std::isfinite(hi - lo)
                  ? 8.0 * std::numeric_limits<double>::epsilon() * size / (hi - lo)
                  : 0.0;
          QVERIFY2(std::abs(share - u) <= 1e-9 * std::max(u, 1e-3) + resolution,
                   qPrintable(QString("kind %1 [%2, %3] u=%4: share %5")
                                  .arg(static_cast<int>(axis.kind()))
                                  .arg(lo)
                                  .arg(hi)
                                  .arg(u)
                                  .arg(share, 0, 'g', 17)));
        }
      }
    }
  }

  void atanDifferenceKeepsItsDigitsInTheTails() {
    // atan(b) − atan(a) for a, b in the same tail is 1/a − 1/b to first order: the plain
    // difference of two numbers near π/2 would keep none of it.
    const double a = 1e12, b = 2e12;
    const double want = 1.0 / a - 1.0 / b;  // error of order 1/a³ = 1e-36
    QVERIFY(std::abs(detail::atanDifference(a, b) - want) <= 1e-15 * want);
    QVERIFY(std::abs(detail::atanDifference(-b, -a) - want) <= 1e-15 * want);
    QVERIFY(std::abs(detail::atanDifference(a, kAxisInfinity) - 1.0 / a) <= 1e-15 / a);
    QCOMPARE(detail::atanDifference(-kAxisInfinity, kAxisInfinity), M_PI);
  }
};

QTEST_APPLESS_MAIN(PriorAxisTest)
#include "prior_axis_test.moc"
