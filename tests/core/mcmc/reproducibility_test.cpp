#include <QtTest>

#include "core/mcmc/sampler.h"
#include "support/gaussian_models.h"

using dpsynth::core::mcmc::NutsConfig;
using dpsynth::core::mcmc::sample;
using dpsynth::core::mcmc::SampleResult;
namespace test = dpsynth::test;

namespace {

NutsConfig smallRun(std::uint64_t seed, int threads) {
  NutsConfig c;
  c.seed = seed;
  c.threads = threads;
  c.warmup = 300;
  c.draws = 200;
  return c;
}

/// Bit-for-bit equality of everything a chain reports.
bool identical(const SampleResult& a, const SampleResult& b) {
  if (a.chains.size() != b.chains.size()) return false;
  for (std::size_t c = 0; c < a.chains.size(); ++c) {
    const auto& x = a.chains[c];
    const auto& y = b.chains[c];
    if (x.draws != y.draws || x.stepSize != y.stepSize || x.inverseMetric != y.inverseMetric ||
        x.metric != y.metric || x.inverseMetricDense != y.inverseMetricDense ||
        x.divergences != y.divergences || x.treeDepthSaturated != y.treeDepthSaturated ||
        x.gradientEvaluations != y.gradientEvaluations || x.meanAcceptStat != y.meanAcceptStat) {
      return false;
    }
  }
  return true;
}

}  // namespace

class ReproducibilityTest : public QObject {
  Q_OBJECT

 private slots:
  void sameSeedSameDraws() {
    test::BananaModel model(0.5);
    const SampleResult a = sample(model, smallRun(42, 2));
    const SampleResult b = sample(model, smallRun(42, 2));
    QVERIFY(identical(a, b));
  }

  void threadCountDoesNotMatter() {
    Eigen::Matrix3d cov;
    cov << 1.0, 0.3, 0.0, 0.3, 2.0, 0.5, 0.0, 0.5, 1.5;
    test::CorrelatedGaussianModel model(Eigen::Vector3d(1.0, 2.0, 3.0), cov);
    const SampleResult one = sample(model, smallRun(7, 1));
    const SampleResult four = sample(model, smallRun(7, 4));
    const SampleResult automatic = sample(model, smallRun(7, 0));
    QVERIFY(identical(one, four));
    QVERIFY(identical(one, automatic));
    // More threads than chains is allowed and changes nothing.
    NutsConfig many = smallRun(7, 16);
    many.chains = 3;
    NutsConfig single = smallRun(7, 1);
    single.chains = 3;
    QVERIFY(identical(sample(model, many), sample(model, single)));
  }

  void denseMetricThreadCountDoesNotMatter() {
    Eigen::Matrix3d cov;
    cov << 1.0, 0.9, 0.0, 0.9, 2.0, 0.5, 0.0, 0.5, 1.5;
    test::CorrelatedGaussianModel model(Eigen::Vector3d(1.0, 2.0, 3.0), cov);
    NutsConfig one = smallRun(7, 1), four = smallRun(7, 4);
    one.metric = four.metric = dpsynth::core::mcmc::MetricChoice::dense;
    const SampleResult a = sample(model, one);
    QCOMPARE(a.metric(), dpsynth::core::mcmc::MetricKind::dense);
    QVERIFY(identical(a, sample(model, four)));
    QVERIFY(identical(a, sample(model, one)));
  }

  void chainsAreIndependentStreams() {
    // Chain c of a 4-chain run equals chain c of a longer run: only (seed, c) matters.
    test::IidGaussianModel model(3);
    NutsConfig eight = smallRun(5, 2);
    eight.chains = 8;
    const SampleResult four = sample(model, smallRun(5, 2));
    const SampleResult many = sample(model, eight);
    for (int c = 0; c < 4; ++c) QVERIFY(four.chains[c].draws == many.chains[c].draws);
    QVERIFY(four.chains[0].draws != four.chains[1].draws);
  }

  void differentSeedsDiffer() {
    test::IidGaussianModel model(2);
    const SampleResult a = sample(model, smallRun(1, 2));
    const SampleResult b = sample(model, smallRun(2, 2));
    for (std::size_t c = 0; c < a.chains.size(); ++c) {
      QVERIFY(a.chains[c].draws.row(0) != b.chains[c].draws.row(0));
      QVERIFY(a.chains[c].draws != b.chains[c].draws);
    }
  }

  void initsAreHonoured() {
    const Eigen::Vector2d start(7.5, -3.25);
    {
      test::RecordingModel model(2);
      NutsConfig c = smallRun(3, 1);
      c.chains = 1;
      c.inits = {start};
      sample(model, c);
      QVERIFY(model.firstPoint().has_value());
      QCOMPARE(*model.firstPoint(), Eigen::VectorXd(start));
    }
    {
      // Random inits: initialPoint() (zero) jittered by at most initRadius per coordinate.
      test::RecordingModel model(2);
      NutsConfig c = smallRun(3, 1);
      c.chains = 1;
      c.initRadius = 0.5;
      sample(model, c);
      const Eigen::VectorXd first = *model.firstPoint();
      QVERIFY(first.cwiseAbs().maxCoeff() <= 0.5);
      QVERIFY(first.cwiseAbs().maxCoeff() > 0.0);
    }
    {
      // Per-chain inits far apart: with no warm-up and one short transition each chain's
      // draw is still near its own start.
      test::IidGaussianModel model(1);
      NutsConfig c = smallRun(3, 2);
      c.chains = 2;
      c.warmup = 0;
      c.draws = 1;
      c.maxTreeDepth = 1;
      c.inits = {Eigen::VectorXd::Constant(1, 50.0), Eigen::VectorXd::Constant(1, -50.0)};
      const SampleResult r = sample(model, c);
      QVERIFY2(r.chains[0].draws(0, 0) > 25.0,
               qPrintable(QString::number(r.chains[0].draws(0, 0))));
      QVERIFY(r.chains[1].draws(0, 0) < -25.0);
    }
  }
};

QTEST_APPLESS_MAIN(ReproducibilityTest)
#include "reproducibility_test.moc"
