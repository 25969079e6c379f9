#include "core/mcmc/dense_metric.h"

#include <QtTest>
#include <cmath>
#include <vector>

#include "core/mcmc/diagonal_metric.h"
#include "core/mcmc/sampler.h"
#include "core/mcmc/welford_covariance.h"
#include "core/mcmc/windowed_metric_adapter.h"
#include "core/random/rng.h"
#include "support/gaussian_models.h"

using dpsynth::core::mcmc::DenseMetric;
using dpsynth::core::mcmc::MetricChoice;
using dpsynth::core::mcmc::MetricKind;
using dpsynth::core::mcmc::NutsConfig;
using dpsynth::core::mcmc::WelfordCovariance;
using dpsynth::core::mcmc::WindowedMetricAdapter;
namespace mcmc = dpsynth::core::mcmc;
namespace rnd = dpsynth::core::random;
namespace test = dpsynth::test;

namespace {

Eigen::Matrix3d inverseMetric() {
  Eigen::Matrix3d a;
  a << 2.0, 0.6, -0.3,  //
      0.6, 1.0, 0.2,    //
      -0.3, 0.2, 0.5;
  return a;
}

/// A Gaussian with correlation 0.95 between its coordinates and very different scales.
test::CorrelatedGaussianModel correlatedTarget() {
  Eigen::Matrix3d cov;
  cov << 100.0, 0.95 * 10.0 * 0.1, 0.0,  //
      0.95 * 10.0 * 0.1, 0.01, 0.0,      //
      0.0, 0.0, 1.0;
  return test::CorrelatedGaussianModel(Eigen::Vector3d(5.0, -1.0, 0.0), cov);
}

}  // namespace

class DenseMetricTest : public QObject {
  Q_OBJECT

 private slots:
  void kineticEnergyAndVelocity() {
    const DenseMetric metric{Eigen::MatrixXd(inverseMetric())};
    QCOMPARE(metric.kind(), MetricKind::dense);
    const Eigen::Vector3d p(1.0, -2.0, 3.0);
    // M⁻¹p = (2 − 1.2 − 0.9, 0.6 − 2 + 0.6, −0.3 − 0.4 + 1.5) = (−0.1, −0.8, 0.8);
    // pᵀM⁻¹p / 2 = (−0.1 + 1.6 + 2.4) / 2 = 1.95.
    QVERIFY(metric.velocity(p).isApprox(Eigen::Vector3d(-0.1, -0.8, 0.8), 1e-14));
    QVERIFY(std::abs(metric.kineticEnergy(p) - 1.95) < 1e-14);
    const Eigen::MatrixXd l = metric.choleskyFactor();
    QVERIFY((l * l.transpose() - inverseMetric()).cwiseAbs().maxCoeff() < 1e-14);
    QCOMPARE(DenseMetric(2).inverse(), Eigen::MatrixXd(Eigen::Matrix2d::Identity()));
  }

  /// The dense metric with a diagonal M⁻¹ is the diagonal metric.
  void agreesWithTheDiagonalMetricOnDiagonals() {
    const Eigen::Vector3d d(4.0, 0.25, 1.5);
    const DenseMetric dense(Eigen::MatrixXd(d.asDiagonal()));
    const mcmc::DiagonalMetric diagonal{Eigen::VectorXd(d)};
    const Eigen::Vector3d p(0.5, -1.0, 2.0);
    QVERIFY(std::abs(dense.kineticEnergy(p) - diagonal.kineticEnergy(p)) < 1e-14);
    QVERIFY(dense.velocity(p).isApprox(diagonal.velocity(p), 1e-15));
  }

  /// The tree builder takes τ from the velocity it already has and writes velocities into its
  /// own vectors: both must give the bits of the plain calls, or a fit would change.
  void velocityOverloadsGiveTheSameBits() {
    rnd::Rng rng = rnd::makeRng(3, 0);
    for (int dim = 1; dim <= 12; ++dim) {
      Eigen::MatrixXd a(dim, dim);
      for (Eigen::Index k = 0; k < a.size(); ++k) a.data()[k] = rnd::standardNormal(rng);
      const Eigen::MatrixXd inverse = a * a.transpose() + 0.1 * Eigen::MatrixXd::Identity(dim, dim);
      const DenseMetric dense(inverse);
      const mcmc::DiagonalMetric diagonal{Eigen::VectorXd(inverse.diagonal())};
      for (int trial = 0; trial < 20; ++trial) {
        Eigen::VectorXd p(dim);
        for (Eigen::Index i = 0; i < dim; ++i) p[i] = 10.0 * rnd::standardNormal(rng);
        for (const mcmc::Metric* metric : {static_cast<const mcmc::Metric*>(&dense),
                                           static_cast<const mcmc::Metric*>(&diagonal)}) {
          const Eigen::VectorXd expected = metric->velocity(p);
          Eigen::VectorXd v = Eigen::VectorXd::Constant(dim, 7.0);  // stale contents
          metric->velocityInto(p, v);
          QVERIFY(v == expected);
          QVERIFY(metric->kineticEnergy(p, v) == metric->kineticEnergy(p));
        }
        QVERIFY((dense.velocity(p) - inverse * p).cwiseAbs().maxCoeff() <=
                1e-14 * (inverse.cwiseAbs() * p.cwiseAbs()).maxCoeff());
      }
    }
  }

  /// p ~ Normal(0, M) with M = (M⁻¹)⁻¹: the sample covariance of many momenta.
  void momentumHasCovarianceM() {
    const DenseMetric metric{Eigen::MatrixXd(inverseMetric())};
    const Eigen::Matrix3d m = inverseMetric().inverse();
    rnd::Rng rng = rnd::makeRng(11, 0);
    const int n = 60000;
    Eigen::Vector3d sum = Eigen::Vector3d::Zero();
    Eigen::Matrix3d outer = Eigen::Matrix3d::Zero();
    Eigen::VectorXd p;
    for (int i = 0; i < n; ++i) {
      metric.sampleMomentum(rng, p);
      sum += p;
      outer += p * p.transpose();
    }
    const Eigen::Vector3d mean = sum / n;
    const Eigen::Matrix3d cov = outer / n - mean * mean.transpose();
    // sd of a covariance entry estimate ≈ sqrt((m_ii m_jj + m_ij²) / n) ≈ 0.5% of the scale.
    for (int i = 0; i < 3; ++i) {
      QVERIFY(std::abs(mean[i]) < 4.0 * std::sqrt(m(i, i) / n));
      for (int j = 0; j < 3; ++j) {
        const double se = std::sqrt((m(i, i) * m(j, j) + m(i, j) * m(i, j)) / n);
        QVERIFY2(std::abs(cov(i, j) - m(i, j)) < 5.0 * se,
                 qPrintable(
                     QString("cov(%1,%2) = %3, M = %4").arg(i).arg(j).arg(cov(i, j)).arg(m(i, j))));
      }
    }
  }

  void rejectsInvalidInverse() {
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, DenseMetric(0));
    Eigen::Matrix2d notSymmetric;
    notSymmetric << 1.0, 0.5, 0.4, 1.0;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, DenseMetric(Eigen::MatrixXd(notSymmetric)));
    Eigen::Matrix2d indefinite;
    indefinite << 1.0, 2.0, 2.0, 1.0;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, DenseMetric(Eigen::MatrixXd(indefinite)));
    Eigen::Matrix2d nonFinite = Eigen::Matrix2d::Identity();
    nonFinite(0, 0) = std::nan("");
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, DenseMetric(Eigen::MatrixXd(nonFinite)));
    DenseMetric metric(2);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             metric.setInverse(Eigen::MatrixXd::Identity(3, 3)));
    QVERIFY(!metric.trySetInverse(Eigen::MatrixXd(indefinite)));
    QCOMPARE(metric.inverse(), Eigen::MatrixXd(Eigen::Matrix2d::Identity()));  // kept
  }

  void welfordMatchesTwoPassCovariance() {
    WelfordCovariance w(2);
    QCOMPARE(w.covariance(), Eigen::MatrixXd(Eigen::Matrix2d::Zero()));
    rnd::Rng rng = rnd::makeRng(3, 0);
    std::vector<Eigen::Vector2d> xs;
    for (int i = 0; i < 50; ++i) {
      const double a = rnd::standardNormal(rng);
      xs.emplace_back(1e6 + a, -2.0 * a + rnd::standardNormal(rng));  // offset: stability
      w.add(xs.back());
    }
    Eigen::Vector2d mean = Eigen::Vector2d::Zero();
    for (const auto& x : xs) mean += x / 50.0;
    Eigen::Matrix2d twoPass = Eigen::Matrix2d::Zero();
    for (const auto& x : xs) twoPass += (x - mean) * (x - mean).transpose() / 49.0;
    QCOMPARE(w.count(), 50);
    QVERIFY((w.covariance() - twoPass).cwiseAbs().maxCoeff() < 1e-8);
    QCOMPARE(w.covariance()(0, 1), w.covariance()(1, 0));  // exactly symmetric
    w.restart();
    QCOMPARE(w.count(), 0);
  }

  /// The dense adapter follows the diagonal one's window schedule and, at each window's end,
  /// returns that window's covariance with the diagonal adapter's variances and the sample
  /// correlations shrunk by n / (n + 5) (regularisedCovariance).
  void denseAdaptationIsRegularisedWindowCovariance() {
    const int warmup = 400;
    WindowedMetricAdapter dense(MetricKind::dense, 2, warmup);
    WindowedMetricAdapter diag(MetricKind::diag, 2, warmup);
    QVERIFY_THROWS_EXCEPTION(std::logic_error, [&] {
      Eigen::VectorXd v;
      dense.learn(Eigen::VectorXd::Zero(2), v);
    }());
    rnd::Rng rng = rnd::makeRng(5, 0);
    WelfordCovariance window(2);
    int windows = 0;
    Eigen::MatrixXd inverse;
    Eigen::VectorXd inverseDiag;
    for (int i = 0; i < warmup; ++i) {
      const double a = rnd::standardNormal(rng);
      const Eigen::Vector2d q(3.0 * a, a + 0.5 * rnd::standardNormal(rng));
      const bool inSlowWindow = i >= dense.initBuffer() && i < warmup - dense.termBuffer();
      if (inSlowWindow) window.add(q);
      const bool updated = dense.learn(q, inverse);
      QCOMPARE(diag.learn(q, inverseDiag), updated);
      if (!updated) continue;
      ++windows;
      const double n = window.count();
      const Eigen::MatrixXd c = window.covariance();
      Eigen::MatrixXd want(2, 2);
      for (int i = 0; i < 2; ++i) want(i, i) = (n / (n + 5.0)) * c(i, i) + 1e-3 * 5.0 / (n + 5.0);
      want(0, 1) = want(1, 0) = (n / (n + 5.0)) * c(0, 1) / std::sqrt(c(0, 0) * c(1, 1)) *
                                std::sqrt(want(0, 0) * want(1, 1));
      QVERIFY((inverse - want).cwiseAbs().maxCoeff() < 1e-12);
      QVERIFY((inverse.diagonal() - inverseDiag).cwiseAbs().maxCoeff() < 1e-12);
      window.restart();
    }
    QCOMPARE(windows, 3);  // 25, 50 and the last one stretched to 200 (warm-up 400 − 75 − 50)
    // The last estimate carries the correlation 3/√(9·1.25) ≈ 0.89 of the positions.
    QVERIFY(std::abs(inverse(0, 1) / std::sqrt(inverse(0, 0) * inverse(1, 1)) - 0.894) < 0.06);
  }

  /// The regularisation is scale-free: a coordinate of sd 10⁻⁴ (a coefficient of a covariate in
  /// tens of thousands) keeps the diagonal adapter's variance and its correlation shrunk by
  /// n/(n + 5) only. Stan's additive 1e-3·5/(n + 5) on every variance would have made it 5000
  /// times too wide and its correlation 0.01.
  void regularisationIsScaleFree() {
    const double n = 100.0, sd1 = 1e-4, rho = 0.9;
    Eigen::Matrix2d c;
    c << 1.0, rho * sd1, rho * sd1, sd1 * sd1;
    const Eigen::MatrixXd r = dpsynth::core::mcmc::regularisedCovariance(c, n);
    const double w = n / (n + 5.0), floor = 1e-3 * 5.0 / (n + 5.0);
    QVERIFY(std::abs(r(0, 0) - (w + floor)) < 1e-15);
    QVERIFY(std::abs(r(1, 1) - (w * sd1 * sd1 + floor)) < 1e-18);
    QVERIFY(std::abs(r(0, 1) / std::sqrt(r(0, 0) * r(1, 1)) - w * rho) < 1e-12);
    QCOMPARE(r(0, 1), r(1, 0));
    // Positive definite whatever the window gave, even perfectly correlated coordinates.
    Eigen::Matrix2d singular;
    singular << 4.0, 2e-4, 2e-4, 1e-8;
    QCOMPARE(Eigen::LLT<Eigen::MatrixXd>(dpsynth::core::mcmc::regularisedCovariance(singular, 25.0))
                 .info(),
             Eigen::Success);
    // A coordinate that never moved keeps no correlation.
    Eigen::Matrix2d stuck;
    stuck << 2.0, 0.0, 0.0, 0.0;
    QCOMPARE(dpsynth::core::mcmc::regularisedCovariance(stuck, 25.0)(0, 1), 0.0);
  }

  /// End to end: on a strongly correlated, badly scaled Gaussian the adapted dense metric is
  /// close to the posterior covariance, and sampling costs fewer gradients than with the
  /// diagonal metric (deterministic for the seed, not a timing).
  void adaptsToTheCovariance() {
    auto model = correlatedTarget();
    NutsConfig cfg;
    cfg.seed = 9;
    cfg.chains = 2;
    cfg.warmup = 600;
    cfg.draws = 400;
    cfg.metric = MetricChoice::dense;
    const auto dense = mcmc::sample(model, cfg);
    QCOMPARE(dense.metric(), MetricKind::dense);
    for (const auto& chain : dense.chains) {
      QCOMPARE(chain.metric, MetricKind::dense);
      QCOMPARE(chain.inverseMetricDense.rows(), Eigen::Index(3));
      QCOMPARE(chain.inverseMetric, Eigen::VectorXd(chain.inverseMetricDense.diagonal()));
      const Eigen::MatrixXd& a = chain.inverseMetricDense;
      QVERIFY2(std::abs(a(0, 0) / 100.0 - 1.0) < 0.35, qPrintable(QString::number(a(0, 0))));
      QVERIFY2(std::abs(a(1, 1) / 0.01 - 1.0) < 0.35, qPrintable(QString::number(a(1, 1))));
      const double correlation = a(0, 1) / std::sqrt(a(0, 0) * a(1, 1));
      QVERIFY2(std::abs(correlation - 0.95) < 0.05, qPrintable(QString::number(correlation)));
    }
    cfg.metric = MetricChoice::diag;
    const auto diag = mcmc::sample(model, cfg);
    QCOMPARE(diag.metric(), MetricKind::diag);
    QVERIFY(diag.chains.front().inverseMetricDense.size() == 0);
    QVERIFY2(dense.gradientEvaluations() < diag.gradientEvaluations(),
             qPrintable(QString("dense %1, diag %2")
                            .arg(dense.gradientEvaluations())
                            .arg(diag.gradientEvaluations())));
  }

  /// auto: dense for models that say their coordinates are correlated (up to dimension 60),
  /// diagonal otherwise, and then bit for bit the diagonal run.
  void automaticChoice() {
    test::IidGaussianModel iid(3);
    QCOMPARE(mcmc::resolveMetric(MetricChoice::automatic, iid), MetricKind::diag);
    QCOMPARE(mcmc::resolveMetric(MetricChoice::dense, iid), MetricKind::dense);
    test::CorrelatedCoordinatesModel small(5), large(61);
    QCOMPARE(mcmc::resolveMetric(MetricChoice::automatic, small), MetricKind::dense);
    QCOMPARE(mcmc::resolveMetric(MetricChoice::automatic, large), MetricKind::diag);
    QCOMPARE(mcmc::resolveMetric(MetricChoice::diag, small), MetricKind::diag);

    NutsConfig cfg;
    cfg.seed = 4;
    cfg.warmup = 200;
    cfg.draws = 100;
    const auto automatic = mcmc::sample(iid, cfg);
    cfg.metric = MetricChoice::diag;
    const auto diag = mcmc::sample(iid, cfg);
    for (std::size_t c = 0; c < diag.chains.size(); ++c) {
      QCOMPARE(automatic.chains[c].metric, MetricKind::diag);
      QVERIFY(automatic.chains[c].draws == diag.chains[c].draws);
      QCOMPARE(automatic.chains[c].stepSize, diag.chains[c].stepSize);
    }
  }

  void names() {
    QCOMPARE(mcmc::metricChoiceName(MetricChoice::automatic), std::string("auto"));
    QCOMPARE(mcmc::parseMetricChoice("dense"), MetricChoice::dense);
    QCOMPARE(mcmc::parseMetricChoice("diag"), MetricChoice::diag);
    QCOMPARE(mcmc::parseMetricChoice("auto"), MetricChoice::automatic);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, mcmc::parseMetricChoice("unit"));
    QCOMPARE(mcmc::metricKindName(MetricKind::dense), std::string("dense"));
    NutsConfig bad;
    bad.metric = static_cast<MetricChoice>(7);
    QVERIFY(!bad.validate().empty());
    QVERIFY(QString::fromStdString(bad.validate().front()).contains("metric"));
  }
};

QTEST_APPLESS_MAIN(DenseMetricTest)
#include "dense_metric_test.moc"
