/// negbin's coefficient prior with σ integrated out: the closed form against quadrature of its
/// definition ∫ Normal(β | 0, σ) half-t(3)(σ) dσ (value and slope to 1e-10 relative, from the
/// spike at 0 to the |β|⁻⁴ tail), σ | β's distribution function against quadrature, the normal
/// score round trip, σ | β's root search against bisection, and SpikeMap: an exact bijection whose
/// prior density of b has a bounded gradient where log p(β)'s grows like 1/(|β| log(1/|β|)).
#include "core/models/scale_mixture_prior.h"

#include <QtTest>
#include <cmath>
#include <numbers>
#include <vector>

using dpsynth::core::models::ScaleMixturePrior;
using dpsynth::core::models::SpikeMap;

namespace {

constexpr double kHalfLog2PiMixture = 0.91893853320467274178;

/// log half-t(3, 0, 1)(σ).
double logHalfT3(double sigma) {
  return std::log(4.0 / (std::numbers::pi * std::sqrt(3.0))) -
         2.0 * std::log1p(sigma * sigma / 3.0);
}

/// ∫ f(l) dl over l = log σ by the trapezoid rule on a fine grid: the integrands below decay
/// double-exponentially as l → −∞ and exponentially as l → ∞, so the rule converges
/// geometrically (its error is far below 1e-12 at this step).
template <class F>
double integrateLogSigma(F f, double lo = -80.0, double hi = 40.0, double step = 0.004) {
  const int n = static_cast<int>((hi - lo) / step);
  double sum = 0.0;
  for (int i = 0; i <= n; ++i) sum += (i == 0 || i == n ? 0.5 : 1.0) * f(lo + i * step);
  return sum * step;
}

/// p(β) and dp/dβ by quadrature.
double densityByQuadrature(double beta, double* slope = nullptr) {
  auto joint = [beta](double l) {
    const double sigma = std::exp(l);
    return std::exp(-l - kHalfLog2PiMixture - beta * beta / (2.0 * sigma * sigma) +
                    logHalfT3(sigma) + l);
  };
  if (slope) {
    *slope = integrateLogSigma([&](double l) { return joint(l) * (-beta / std::exp(2.0 * l)); });
  }
  return integrateLogSigma(joint);
}

double relative(double got, double want) { return std::abs(got - want) / std::abs(want); }

}  // namespace

class ScaleMixturePriorTest : public QObject {
  Q_OBJECT

 private slots:
  void densityAndSlopeMatchQuadrature() {
    for (double beta : {1e-12, 1e-6, 1e-3, 0.05, 0.3, 1.0, 2.5, 7.0, 17.0, 17.5, 40.0, 300.0}) {
      for (double sign : {1.0, -1.0}) {
        const double b = sign * beta;
        double slope = 0.0;
        const double want = densityByQuadrature(b, &slope);
        double dLog = 0.0;
        const double got = ScaleMixturePrior::logDensity(b, &dLog);
        QVERIFY2(relative(std::exp(got), want) < 1e-10,
                 qPrintable(QString("beta %1: %2 vs %3")
                                .arg(b)
                                .arg(std::exp(got), 0, 'g', 16)
                                .arg(want, 0, 'g', 16)));
        QVERIFY2(relative(dLog, slope / want) < 1e-10,
                 qPrintable(QString("beta %1: slope %2 vs %3")
                                .arg(b)
                                .arg(dLog, 0, 'g', 16)
                                .arg(slope / want, 0, 'g', 16)));
      }
    }
  }

  /// G's two evaluations meet: at the switch to the continued fraction (a = 1) the two sides
  /// agree to rounding, so log p has no step there.
  void branchesAgreeAtTheirBorders() {
    double below = 0.0, above = 0.0;
    const double gBelow = ScaleMixturePrior::g(std::nextafter(1.0, 0.0), &below);
    const double gAbove = ScaleMixturePrior::g(1.0, &above);
    QVERIFY(relative(gBelow, gAbove) < 1e-12);
    QVERIFY(relative(below, above) < 1e-11);
  }

  void conditionalCdfMatchesQuadrature() {
    for (double beta : {1e-4, 0.02, 0.4, 3.0, 30.0}) {
      const double total = densityByQuadrature(beta);
      for (double sigma : {1e-5, 1e-3, 0.05, 0.5, 2.0, 10.0, 200.0}) {
        auto joint = [beta, sigma](double l) {
          if (l > std::log(sigma)) return 0.0;
          const double s = std::exp(l);
          return std::exp(-kHalfLog2PiMixture - beta * beta / (2.0 * s * s) + logHalfT3(s));
        };
        // Up to log σ exactly, where the integrand is cut: Simpson's rule (fourth order; the
        // trapezoid's second-order end error would be 1e-8 here).
        const double top = std::log(sigma);
        const double from = std::log(beta) - 6.0;  // the integrand is below e^{−e^{12}/2} there
        if (top <= from) continue;
        const int n = 60000;
        const double h = (top - from) / n;
        double sum = joint(from) + joint(top);
        for (int i = 1; i < n; ++i) sum += (i % 2 == 1 ? 4.0 : 2.0) * joint(from + i * h);
        const double lower = sum * h / 3.0 / total;
        double gotLower = 0.0, gotUpper = 0.0;
        ScaleMixturePrior::conditionalCdf(beta, sigma, gotLower, gotUpper);
        if (lower > 1e-12) {  // deeper tails are beyond the quadrature (checked elsewhere)
          QVERIFY2(relative(gotLower, lower) < 1e-8,
                   qPrintable(QString("beta %1 sigma %2: %3 vs %4")
                                  .arg(beta)
                                  .arg(sigma)
                                  .arg(gotLower, 0, 'g', 12)
                                  .arg(lower, 0, 'g', 12)));
        }
        QVERIFY(std::abs(gotLower + gotUpper - 1.0) < 1e-15);
      }
    }
  }

  /// σ so small that 3/σ² overflows: all of σ | β's mass lies above it.
  void conditionalCdfBelowTheSmallestScale() {
    for (double beta : {1e-4, 0.3, 40.0}) {
      double lower = -1.0, upper = -1.0;
      ScaleMixturePrior::conditionalCdf(beta, 1e-160, lower, upper);
      QCOMPARE(lower, 0.0);
      QCOMPARE(upper, 1.0);
    }
  }

  /// Deep in the lower tail, against the closed form evaluated to 40 digits (mpmath's
  /// quadrature of the definition agrees to 25 digits there).
  void conditionalCdfDeepTail() {
    double lower = 0.0, upper = 0.0;
    ScaleMixturePrior::conditionalCdf(1e-4, 1e-5, lower, upper);
    QVERIFY(relative(lower, 2.030168193506673083e-25) < 1e-12);
  }

  /// Deep in the upper tail, where 1 − lower would round to 0 or keep a few digits: against
  /// mpmath's quadrature of the definition at 40 digits.
  void conditionalCdfDeepUpperTail() {
    double lower = 0.0, upper = 0.0;
    ScaleMixturePrior::conditionalCdf(2.0, 1e6, lower, upper);
    QVERIFY(relative(upper, 1.5341366013775232953e-23) < 1e-13);
    QCOMPARE(lower, 1.0);
    ScaleMixturePrior::conditionalCdf(0.01, 1e3, lower, upper);
    QVERIFY(relative(upper, 4.7743909080175911031e-13) < 1e-13);
  }

  void normalScoreRoundTrip() {
    for (double beta : {-5.0, -0.3, 1e-7, 0.01, 0.7, 12.0, 400.0}) {
      // Out to ±12 (tails of 1e-33), both sides solved in their own tail's probabilities.
      for (double w : {-12.0, -8.0, -4.0, -1.3, 0.0, 0.4, 2.2, 4.5, 8.0, 12.0}) {
        const double sigma = ScaleMixturePrior::sigmaFromScore(beta, w);
        QVERIFY(sigma > 0.0 && std::isfinite(sigma));
        QVERIFY2(std::abs(ScaleMixturePrior::normalScore(beta, sigma) - w) < 1e-10,
                 qPrintable(QString("beta %1 w %2 sigma %3").arg(beta).arg(w).arg(sigma)));
      }
      // Monotone in w.
      QVERIFY(ScaleMixturePrior::sigmaFromScore(beta, -1.0) <
              ScaleMixturePrior::sigmaFromScore(beta, 1.0));
    }
  }

  /// The root search's stopping rule (it stops after a Halley step of 1e-5, whose error is
  /// O(1e-15)) against bisection on the distribution function to rounding: a rule that stopped
  /// a step earlier (1e-3) leaves 5e-10, which this catches.
  void sigmaFromScoreMatchesBisection() {
    for (double beta : {-3.0, 1e-60, 1e-7, 0.02, 0.4, 1.2, 6.5, 15.0, 90.0}) {
      for (double w : {-9.0, -3.1, -0.41, 0.0, 0.11, 1.7, 3.2, 7.5}) {
        // Each side in its own tail's probability, as sigmaFromScore solves it.
        const bool left = w <= 0.0;
        const double target = 0.5 * std::erfc(std::abs(w) / std::numbers::sqrt2);
        double lo = -700.0, hi = 40.0;  // log σ
        for (int i = 0; i < 200 && hi - lo > 1e-15 * std::max(1.0, std::abs(lo)); ++i) {
          const double mid = 0.5 * (lo + hi);
          double lower = 0.0, upper = 0.0;
          ScaleMixturePrior::conditionalCdf(beta, std::exp(mid), lower, upper);
          const bool below = left ? lower < target : upper > target;
          (below ? lo : hi) = mid;
        }
        const double want = 0.5 * (lo + hi);
        const double got = std::log(ScaleMixturePrior::sigmaFromScore(beta, w));
        QVERIFY2(std::abs(got - want) <= 1e-11 * std::max(1.0, std::abs(want)),
                 qPrintable(QString("beta %1 w %2: log sigma %3, bisection %4")
                                .arg(beta)
                                .arg(w)
                                .arg(got, 0, 'g', 17)
                                .arg(want, 0, 'g', 17)));
      }
    }
  }

  void spikeMapIsABijectionWithTheRightDensity() {
    for (double width : {1e-7, 0.003, 0.2, 0.5}) {
      const SpikeMap map(width);
      for (double beta : {-3.0, -width * 1.5, -width, -width * 0.3, -1e-9, 0.0, 1e-200, 1e-30,
                          width * 1e-4, width * 0.9, width, width * 1.0001, 0.8, 25.0}) {
        const double b = map.fromBeta(beta);
        double slope = 0.0, logPrior = 0.0, dLogPrior = 0.0;
        const double back = map.toBeta(b, slope, logPrior, dLogPrior);
        QVERIFY2(std::abs(back - beta) <= 1e-13 * std::abs(beta) + 1e-300,
                 qPrintable(QString("width %1 beta %2 back %3").arg(width).arg(beta).arg(back)));
        if (beta == 0.0) continue;
        // At ±β₁ the map is C¹ only: the density's slope jumps by 1/(β₁k) there.
        const bool atKink = std::abs(std::abs(beta) - width) < 1e-9 * width;
        // The density of b is p(β)·dβ/db, and slope is dβ/db.
        QVERIFY(std::abs(logPrior - (ScaleMixturePrior::logDensity(beta) + std::log(slope))) <
                1e-10);
        const double hSlope = 1e-6 * std::abs(b);
        const double fd = (map.toBeta(b + hSlope) - map.toBeta(b - hSlope)) / (2.0 * hSlope);
        QVERIFY2(std::abs(fd - slope) < 1e-6 * slope + 1e-12,
                 qPrintable(QString("width %1 beta %2 slope %3 fd %4")
                                .arg(width)
                                .arg(beta)
                                .arg(slope)
                                .arg(fd)));
        const double h = 1e-6 * std::max(std::abs(b), width);
        double s1, s2, lp1 = 0.0, lp2 = 0.0, d1, d2;
        map.toBeta(b + h, s1, lp1, d1);
        map.toBeta(b - h, s2, lp2, d2);
        const double fdPrior = (lp1 - lp2) / (2.0 * h);
        QVERIFY2(
            atKink || std::abs(fdPrior - dLogPrior) < 1e-5 * (std::abs(dLogPrior) + 1.0 / width),
            qPrintable(QString("width %1 beta %2 dLogPrior %3 fd %4")
                           .arg(width)
                           .arg(beta)
                           .arg(dLogPrior)
                           .arg(fdPrior)));
      }
    }
  }

  /// The point of SpikeMap: in units of the width, the prior of b has a bounded slope right down
  /// to b = 0, while log p(β) has a slope of 1/(|β| log(1/|β|)) (10¹⁴ at β = 10⁻¹⁶ width).
  void spikeMapRemovesTheSpike() {
    for (double width : {1e-8, 1e-3, 0.5}) {
      const SpikeMap map(width);
      double worst = 0.0, worstRaw = 0.0;
      for (double x = 1e-18; x <= 1.5; x *= 1.7) {
        const double b = map.fromBeta(x * width);
        double slope = 0.0, logPrior = 0.0, dLogPrior = 0.0;
        map.toBeta(b, slope, logPrior, dLogPrior);
        worst = std::max(worst, std::abs(dLogPrior) * width);
        double raw = 0.0;
        ScaleMixturePrior::logDensity(x * width, &raw);
        worstRaw = std::max(worstRaw, std::abs(raw) * width);
      }
      QVERIFY2(worst < 2.0, qPrintable(QString("width %1: slope %2").arg(width).arg(worst)));
      QVERIFY(worstRaw > 1e12);  // the spike this removes
    }
  }
};

QTEST_APPLESS_MAIN(ScaleMixturePriorTest)
#include "scale_mixture_prior_test.moc"
