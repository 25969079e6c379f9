/// The intercept priors of the exact sampler. negbin's, with its scale integrated out, is a
/// fixed mixture over a grid of σ; it must match the integral it stands for, which has a closed
/// form: ∫ Normal(β | 0, σ) half-t(3, 0, 1)(σ) dσ = K·((1 + c)·e^c·E1(c) − 1) with c = β²/6 and
/// K = 2/(π √(6π)) (substitute s = β²/(2σ²)). Its bounds over intervals must hold, and σ | β must
/// be drawn with the mixture's conditional weights.
#include "core/privacy/location_prior.h"

#include <QtTest>
#include <boost/math/special_functions/expint.hpp>
#include <cmath>
#include <numbers>
#include <vector>

#include "core/random/rng.h"

using namespace dpsynth::core;
using namespace dpsynth::core::privacy;

namespace {

/// The σ-integrated density in closed form.
double integratedDensity(double beta) {
  const double c = beta * beta / 6.0;
  const double k = 2.0 / (std::numbers::pi * std::sqrt(6.0 * std::numbers::pi));
  return k * ((1.0 + c) * std::exp(c) * boost::math::expint(1, c) - 1.0);
}

}  // namespace

class LocationPriorTest : public QObject {
  Q_OBJECT

 private slots:
  void negbinMixtureIsTheScaleIntegral() {
    const LocationPrior prior = LocationPrior::negbinIntercept();
    QCOMPARE(prior.components(), std::size_t(LocationPrior::kNegbinComponents));
    double total = 0.0;
    for (std::size_t k = 0; k < prior.components(); ++k) total += prior.componentWeight(k);
    QVERIFY(std::abs(total - 1.0) < 1e-12);
    for (double beta : {1e-3, 0.01, 0.1, 0.5, 1.0, 2.0, 5.0, 10.0, 40.0}) {
      const double want = integratedDensity(beta);
      const double got = std::exp(prior.logDensity(beta));
      QVERIFY2(
          std::abs(got - want) <= 1e-6 * want,
          qPrintable(
              QString("beta %1: %2 vs %3").arg(beta).arg(got, 0, 'g', 12).arg(want, 0, 'g', 12)));
    }
  }

  void normalComponentIsTheNormalDensity() {
    const LocationPrior prior = LocationPrior::normal(10.0);
    for (double beta : {-30.0, -1.0, 0.0, 2.5, 17.0}) {
      const double want = -std::log(10.0 * std::sqrt(2.0 * std::numbers::pi)) - beta * beta / 200.0;
      QVERIFY(std::abs(prior.logDensity(beta) - want) < 1e-12);
      QVERIFY(std::abs(prior.logRatio(beta) - (want - prior.axis().logDensity(beta))) < 1e-12);
    }
  }

  void ratioBoundsHoldOverIntervals() {
    random::Rng rng = random::makeRng(9);
    for (const LocationPrior& prior : {LocationPrior::normal(10.0), LocationPrior::normal(0.3),
                                       LocationPrior::negbinIntercept()}) {
      for (int i = 0; i < 2000; ++i) {
        const double scale = std::pow(10.0, 6.0 * random::uniform01(rng) - 3.0);
        double lo = scale * random::standardNormal(rng), hi = scale * random::standardNormal(rng);
        if (lo > hi) std::swap(lo, hi);
        if (i % 10 == 0) lo = -std::numeric_limits<double>::infinity();
        if (i % 10 == 1) hi = std::numeric_limits<double>::infinity();
        const double upper = prior.logRatioUpper(lo, hi), lower = prior.logRatioLower(lo, hi);
        for (int k = 0; k < 20; ++k) {
          const double x = prior.axis().draw(lo, hi, random::uniformOpen01(rng));
          if (!std::isfinite(x)) continue;
          const double r = prior.logRatio(x);
          QVERIFY2(r <= upper + 1e-9 && r >= lower - 1e-9,
                   qPrintable(QString("[%1, %2] at %3: %4 not in [%5, %6]")
                                  .arg(lo)
                                  .arg(hi)
                                  .arg(x)
                                  .arg(r)
                                  .arg(lower)
                                  .arg(upper)));
        }
      }
    }
  }

  void scaleGivenInterceptFollowsTheMixture() {
    const LocationPrior prior = LocationPrior::negbinIntercept();
    random::Rng rng = random::makeRng(4);
    const double beta = 0.7;
    std::vector<double> want(prior.components());
    double total = 0.0;
    for (std::size_t k = 0; k < want.size(); ++k) {
      const double sd = prior.componentSd(k);
      want[k] = prior.componentWeight(k) / sd * std::exp(-beta * beta / (2.0 * sd * sd));
      total += want[k];
    }
    const int draws = 200000;
    std::vector<int> count(want.size(), 0);
    for (int i = 0; i < draws; ++i) ++count[prior.drawComponent(beta, rng)];
    // Components with an expected count of at least 500: each within 5 binomial sds.
    for (std::size_t k = 0; k < want.size(); ++k) {
      const double p = want[k] / total, expected = p * draws;
      if (expected < 500) continue;
      const double sd = std::sqrt(expected * (1.0 - p));
      QVERIFY2(std::abs(count[k] - expected) < 5.0 * sd,
               qPrintable(QString("component %1: %2 vs %3").arg(k).arg(count[k]).arg(expected)));
    }
  }
};

QTEST_APPLESS_MAIN(LocationPriorTest)
#include "location_prior_test.moc"
