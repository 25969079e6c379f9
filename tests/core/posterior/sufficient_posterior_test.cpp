/// The sufficient-statistic shortcuts give the same posterior as the pattern-by-pattern
/// likelihood: short seeded NUTS runs of both agree on every posterior mean within Monte Carlo
/// error, and on the posterior sd within a loose factor.
#include <QtTest>
#include <cmath>

#include "core/mcmc/diagnostics.h"
#include "core/mcmc/sampler.h"
#include "core/models/model.h"
#include "support/model_fixtures.h"

using namespace dpsynth::core;
using models::Family;

namespace {

std::vector<mcmc::ParameterSummary> fit(const data::Dataset& d, bool shortcut,
                                        const std::vector<double>& alpha) {
  const auto model = models::makeModel(d, models::ModelSpec{d.family, 1.0, shortcut},
                                       models::LikelihoodWeights{alpha});
  mcmc::NutsConfig nuts;
  nuts.chains = 4;
  nuts.warmup = 300;
  nuts.draws = 400;
  nuts.seed = 20261122;
  return mcmc::summarize(*model, mcmc::sample(*model, nuts));
}

void expectSamePosterior(const data::Dataset& d, const std::vector<double>& alpha) {
  const auto a = fit(d, true, alpha);
  const auto b = fit(d, false, alpha);
  QCOMPARE(a.size(), b.size());
  for (std::size_t j = 0; j < a.size(); ++j) {
    // Monte Carlo standard error of each mean: sd / sqrt(ESS).
    const double se =
        std::hypot(a[j].sd / std::sqrt(a[j].essBulk), b[j].sd / std::sqrt(b[j].essBulk));
    if (std::abs(a[j].mean - b[j].mean) > 4.0 * se) {
      qWarning("%s: mean %.6g vs %.6g (MC se %.3g)", a[j].name.c_str(), a[j].mean, b[j].mean, se);
      QFAIL("posterior means differ beyond Monte Carlo error");
    }
    QVERIFY(a[j].sd < 1.3 * b[j].sd && b[j].sd < 1.3 * a[j].sd);
    QVERIFY(a[j].rhat < 1.02 && b[j].rhat < 1.02);
  }
}

}  // namespace

class SufficientPosteriorTest : public QObject {
  Q_OBJECT
 private slots:
  void normalRegression() {
    const auto d = dpsynth::test::fixtureDataset(Family::normal, 400, 3, 31);
    expectSamePosterior(d, {});
    expectSamePosterior(d, dpsynth::test::fixtureWeights(d.size(), 31));
  }

  void betaInterceptOnly() {
    const auto d = dpsynth::test::fixtureDataset(Family::beta, 400, 0, 32);
    expectSamePosterior(d, {});
    expectSamePosterior(d, dpsynth::test::fixtureWeights(d.size(), 32));
  }
};

QTEST_APPLESS_MAIN(SufficientPosteriorTest)
#include "sufficient_posterior_test.moc"
