#include <QtTest>
#include <cmath>
#include <limits>
#include <vector>

#include "core/exec/cancellation.h"
#include "core/models/model.h"
#include "core/random/rng.h"
#include "support/model_fixtures.h"

using namespace dpsynth::core;
using dpsynth::test::vec;
using models::Family;

namespace {

constexpr Eigen::Index kRecords = 20000;
constexpr double kZ = 5.0;  ///< Monte Carlo tolerance in standard errors

struct Moments {
  double mean;
  double variance;
};

double logistic(double x) { return 1.0 / (1.0 + std::exp(-x)); }

/// Family mean and variance at linear predictor η; theta is constrained, k coefficients.
Moments familyMoments(Family family, const Eigen::VectorXd& theta, int k, double eta) {
  switch (family) {
    case Family::poisson:
      return {std::exp(eta), std::exp(eta)};
    case Family::negbin: {
      const double mu = std::exp(eta);
      return {mu, mu + mu * mu / theta[2 * k]};
    }
    case Family::beta: {
      const double phi = logistic(eta);
      return {phi, phi * (1.0 - phi) / (theta[k] + 1.0)};
    }
    case Family::normal:
      return {eta, theta[k] * theta[k]};
  }
  return {};
}

/// Sample mean and variance of values[mask] against the family's, within kZ standard errors
/// (the variance's error from the sample fourth moment).
bool momentsMatch(const std::vector<double>& values, Moments want, const char* what) {
  const double n = double(values.size());
  double mean = 0.0;
  for (double v : values) mean += v / n;
  double m2 = 0.0, m4 = 0.0;
  for (double v : values) {
    const double d = v - mean;
    m2 += d * d / n;
    m4 += d * d * d * d / n;
  }
  const double variance = m2 * n / (n - 1.0);
  const double seMean = std::sqrt(want.variance / n);
  const double seVar = std::sqrt(std::max(m4 - m2 * m2, 0.0) / n);
  bool ok = true;
  if (std::abs(mean - want.mean) > kZ * seMean) {
    qWarning("%s: mean %.6g, expected %.6g (se %.3g)", what, mean, want.mean, seMean);
    ok = false;
  }
  if (std::abs(variance - want.variance) > kZ * seVar) {
    qWarning("%s: variance %.6g, expected %.6g (se %.3g)", what, variance, want.variance, seVar);
    ok = false;
  }
  return ok;
}

/// θ per family for an intercept-only model (k = 0) or one binary covariate (k = 1).
Eigen::VectorXd fixedTheta(Family family, int k) {
  switch (family) {
    case Family::poisson:
      return k == 0 ? vec({std::log(7.0)}) : vec({std::log(5.0), 0.7});
    case Family::negbin:
      return k == 0 ? vec({std::log(12.0), 1.0, 2.5}) : vec({std::log(5.0), 0.7, 1.0, 1.0, 4.0});
    case Family::beta:
      return k == 0 ? vec({0.3, 5.0}) : vec({-0.5, 1.0, 10.0});
    case Family::normal:
      return k == 0 ? vec({3.0, 1.5}) : vec({1.0, -2.0, 0.5});
  }
  return {};
}

}  // namespace

class SimulateTest : public QObject {
  Q_OBJECT

 private slots:
  void momentsMatchTheFamily_data() {
    QTest::addColumn<int>("family");
    QTest::addColumn<int>("covariates");
    for (Family f : {Family::poisson, Family::negbin, Family::beta, Family::normal}) {
      for (int k : {0, 1}) {
        QTest::addRow("%s k=%d", models::familyName(f).c_str(), k) << int(f) << k;
      }
    }
  }

  void momentsMatchTheFamily() {
    QFETCH(int, family);
    QFETCH(int, covariates);
    const auto data = dpsynth::test::fixtureDataset(Family(family), kRecords, covariates, 31);
    const auto model = models::makeModel(data, {});
    const Eigen::VectorXd theta = fixedTheta(Family(family), covariates);
    Eigen::VectorXd out(kRecords);
    auto rng = random::makeRng(32);
    model->simulate(model->unconstrain(theta), rng, out);

    const int k = covariates + 1;
    // Intercept-only beta carries the mean φ itself in theta[0].
    const double eta0 =
        Family(family) == Family::beta && k == 1 ? std::log(theta[0] / (1.0 - theta[0])) : theta[0];
    for (int group = 0; group <= covariates; ++group) {
      std::vector<double> values;
      for (Eigen::Index i = 0; i < kRecords; ++i) {
        if (covariates == 0 || data.X(i, 1) == double(group)) values.push_back(out[i]);
      }
      QVERIFY(values.size() > 1000);
      const double eta = eta0 + (group == 1 ? theta[1] : 0.0);
      QVERIFY(momentsMatch(values, familyMoments(Family(family), theta, k, eta),
                           group == 0 ? "group 0" : "group 1"));
    }
    for (Eigen::Index i = 0; i < kRecords; ++i) {
      if (models::isCountFamily(Family(family)))
        QVERIFY(out[i] >= 0 && out[i] == std::floor(out[i]));
      if (Family(family) == Family::beta) QVERIFY(out[i] > 0.0 && out[i] < 1.0);
    }
  }

  void sameSeedSameOutput() {
    for (Family f : {Family::poisson, Family::negbin, Family::beta, Family::normal}) {
      const auto data = dpsynth::test::fixtureDataset(f, 500, 1, 41);
      const auto model = models::makeModel(data, {});
      const Eigen::VectorXd u = model->unconstrain(fixedTheta(f, 1));
      Eigen::VectorXd a(500), b(500), c(500);
      auto r1 = random::makeRng(7, 3);
      auto r2 = random::makeRng(7, 3);
      auto r3 = random::makeRng(8, 3);
      model->simulate(u, r1, a);
      model->simulate(u, r2, b);
      model->simulate(u, r3, c);
      QVERIFY(a == b);
      QVERIFY(a != c);
    }
  }

  /// Parameters far in the prior's tail (a fit whose records were all censored draws nearly
  /// from the prior) put a count's mean above 2⁶¹ or beyond the largest double: the draw is a
  /// huge count, never a failure that withholds the release (it threw, exit 1).
  void countsOfAnySizeAreDrawn() {
    for (Family f : {Family::poisson, Family::negbin}) {
      const auto data = dpsynth::test::fixtureDataset(f, 200, 1, 43);
      const auto model = models::makeModel(data, {});
      for (const double logMean : {50.0, 800.0}) {  // 5e21, and e^800 = inf
        Eigen::VectorXd theta = fixedTheta(f, 1);
        theta[0] = logMean;
        Eigen::VectorXd out(200);
        auto rng = random::makeRng(9);
        model->simulate(model->unconstrain(theta), rng, out);
        for (Eigen::Index i = 0; i < 200; ++i) {
          QVERIFY(std::isfinite(out[i]) && out[i] == std::floor(out[i]));
          if (f == Family::poisson && logMean == 50.0) {
            const double mean = std::exp(logMean + (data.X(i, 1) == 1.0 ? theta[1] : 0.0));
            QVERIFY2(std::abs(out[i] - mean) < 6 * std::sqrt(mean),
                     qPrintable(QString::number(out[i])));
          }
        }
      }
    }
    // Below 2⁶¹ the draws are poisson()'s own, so seeded outputs stay as they were.
    auto a = random::makeRng(4), b = random::makeRng(4);
    for (const double mean : {0.0, 0.3, 7.0, 1e6, 0x1p61}) {
      QCOMPARE(random::poissonCount(a, mean), static_cast<double>(random::poisson(b, mean)));
    }
    QCOMPARE(random::poissonCount(a, INFINITY), std::numeric_limits<double>::max());
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, random::poissonCount(a, NAN));
  }

  void stopRequestedEndsTheDraw() {
    // 10^7 draws took over half a second that Ctrl-C could not interrupt; the draw polls now.
    const auto model =
        models::makeModel(dpsynth::test::fixtureDataset(Family::poisson, 20000, 0, 5), {});
    Eigen::VectorXd out(20000);
    auto rng = random::makeRng(1);
    std::stop_source source;
    source.request_stop();
    QVERIFY_THROWS_EXCEPTION(exec::Cancelled,
                             model->simulate(model->initialPoint(), rng, out, source.get_token()));
  }

  void wrongOutputSizeThrows() {
    const auto model =
        models::makeModel(dpsynth::test::fixtureDataset(Family::normal, 10, 0, 1), {});
    Eigen::VectorXd out(9);
    auto rng = random::makeRng(1);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             model->simulate(model->initialPoint(), rng, out));
  }
};

QTEST_APPLESS_MAIN(SimulateTest)
#include "simulate_test.moc"
