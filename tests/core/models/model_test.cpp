#include "core/models/model.h"

#include <QtTest>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <thread>
#include <vector>

#include "core/random/rng.h"
#include "support/model_fixtures.h"

using namespace dpsynth::core;
using dpsynth::test::vec;
using models::Family;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

const std::vector<Family> kFamilies{Family::poisson, Family::negbin, Family::beta, Family::normal};

std::vector<std::string> names(std::initializer_list<const char*> list) {
  return {list.begin(), list.end()};
}

}  // namespace

/// Transforms, names, starting points, validation and numerical robustness.
class ModelTest : public QObject {
  Q_OBJECT

 private slots:
  void parameterNamesFollowTheSpec() {
    auto namesOf = [](Family f, int k) {
      return models::makeModel(dpsynth::test::fixtureDataset(f, 30, k, 1), {})->parameterNames();
    };
    QVERIFY(namesOf(Family::poisson, 0) == names({"beta[0]"}));
    QVERIFY(namesOf(Family::poisson, 2) == names({"beta[0]", "beta[1]", "beta[2]"}));
    QVERIFY(namesOf(Family::negbin, 0) == names({"beta[0]", "sigma[0]", "phi"}));
    QVERIFY(namesOf(Family::negbin, 1) ==
            names({"beta[0]", "beta[1]", "sigma[0]", "sigma[1]", "phi"}));
    QVERIFY(namesOf(Family::beta, 0) == names({"phi", "lambda"}));
    QVERIFY(namesOf(Family::beta, 2) == names({"beta[0]", "beta[1]", "beta[2]", "lambda"}));
    QVERIFY(namesOf(Family::normal, 0) == names({"beta[0]", "sigma"}));
    QVERIFY(namesOf(Family::normal, 1) == names({"beta[0]", "beta[1]", "sigma"}));
    for (Family f : kFamilies) {
      for (int k : {0, 1, 2}) {
        const auto model = models::makeModel(dpsynth::test::fixtureDataset(f, 30, k, 1), {});
        QCOMPARE(int(model->parameterNames().size()), model->dim());
        QCOMPARE(model->records(), std::size_t(30));
        QCOMPARE(model->family(), f);
      }
    }
  }

  void constrainUnconstrainRoundTrip() {
    auto rng = random::makeRng(5);
    for (Family f : kFamilies) {
      for (int k : {0, 2}) {
        const auto model = models::makeModel(dpsynth::test::fixtureDataset(f, 30, k, 2), {});
        for (int rep = 0; rep < 20; ++rep) {
          Eigen::VectorXd u(model->dim());
          for (Eigen::Index j = 0; j < u.size(); ++j) u[j] = random::normal(rng, 0.0, 2.0);
          const Eigen::VectorXd back = model->unconstrain(model->constrain(u));
          QVERIFY((back - u).cwiseAbs().maxCoeff() < 1e-10);
        }
      }
    }
  }

  void constrainedValuesHaveTheRightSupport() {
    const Eigen::VectorXd u = vec({0.4, -0.5, 0.7});
    const auto negbin =
        models::makeModel(dpsynth::test::fixtureDataset(Family::negbin, 30, 0, 3), {});
    const Eigen::VectorXd nb = negbin->constrain(u);
    QCOMPARE(nb[0], 0.4);
    QCOMPARE(nb[1], std::exp(-0.5));
    QCOMPARE(nb[2], std::exp(-0.7));  // u holds log τ, τ = 1/φ
    const auto beta = models::makeModel(dpsynth::test::fixtureDataset(Family::beta, 30, 0, 3), {});
    const Eigen::VectorXd b = beta->constrain(vec({0.0, std::log(2.0)}));
    QCOMPARE(b[0], 0.5);
    QCOMPARE(b[1], 2.1);
    const auto normal =
        models::makeModel(dpsynth::test::fixtureDataset(Family::normal, 30, 0, 3), {});
    QCOMPARE(normal->constrain(vec({1.0, 0.0}))[1], 1.0);
  }

  void unconstrainRejectsValuesOutsideTheSupport() {
    const auto beta = models::makeModel(dpsynth::test::fixtureDataset(Family::beta, 30, 0, 3), {});
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, beta->unconstrain(vec({1.2, 3.0})));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, beta->unconstrain(vec({0.5, 0.05})));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, beta->unconstrain(vec({0.5})));
    const auto normal =
        models::makeModel(dpsynth::test::fixtureDataset(Family::normal, 30, 0, 3), {});
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, normal->unconstrain(vec({0.0, -1.0})));
    const auto negbin =
        models::makeModel(dpsynth::test::fixtureDataset(Family::negbin, 30, 0, 3), {});
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, negbin->unconstrain(vec({0.0, 1.0, 0.0})));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, negbin->constrain(vec({0.0, 1.0})));
  }

  /// The start is data-informed: close to the moment estimates, with a finite density.
  void initialPointIsDataInformed() {
    for (Family f : kFamilies) {
      for (int k : {0, 2}) {
        const auto data = dpsynth::test::fixtureDataset(f, 400, k, 4);
        const auto model = models::makeModel(data, {});
        const Eigen::VectorXd theta = model->constrain(model->initialPoint());
        QVERIFY(std::isfinite(model->logDensity(model->initialPoint())));
        const double mean = data.y.mean();
        switch (f) {
          case Family::poisson:
          case Family::negbin:
            QVERIFY(std::abs(std::exp(theta[0]) / mean - 1.0) < 1e-12);
            break;
          case Family::beta: {
            const double phi = k == 0 ? theta[0] : 1.0 / (1.0 + std::exp(-theta[0]));
            QVERIFY(std::abs(phi - mean) < 1e-12);
            break;
          }
          case Family::normal:
            if (k == 0) {
              QVERIFY(std::abs(theta[0] - mean) < 1e-12);
            } else {
              // Regressions start at the ridge fit under the prior: here (a weak prior) the
              // least-squares fit, with σ at its residual sd.
              const Eigen::VectorXd ols = data.X.colPivHouseholderQr().solve(data.y);
              const double rss = (data.y - data.X * ols).squaredNorm();
              QVERIFY((theta.head(k + 1) - ols).cwiseAbs().maxCoeff() < 1e-3);
              QVERIFY(std::abs(theta[k + 1] / std::sqrt(rss / double(data.size())) - 1) < 1e-3);
            }
            break;
        }
      }
    }
    // Negbin moments: var = μ + μ²/φ with the fixture's φ = 3, σ_j = 1.
    const auto nb =
        models::makeModel(dpsynth::test::fixtureDataset(Family::negbin, 2000, 0, 4), {});
    const Eigen::VectorXd theta = nb->constrain(nb->initialPoint());
    QCOMPARE(theta[1], 1.0);
    QVERIFY(theta[2] > 2.0 && theta[2] < 4.5);
    const auto beta =
        models::makeModel(dpsynth::test::fixtureDataset(Family::beta, 2000, 0, 4), {});
    const double lambda = beta->constrain(beta->initialPoint())[1];
    QVERIFY(lambda > 6.0 && lambda < 10.0);  // fixture λ = 8
    const auto normal =
        models::makeModel(dpsynth::test::fixtureDataset(Family::normal, 2000, 0, 4), {});
    const double sigma = normal->constrain(normal->initialPoint())[1];
    QVERIFY(sigma > 1.8 && sigma < 2.2);  // fixture σ = 2
  }

  void validationRejectsBadInput() {
    const auto data = dpsynth::test::fixtureDataset(Family::normal, 10, 1, 6);
    using W = models::LikelihoodWeights;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             models::makeModel(data, {}, W{std::vector<double>(9, 1.0)}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             models::makeModel(data, {}, W{std::vector<double>(11, 1.0)}));
    for (double bad : {-0.1, 1.5, kNaN}) {
      std::vector<double> alpha(10, 0.5);
      alpha[3] = bad;
      QVERIFY_THROWS_EXCEPTION(std::invalid_argument, models::makeModel(data, {}, W{alpha}));
    }
    for (double clamp : {0.0, -1.0, kNaN}) {
      QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                               models::makeModel(data, {}, W{{}, -clamp, clamp}));
    }
    for (double scale : {0.0, -2.0, kNaN, kInf}) {
      QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                               models::makeModel(data, {Family::normal, scale}));
    }
    // No records with covariates: no design to fit (an intercept-only one is the prior, below).
    auto emptyDesign = dpsynth::test::makeDataset(Family::normal, std::vector<double>{});
    emptyDesign.X.resize(0, 2);
    emptyDesign.designNames.push_back("x");
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, models::makeModel(emptyDesign, {}));
    auto noIntercept = data;
    noIntercept.X(2, 0) = 0.5;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, models::makeModel(noIntercept, {}));
    auto shortDesign = data;
    shortDesign.X.conservativeResize(9, Eigen::NoChange);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, models::makeModel(shortDesign, {}));
    auto nanOutcome = data;
    nanOutcome.y[0] = kNaN;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, models::makeModel(nanOutcome, {}));
    // Outcomes outside the family's support.
    QVERIFY_THROWS_EXCEPTION(
        std::invalid_argument,
        models::makeModel(dpsynth::test::makeDataset(Family::poisson, std::vector<double>{1, -2}),
                          {}));
    QVERIFY_THROWS_EXCEPTION(
        std::invalid_argument,
        models::makeModel(dpsynth::test::makeDataset(Family::negbin, std::vector<double>{1, -1}),
                          {}));
    QVERIFY_THROWS_EXCEPTION(
        std::invalid_argument,
        models::makeModel(dpsynth::test::makeDataset(Family::beta, std::vector<double>{0.5, 1.0}),
                          {}));
    QVERIFY_THROWS_EXCEPTION(
        std::invalid_argument,
        models::makeModel(dpsynth::test::makeDataset(Family::beta, std::vector<double>{0.0, 0.5}),
                          {}));
    // Valid edge cases.
    models::makeModel(data, {}, W{std::vector<double>(10, 0.0), -1e-9, 1e-9});
    QCOMPARE(
        models::makeModel(data, {}, W{std::vector<double>(10, 0.25), -3.0, 3.0})->weights().upper,
        3.0);
  }

  /// An empty database (a release whose count is confidential may hold none, SPEC §0): the
  /// intercept-only model's density is the prior's, the same as one record's at weight 0,
  /// gradient included, for every family.
  void anEmptyDatabaseIsThePrior() {
    for (Family family : {Family::poisson, Family::negbin, Family::beta, Family::normal}) {
      const auto none = dpsynth::test::makeDataset(family, std::vector<double>{});
      const double inside = family == Family::beta ? 0.3 : 2.0;
      const auto one = dpsynth::test::makeDataset(family, std::vector<double>{inside});
      const auto empty = models::makeModel(none, {family});
      const auto zero = models::makeModel(one, {family}, models::LikelihoodWeights{{0.0}});
      QCOMPARE(empty->dim(), zero->dim());
      QVERIFY(empty->initialPoint().allFinite());
      for (double shift : {-0.7, 0.0, 0.4}) {
        const Eigen::VectorXd u = Eigen::VectorXd::Constant(empty->dim(), shift);
        Eigen::VectorXd g0(empty->dim()), g1(empty->dim());
        const double a = empty->logDensity(u, g0), b = zero->logDensity(u, g1);
        QVERIFY2(std::abs(a - b) <= 1e-12 * (1.0 + std::abs(b)),
                 qPrintable(QString("%1: %2 vs %3").arg(int(family)).arg(a).arg(b)));
        QVERIFY((g0 - g1).cwiseAbs().maxCoeff() <= 1e-10 * (1.0 + g1.cwiseAbs().maxCoeff()));
      }
    }
  }

  void wrongSizesThrow() {
    const auto model =
        models::makeModel(dpsynth::test::fixtureDataset(Family::negbin, 10, 0, 6), {});
    Eigen::VectorXd grad;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, model->logDensity(vec({1.0, 0.0}), grad));
    Eigen::VectorXd out(11);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             model->recordLogLik(model->initialPoint(), out));
  }

  /// Far out in parameter space the density is -inf or finite, never NaN, and never throws.
  void extremePointsGiveMinusInfinityNotNaN() {
    for (Family f : kFamilies) {
      for (int k : {0, 1}) {
        for (bool censored : {false, true}) {
          const auto data = dpsynth::test::fixtureDataset(f, 40, k, 8);
          const auto model =
              models::makeModel(data, {}, {{}, censored ? -2.0 : -kInf, censored ? 2.0 : kInf});
          for (double x : {-1e4, -800.0, -40.0, 40.0, 800.0, 1e4, kInf, -kInf, kNaN}) {
            for (int j = 0; j < model->dim(); ++j) {
              Eigen::VectorXd u = model->initialPoint();
              u[j] = x;
              Eigen::VectorXd grad(model->dim());
              const double lp = model->logDensity(u, grad);
              QVERIFY(!std::isnan(lp));
              QVERIFY(lp < kInf);
              if (std::isfinite(lp)) QVERIFY(grad.allFinite());
            }
          }
        }
      }
    }
  }

  /// One const model evaluated from several threads gives exactly the sequential results.
  void concurrentEvaluationIsConsistent() {
    const auto data = dpsynth::test::fixtureDataset(Family::negbin, 500, 2, 9);
    const auto model =
        models::makeModel(data, {}, {dpsynth::test::fixtureWeights(500, 9), -3.0, 3.0});
    std::vector<Eigen::VectorXd> points;
    auto rng = random::makeRng(10);
    for (int p = 0; p < 50; ++p) {
      Eigen::VectorXd u = model->initialPoint();
      for (Eigen::Index j = 0; j < u.size(); ++j) u[j] += random::normal(rng, 0.0, 0.2);
      points.push_back(u);
    }
    std::vector<double> sequential;
    for (const auto& u : points) sequential.push_back(model->logDensity(u));
    std::vector<std::vector<double>> results(4);
    {
      std::vector<std::jthread> threads;
      for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&, t] {
          for (int rep = 0; rep < 20; ++rep) {
            for (const auto& u : points) {
              Eigen::VectorXd grad(model->dim());
              results[std::size_t(t)].push_back(model->logDensity(u, grad));
            }
          }
        });
      }
    }
    for (const auto& r : results) {
      for (std::size_t i = 0; i < r.size(); ++i) QCOMPARE(r[i], sequential[i % points.size()]);
    }
  }
};

QTEST_APPLESS_MAIN(ModelTest)
#include "model_test.moc"
