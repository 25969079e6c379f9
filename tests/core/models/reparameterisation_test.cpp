/// The sampled forms of regressions (QR for poisson, beta and normal; σ integrated out for
/// negbin) describe the same posterior as the direct form u = β: their log density at
/// unconstrain(θ) equals the direct model's at its unconstrain(θ) up to a constant (QR: a
/// linear map, constant Jacobian) or up to the exact log-Jacobian of negbin's coordinates (the
/// SpikeMaps and the conditional quantile transform of σ_j | β_j). Intercept-only models are not
/// reparameterised at all.
#include <QtTest>
#include <cmath>
#include <limits>
#include <vector>

#include "core/models/model.h"
#include "core/models/negbin_likelihood.h"
#include "core/models/scale_mixture_prior.h"
#include "core/random/rng.h"
#include "support/finite_difference.h"
#include "support/model_fixtures.h"

using namespace dpsynth::core;
using dpsynth::test::finiteDifference;
using models::Family;
using models::Parameterisation;

namespace {

constexpr Family kQrFamilies[] = {Family::poisson, Family::negbin, Family::beta, Family::normal};

data::Dataset awkwardRegression(Family family, Eigen::Index n, std::uint64_t seed) {
  return dpsynth::test::offsetCovariateRegression(family, n, seed, 43.0, 9.0);  // "weeks worked"
}

models::ModelSpec spec(Family family, Parameterisation p) {
  return dpsynth::test::formSpec(family, p);
}

/// Constrained points around the direct model's start.
std::vector<Eigen::VectorXd> constrainedPoints(const models::Model& direct, std::uint64_t seed,
                                               int count = 6) {
  auto rng = random::makeRng(seed, 3);
  std::vector<Eigen::VectorXd> points;
  for (int p = 0; p < count; ++p) {
    Eigen::VectorXd u = direct.initialPoint();
    for (Eigen::Index j = 0; j < u.size(); ++j) u[j] += random::normal(rng, 0.0, 0.3);
    points.push_back(direct.constrain(u));
  }
  return points;
}

/// log |∂(β, log σ)/∂(θ, w)| of negbin's integrated form at constrained θ and its unconstrained
/// point ua, up to the constant log|det R*⁻¹|: Σ_j log dβ_j/db_j (the SpikeMap slope) +
/// log φ(w_j) − log p(log σ_j | β_j) (w_j ↦ log σ_j is the conditional quantile transform).
double negbinLogJacobian(const data::Dataset& data, const Eigen::VectorXd& theta,
                         const Eigen::VectorXd& ua) {
  const auto widths = models::NegbinLikelihood::spikeWidths(data.y, data.X);
  const auto k = data.X.cols();
  double sum = 0.0;
  for (Eigen::Index j = 0; j < k; ++j) {
    const models::SpikeMap map(widths[std::size_t(j)]);
    double slope = 0.0, lp = 0.0, dlp = 0.0;
    map.toBeta(map.fromBeta(theta[j]), slope, lp, dlp);
    const double w = ua[k + j];
    sum += std::log(slope) - 0.5 * w * w -
           models::ScaleMixturePrior::conditionalLogDensityOfLogSigma(theta[j],
                                                                      std::log(theta[k + j]));
  }
  return sum;
}

models::LikelihoodWeights weightsFor(const data::Dataset& data, bool weighted, bool censored) {
  models::LikelihoodWeights w;
  if (weighted) w.alpha = dpsynth::test::fixtureWeights(data.size(), 17);
  if (censored) {
    w.lower = -4.0;
    w.upper = models::isCountFamily(data.family) ? 0.0 : 4.0;
  }
  return w;
}

}  // namespace

class ReparameterisationTest : public QObject {
  Q_OBJECT

 private slots:
  void densityEqualsTheDirectOneUpToAConstant_data() {
    QTest::addColumn<int>("family");
    QTest::addColumn<bool>("weighted");
    QTest::addColumn<bool>("censored");
    for (Family f : kQrFamilies)
      for (bool w : {false, true})
        for (bool c : {false, true})
          QTest::addRow("%s%s%s", models::familyName(f).c_str(), w ? " weighted" : "",
                        c ? " censored" : "")
              << int(f) << w << c;
  }

  void densityEqualsTheDirectOneUpToAConstant() {
    QFETCH(int, family);
    QFETCH(bool, weighted);
    QFETCH(bool, censored);
    const auto data = awkwardRegression(Family(family), 160, 21);
    const auto weights = weightsFor(data, weighted, censored);
    const auto automatic =
        models::makeModel(data, spec(Family(family), Parameterisation::automatic), weights);
    const auto direct =
        models::makeModel(data, spec(Family(family), Parameterisation::direct), weights);
    QCOMPARE(automatic->parameterNames(), direct->parameterNames());
    std::vector<double> offsets;
    double scale = 1.0;
    for (const Eigen::VectorXd& theta : constrainedPoints(*direct, 22)) {
      const Eigen::VectorXd ua = automatic->unconstrain(theta);
      const Eigen::VectorXd ud = direct->unconstrain(theta);
      // The forms really differ: θ = R*β (or negbin's R*b and w), not β.
      QVERIFY((ua - ud).cwiseAbs().maxCoeff() > 1e-3);
      const double la = automatic->logDensity(ua);
      const double ld = direct->logDensity(ud);
      QVERIFY(std::isfinite(la) && std::isfinite(ld));
      const double jacobian =
          Family(family) == Family::negbin ? negbinLogJacobian(data, theta, ua) : 0.0;
      offsets.push_back(la - ld - jacobian);
      scale = std::max(scale, std::abs(ld));
      // Both report the same constrained point.
      QVERIFY((automatic->constrain(ua) - theta).cwiseAbs().maxCoeff() <=
              1e-10 * std::max(1.0, theta.cwiseAbs().maxCoeff()));
    }
    for (double o : offsets) {
      QVERIFY2(std::abs(o - offsets.front()) < 1e-9 * scale,
               qPrintable(
                   QString("offset %1 vs %2").arg(o, 0, 'g', 17).arg(offsets.front(), 0, 'g', 17)));
    }
  }

  /// Uncensored only: the clamp's kinks need gradient_test's kink-free stencil.
  void gradientsMatchFiniteDifferences_data() {
    QTest::addColumn<int>("family");
    QTest::addColumn<bool>("weighted");
    for (Family f : kQrFamilies)
      for (bool w : {false, true})
        QTest::addRow("%s%s", models::familyName(f).c_str(), w ? " weighted" : "") << int(f) << w;
  }

  void gradientsMatchFiniteDifferences() {
    QFETCH(int, family);
    QFETCH(bool, weighted);
    const auto data = awkwardRegression(Family(family), 120, 31);
    const auto model = models::makeModel(data, {Family(family)}, weightsFor(data, weighted, false));
    const auto direct = models::makeModel(data, spec(Family(family), Parameterisation::direct));
    for (const Eigen::VectorXd& theta : constrainedPoints(*direct, 32, 3)) {
      const Eigen::VectorXd u = model->unconstrain(theta);
      Eigen::VectorXd grad(model->dim());
      QVERIFY(std::isfinite(model->logDensity(u, grad)));
      for (int j = 0; j < model->dim(); ++j) {
        const double fd = finiteDifference(*model, u, j, 1e-4);
        QVERIFY2(std::abs(grad[j] - fd) <= 1e-5 * std::max(1.0, std::abs(grad[j])),
                 qPrintable(QString("%1: analytic %2, finite difference %3")
                                .arg(QString::fromStdString(model->parameterNames()[j]))
                                .arg(grad[j], 0, 'g', 12)
                                .arg(fd, 0, 'g', 12)));
      }
    }
  }

  /// Negbin keeps each thread's last point of its spike maps (logPrior, coefficients and the
  /// coefficient gradient share them): two models with different bases, evaluated in turn at
  /// the same coordinates, must each give what they give alone.
  void negbinModelsDoNotShareTheirLastPoint() {
    const auto dataA = awkwardRegression(Family::negbin, 120, 31);
    const auto dataB = dpsynth::test::offsetCovariateRegression(Family::negbin, 150, 7, 5.0, 2.0);
    const auto modelA = models::makeModel(dataA, {Family::negbin});
    const auto modelB = models::makeModel(dataB, {Family::negbin});
    QCOMPARE(modelA->dim(), modelB->dim());
    const Eigen::Index dim = modelA->dim();
    const Eigen::VectorXd u = modelA->initialPoint() + Eigen::VectorXd::Constant(dim, 0.1);
    const Eigen::VectorXd v = u + Eigen::VectorXd::Constant(dim, 0.05);
    // Each model's values at u evaluated right after its own evaluation at v: nothing of the
    // other model can be left over.
    auto alone = [&](const models::Model& m, Eigen::VectorXd& grad) {
      Eigen::VectorXd scratch(dim);
      m.logDensity(v, scratch);
      return m.logDensity(u, grad);
    };
    Eigen::VectorXd gradA(dim), gradB(dim);
    const double valueA = alone(*modelA, gradA);
    const double valueB = alone(*modelB, gradB);
    QVERIFY(std::isfinite(valueA) && std::isfinite(valueB));
    QVERIFY(gradA != gradB);  // the bases differ, so a shared point would show

    Eigen::VectorXd grad(dim);
    for (int round = 0; round < 2; ++round) {
      QCOMPARE(modelA->logDensity(u, grad), valueA);
      QVERIFY(grad == gradA);
      QCOMPARE(modelB->logDensity(u, grad), valueB);
      QVERIFY(grad == gradB);
    }
    // A model built after another one was destroyed (perhaps at its address).
    {
      const auto other = models::makeModel(dataB, {Family::negbin});
      QCOMPARE(other->logDensity(u, grad), valueB);
    }
    const auto rebuilt = models::makeModel(dataA, {Family::negbin});
    QCOMPARE(rebuilt->logDensity(u, grad), valueA);
    QVERIFY(grad == gradA);
  }

  void constrainUnconstrainRoundTrip() {
    for (Family f : kQrFamilies) {
      const auto data = awkwardRegression(f, 80, 41);
      const auto model = models::makeModel(data, {f});
      auto rng = random::makeRng(42, 0);
      for (int p = 0; p < 5; ++p) {
        Eigen::VectorXd u = model->initialPoint();
        for (Eigen::Index j = 0; j < u.size(); ++j) u[j] += random::normal(rng, 0.0, 0.5);
        const Eigen::VectorXd back = model->unconstrain(model->constrain(u));
        QVERIFY2((back - u).cwiseAbs().maxCoeff() < 1e-9 * std::max(1.0, u.cwiseAbs().maxCoeff()),
                 models::familyName(f).c_str());
      }
    }
  }

  /// Intercept-only models are exactly as before: same coordinates, same arithmetic.
  void interceptOnlyModelsAreNotReparameterised() {
    for (Family f : kQrFamilies) {
      const auto data = dpsynth::test::fixtureDataset(f, 60, 0, 51);
      // Both per record: the shortcut's rounding is not what this test is about.
      models::ModelSpec automaticSpec{f};
      automaticSpec.sufficientStatistics = false;
      const auto automatic = models::makeModel(data, automaticSpec);
      const auto direct = models::makeModel(data, spec(f, Parameterisation::direct));
      QVERIFY(!automatic->correlatedCoordinates());
      QCOMPARE(automatic->initialPoint(), direct->initialPoint());
      auto rng = random::makeRng(52, 0);
      for (int p = 0; p < 5; ++p) {
        Eigen::VectorXd u = automatic->initialPoint();
        for (Eigen::Index j = 0; j < u.size(); ++j) u[j] += random::normal(rng, 0.0, 0.5);
        Eigen::VectorXd ga(u.size()), gd(u.size());
        QCOMPARE(automatic->logDensity(u, ga), direct->logDensity(u, gd));  // bit for bit
        QCOMPARE(ga, gd);
        QCOMPARE(automatic->constrain(u), direct->constrain(u));
      }
    }
    QVERIFY(models::makeModel(awkwardRegression(Family::poisson, 40, 53), {Family::poisson})
                ->correlatedCoordinates());
  }

  /// Each coefficient's SpikeMap width is half its data scale, capped at SpikeMap::kMaxWidth;
  /// a column the data say nothing about (all zero: a scale as large as the information's ridge
  /// leaves it) gets the cap.
  void spikeWidthsAreHalfTheDataScale() {
    data::Dataset sample = awkwardRegression(Family::negbin, 400, 23);
    const Eigen::Index k = sample.X.cols();
    sample.X.conservativeResize(Eigen::NoChange, k + 2);
    sample.X.col(k).setZero();
    sample.X.col(k + 1) = sample.X.col(1) * 1e-3;  // a scale 1000 times the second coefficient's
    const auto scales = models::NegbinLikelihood::dataScales(sample.y, sample.X);
    const auto widths = models::NegbinLikelihood::spikeWidths(sample.y, sample.X);
    QCOMPARE(widths.size(), scales.size());
    bool capped = false, halved = false;
    for (std::size_t j = 0; j < scales.size(); ++j) {
      const double scale = scales[j];
      if (!std::isfinite(scale) || 0.5 * scale >= models::SpikeMap::kMaxWidth) {
        QCOMPARE(widths[j], models::SpikeMap::kMaxWidth);
        capped = true;
      } else {
        QCOMPARE(widths[j], 0.5 * scale);
        halved = true;
      }
    }
    QCOMPARE(widths[std::size_t(k)], models::SpikeMap::kMaxWidth);
    QVERIFY(capped && halved);
  }

  /// Draws of a model of other data (another design, so another R*) keep their constrained
  /// values when converted; used unconverted they would mean other coefficients.
  void convertDrawsBetweenDatasets() {
    for (Family f : kQrFamilies) {
      const auto a = awkwardRegression(f, 90, 61);
      auto otherData = awkwardRegression(f, 70, 62);
      otherData.X.col(3) = 3.0 * otherData.X.col(3).array() - 60.0;  // another design
      const auto from = models::makeModel(a, {f});
      const auto to = models::makeModel(otherData, {f});
      Eigen::MatrixXd draws(4, from->dim());
      auto rng = random::makeRng(63, 0);
      for (Eigen::Index s = 0; s < draws.rows(); ++s) {
        Eigen::VectorXd u = from->initialPoint();
        for (Eigen::Index j = 0; j < u.size(); ++j) u[j] += random::normal(rng, 0.0, 0.3);
        draws.row(s) = u.transpose();
      }
      const Eigen::MatrixXd converted = models::convertDraws(*from, *to, draws);
      for (Eigen::Index s = 0; s < draws.rows(); ++s) {
        const Eigen::VectorXd want = from->constrain(draws.row(s).transpose());
        QVERIFY((to->constrain(converted.row(s).transpose()) - want).cwiseAbs().maxCoeff() <
                1e-9 * std::max(1.0, want.cwiseAbs().maxCoeff()));
        // Without the conversion the draw means something else.
        QVERIFY((to->constrain(draws.row(s).transpose()) - want).cwiseAbs().maxCoeff() > 1e-3);
      }
    }
    const auto poisson = models::makeModel(awkwardRegression(Family::poisson, 30, 64), {});
    const auto normal = models::makeModel(awkwardRegression(Family::normal, 30, 64), {});
    QVERIFY_THROWS_EXCEPTION(
        std::invalid_argument,
        models::convertDraws(*poisson, *normal, Eigen::MatrixXd::Zero(1, poisson->dim())));
  }
};

QTEST_APPLESS_MAIN(ReparameterisationTest)
#include "reparameterisation_test.moc"
