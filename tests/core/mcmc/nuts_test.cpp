#include <QtTest>
#include <cmath>

#include "core/mcmc/sampler.h"
#include "support/gaussian_models.h"

using dpsynth::core::mcmc::NutsConfig;
using dpsynth::core::mcmc::RunStatus;
using dpsynth::core::mcmc::sample;
using dpsynth::core::mcmc::SampleResult;
namespace test = dpsynth::test;

namespace {

NutsConfig config(std::uint64_t seed, int threads = 2) {
  NutsConfig c;
  c.seed = seed;
  c.threads = threads;
  return c;
}

Eigen::VectorXd columnVariances(const Eigen::MatrixXd& x) {
  const Eigen::RowVectorXd mean = x.colwise().mean();
  return ((x.rowwise() - mean).array().square().colwise().sum() / double(x.rows() - 1)).transpose();
}

QString describe(const Eigen::VectorXd& v) {
  QString s;
  for (Eigen::Index i = 0; i < v.size(); ++i) s += QString::number(v[i]) + " ";
  return s;
}

}  // namespace

class NutsTest : public QObject {
  Q_OBJECT

 private slots:
  void standardNormal_data() {
    QTest::addColumn<int>("dim");
    QTest::newRow("1-D") << 1;
    QTest::newRow("5-D") << 5;
    QTest::newRow("50-D") << 50;
  }

  void standardNormal() {
    QFETCH(int, dim);
    test::IidGaussianModel model(dim);
    const SampleResult r = sample(model, config(100 + dim));
    QCOMPARE(r.status, RunStatus::completed);
    QCOMPARE(int(r.chains.size()), 4);
    const Eigen::MatrixXd x = r.pooled();
    QCOMPARE(x.rows(), 4000);
    QCOMPARE(x.cols(), Eigen::Index(dim));
    // 4000 draws with ESS of the order of 4000 for the mean: sd 0.016; over up to 50
    // coordinates allow 0.08 (5 sd). Variance estimates: sd about 0.03; allow 0.15.
    const Eigen::VectorXd mean = x.colwise().mean().transpose();
    const Eigen::VectorXd var = columnVariances(x);
    QVERIFY2(mean.cwiseAbs().maxCoeff() < 0.08, qPrintable(describe(mean)));
    QVERIFY2((var.array() - 1.0).abs().maxCoeff() < 0.15, qPrintable(describe(var)));
    QCOMPARE(r.divergences(), 0);
    QCOMPARE(r.treeDepthSaturated(), 0);
    QCOMPARE(r.gradientEvaluations(), model.calls());
    for (const auto& chain : r.chains) {
      QVERIFY2(chain.meanAcceptStat > 0.7 && chain.meanAcceptStat < 0.95,
               qPrintable(QString::number(chain.meanAcceptStat)));
      QVERIFY(chain.stepSize > 0.0);
      QCOMPARE(chain.inverseMetric.size(), Eigen::Index(dim));
    }
  }

  void adaptedAcceptStatNearTarget() {
    // Dual averaging targets 0.8 during warm-up; with the final step size exp(x_bar) the
    // sampling-phase statistic comes out somewhat higher, the more so in low dimension (as in
    // Stan: about 0.93 for a 1-D normal, 0.86 in 50-D).
    test::IidGaussianModel model(50);
    const SampleResult r = sample(model, config(7));
    double meanAccept = 0.0;
    for (const auto& chain : r.chains) meanAccept += chain.meanAcceptStat / r.chains.size();
    QVERIFY2(meanAccept > 0.7 && meanAccept < 0.9, qPrintable(QString::number(meanAccept)));
    // A smaller target gives larger steps and a smaller statistic.
    NutsConfig low = config(7);
    low.targetAccept = 0.6;
    const SampleResult r2 = sample(model, low);
    double meanAccept2 = 0.0;
    for (const auto& chain : r2.chains) meanAccept2 += chain.meanAcceptStat / r2.chains.size();
    QVERIFY2(meanAccept2 > 0.5 && meanAccept2 < meanAccept - 0.1,
             qPrintable(QString::number(meanAccept2)));
    QVERIFY(r2.chains[0].stepSize > r.chains[0].stepSize);
  }

  void correlatedCovarianceRecovered() {
    Eigen::Matrix2d cov;
    cov << 1.0, 1.6, 1.6, 4.0;  // correlation 0.8, sds 1 and 2
    test::CorrelatedGaussianModel model(Eigen::Vector2d(3.0, -2.0), cov);
    const SampleResult r = sample(model, config(21));
    const Eigen::MatrixXd x = r.pooled();
    const Eigen::RowVectorXd mean = x.colwise().mean();
    const Eigen::MatrixXd centred = x.rowwise() - mean;
    const Eigen::Matrix2d sampleCov = centred.transpose() * centred / double(x.rows() - 1);
    QVERIFY2(std::abs(mean[0] - 3.0) < 0.08 && std::abs(mean[1] + 2.0) < 0.16,
             qPrintable(QString("%1 %2").arg(mean[0]).arg(mean[1])));
    QVERIFY2(std::abs(sampleCov(0, 0) - 1.0) < 0.12, qPrintable(QString::number(sampleCov(0, 0))));
    QVERIFY2(std::abs(sampleCov(1, 1) - 4.0) < 0.48, qPrintable(QString::number(sampleCov(1, 1))));
    QVERIFY2(std::abs(sampleCov(0, 1) - 1.6) < 0.2, qPrintable(QString::number(sampleCov(0, 1))));
  }

  void metricAdaptsToAnisotropicScales() {
    const Eigen::VectorXd sd = (Eigen::VectorXd(5) << 1e-2, 1e-1, 1.0, 1e1, 1e2).finished();
    test::IidGaussianModel model(Eigen::VectorXd::Zero(5), sd);
    const SampleResult r = sample(model, config(33));
    for (const auto& chain : r.chains) {
      const Eigen::ArrayXd ratio = chain.inverseMetric.array() / sd.array().square();
      QVERIFY2((ratio - 1.0).abs().maxCoeff() < 0.3, qPrintable(describe(ratio.matrix())));
      QCOMPARE(chain.treeDepthSaturated, 0);
    }
    const Eigen::ArrayXd relativeSd = columnVariances(r.pooled()).array().sqrt() / sd.array();
    QVERIFY2((relativeSd - 1.0).abs().maxCoeff() < 0.1, qPrintable(describe(relativeSd.matrix())));
  }

  void funnelDivergencesAreCounted() {
    // The 3-D funnel's neck defeats any single step size: 60 to 500 divergences in 4 x 1000
    // draws over the seeds tried (the 10-D funnel gives fewer, 0 to 20, as the chains rarely
    // reach the neck at all).
    test::FunnelModel model(3);
    NutsConfig c = config(5);
    c.draws = 500;
    const SampleResult r = sample(model, c);
    QCOMPARE(r.status, RunStatus::completed);
    int sum = 0;
    for (const auto& chain : r.chains) sum += chain.divergences;
    QVERIFY2(r.divergences() > 0, "the funnel's neck should produce divergences");
    QCOMPARE(r.divergences(), sum);
    QVERIFY(r.pooled().allFinite());
  }

  void respectsTheSupport() {
    // Half-normal in x0: E x0 = sqrt(2 / pi), Var x0 = 1 - 2 / pi.
    // Divergences at the wall make the chain sticky (ESS about 15% of the draws), hence more
    // draws and a tolerance of about 3 standard errors.
    test::HalfSpaceGaussianModel model(2);
    NutsConfig c = config(8);
    c.draws = 2000;
    const SampleResult r = sample(model, c);
    const Eigen::MatrixXd x = r.pooled();
    QVERIFY(x.col(0).minCoeff() > 0.0);
    const double mean = x.col(0).mean();
    QVERIFY2(std::abs(mean - std::sqrt(2.0 / M_PI)) < 0.05, qPrintable(QString::number(mean)));
    QVERIFY(r.divergences() > 0);
    QVERIFY(std::abs(columnVariances(x)[1] - 1.0) < 0.15);
  }

  void errorsReachTheCaller() {
    test::IidGaussianModel good(2);
    NutsConfig bad = config(1);
    bad.chains = 0;
    bad.targetAccept = 1.5;
    try {
      sample(good, bad);
      QFAIL("expected std::invalid_argument");
    } catch (const std::invalid_argument& e) {
      const QString message = e.what();
      QVERIFY(message.contains("chains") && message.contains("targetAccept"));
    }
    NutsConfig wrongInit = config(1);
    wrongInit.chains = 1;
    wrongInit.inits = {Eigen::VectorXd::Zero(3)};
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, sample(good, wrongInit));

    test::NowhereFiniteModel nowhere(2);
    try {
      sample(nowhere, config(1));
      QFAIL("expected std::runtime_error");
    } catch (const std::runtime_error& e) {
      QVERIFY(QString(e.what()).contains("could not find a finite starting point"));
    }

    test::ThrowingModel throwing(2, 5000);
    QVERIFY_THROWS_EXCEPTION(std::logic_error, sample(throwing, config(1, 4)));
  }
};

QTEST_APPLESS_MAIN(NutsTest)
#include "nuts_test.moc"
