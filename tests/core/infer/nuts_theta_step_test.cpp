/// The NUTS θ step of data augmentation (nuts_theta_step.h): the latent-outcome densities equal
/// the families' GLM evaluator on the same outcomes (after O(1) moves too), and a chain whose
/// latent records are pinned by a nearly noiseless release recovers the closed-form posterior.
#include "core/infer/nuts_theta_step.h"

#include <QtTest>
#include <cmath>
#include <vector>

#include "core/data/dataset.h"
#include "core/infer/da_sampler.h"
#include "core/infer/ph_release.h"
#include "core/models/model.h"

namespace infer = dpsynth::core::infer;
namespace models = dpsynth::core::models;

namespace {

/// GlmModel's log density of intercept-only outcomes y (record by record, no shortcut).
double thetaStepGlmDensity(models::Family family, const std::vector<double>& y,
                           const Eigen::VectorXd& u, Eigen::VectorXd& grad) {
  dpsynth::core::data::Dataset d;
  d.family = family;
  d.outcomeName = "y";
  d.y = Eigen::Map<const Eigen::VectorXd>(y.data(), static_cast<Eigen::Index>(y.size()));
  d.X = Eigen::MatrixXd::Ones(static_cast<Eigen::Index>(y.size()), 1);
  d.designNames = {"(Intercept)"};
  models::ModelSpec spec;
  spec.family = family;
  spec.sdScale = 2.0;
  spec.sufficientStatistics = false;
  const auto model = models::makeModel(d, spec);
  return model->logDensity(u, grad);
}

std::vector<double> thetaStepOutcomes(models::Family family) {
  switch (family) {
    case models::Family::poisson:
    case models::Family::negbin:
      return {0, 3, 3, 7, 1, 12, 2, 2, 5};
    case models::Family::beta:
      return {0.1, 0.35, 0.5, 0.52, 0.9, 0.07, 0.66};
    case models::Family::normal:
      return {101.5, 99.2, 100.0, 104.7, 98.1, 100.3};
  }
  return {};
}

}  // namespace

class NutsThetaStepTest : public QObject {
  Q_OBJECT

 private slots:
  void densityEqualsTheGlmEvaluator_data() {
    QTest::addColumn<int>("family");
    QTest::newRow("poisson") << static_cast<int>(models::Family::poisson);
    QTest::newRow("negbin") << static_cast<int>(models::Family::negbin);
    QTest::newRow("beta") << static_cast<int>(models::Family::beta);
    QTest::newRow("normal") << static_cast<int>(models::Family::normal);
  }

  void densityEqualsTheGlmEvaluator() {
    QFETCH(int, family);
    const auto f = static_cast<models::Family>(family);
    const auto latent = infer::makeLatentFamily(f, 2.0);
    std::vector<double> y = thetaStepOutcomes(f);
    // A centre far from the data: the normal family's sums must not lose precision to it.
    const auto density = latent->makeDensity(f == models::Family::normal ? 50.0 : 0.0);
    for (double v : y) density->add(v);
    QCOMPARE(density->count(), static_cast<long long>(y.size()));
    // Two replacements, one undone: the statistics follow the records.
    const double moved = f == models::Family::beta ? 0.8 : (models::isCountFamily(f) ? 4 : 97.0);
    density->move(y[1], moved);
    density->move(y[2], y[0]);
    density->move(y[0], y[2]);
    y[1] = moved;
    const Eigen::VectorXd start = latent->initialPoint(
        Eigen::Map<const Eigen::VectorXd>(y.data(), static_cast<Eigen::Index>(y.size())));
    for (int shift = -1; shift <= 1; ++shift) {
      Eigen::VectorXd u = start;
      for (Eigen::Index k = 0; k < u.size(); ++k)
        u[k] += 0.3 * shift + 0.1 * static_cast<double>(k);
      Eigen::VectorXd g1, g2;
      const double a = density->logDensity(u, g1);
      const double b = thetaStepGlmDensity(f, y, u, g2);
      QVERIFY(std::isfinite(a));
      QVERIFY2(std::abs(a - b) <= 1e-9 * (1.0 + std::abs(b)),
               qPrintable(QString("%1 vs %2").arg(a, 0, 'g', 17).arg(b, 0, 'g', 17)));
      QCOMPARE(g1.size(), g2.size());
      for (Eigen::Index k = 0; k < g1.size(); ++k) {
        QVERIFY2(std::abs(g1[k] - g2[k]) <= 1e-8 * (1.0 + std::abs(g2[k])),
                 qPrintable(QString("grad %1: %2 vs %3").arg(k).arg(g1[k]).arg(g2[k])));
      }
    }
  }

  void rejectsABadScale() {
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             infer::makeLatentFamily(models::Family::normal, 0.0));
  }

  void pinnedPoissonMatchesTheClosedFormPosterior() {
    // Unit bins around 0..9 and t = 500: every latent record is pinned to the data's value,
    // so θ | x is the Poisson posterior of the data with β ~ Normal(0, 10), here by quadrature.
    const std::vector<std::int64_t> counts{2, 6, 9, 8, 6, 4, 2, 1, 1, 0};
    infer::PhReleaseFile r;
    r.lower = -0.5;
    r.upper = 9.5;
    r.bins = 10;
    r.integer = true;
    r.epsilon = 1000;
    r.rateNum = 500;
    r.rateDen = 1;
    r.noisyCounts = counts;
    r.n = 39;
    const infer::PhModel model(r, models::Family::poisson);
    double sumY = 0;
    for (int v = 0; v < 10; ++v)
      sumY += v * static_cast<double>(counts[static_cast<std::size_t>(v)]);
    // Quadrature of exp(Σy β − n e^β − β²/200).
    double mode = std::log(sumY / 39.0), z = 0, m1 = 0, m2 = 0;
    const double peak = sumY * mode - 39.0 * std::exp(mode) - mode * mode / 200.0;
    for (int k = -4000; k <= 4000; ++k) {
      const double b = mode + k * 1e-4;
      const double w = std::exp(sumY * b - 39.0 * std::exp(b) - b * b / 200.0 - peak);
      z += w;
      m1 += w * b;
      m2 += w * b * b;
    }
    const double mean = m1 / z, sd = std::sqrt(m2 / z - mean * mean);

    infer::DaConfig c;
    c.iterations = 6000;
    c.warmup = 1000;
    c.chains = 2;
    c.threads = 1;
    c.seed = 21;
    const infer::DaResult result = infer::runDataAugmentation(model, c);
    QVERIFY(result.gradientEvaluations() > 0);
    // Pinned: the latent histogram equals the release in every kept sweep.
    const auto s = infer::summarize(model, result);
    QCOMPARE(s.size(), std::size_t(1));
    QCOMPARE(QString::fromStdString(s[0].name), QString("beta[0]"));
    const double se = s[0].sd / std::sqrt(s[0].ess);
    QVERIFY2(std::abs(s[0].mean - mean) < 4 * se,
             qPrintable(QString("mean %1 vs %2 (se %3)").arg(s[0].mean).arg(mean).arg(se)));
    QVERIFY2(std::abs(s[0].sd - sd) < 0.1 * sd,
             qPrintable(QString("sd %1 vs %2").arg(s[0].sd).arg(sd)));
    QVERIFY(s[0].rhat < 1.05);
  }

  void sameDrawsWithOneOrEightThreads() {
    infer::PhReleaseFile r;
    r.lower = 0;
    r.upper = 10;
    r.bins = 5;
    r.epsilon = 1;
    r.rateNum = 1;
    r.rateDen = 2;
    r.noisyCounts = {3, 8, 6, -1, 2};
    r.n = 18;
    const infer::PhModel model(r, models::Family::normal);
    infer::DaConfig c;
    c.iterations = 300;
    c.warmup = 100;
    c.chains = 4;
    c.seed = 8;
    c.threads = 1;
    const auto a = infer::runDataAugmentation(model, c);
    c.threads = 8;
    const auto b = infer::runDataAugmentation(model, c);
    for (std::size_t k = 0; k < a.chains.size(); ++k) {
      QVERIFY(a.chains[k].draws == b.chains[k].draws);
      QVERIFY(a.chains[k].sweepAcceptance == b.chains[k].sweepAcceptance);
      QCOMPARE(a.chains[k].gradientEvaluations, b.chains[k].gradientEvaluations);
    }
    QVERIFY(a.chains[0].draws != a.chains[1].draws);
  }
};

QTEST_APPLESS_MAIN(NutsThetaStepTest)
#include "nuts_theta_step_test.moc"
