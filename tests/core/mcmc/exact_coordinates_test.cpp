/// Coordinates a model draws exactly (Model::exactCoordinates) stay out of the trajectories:
/// the sampler moves the others, and every kept draw carries a fresh exact draw of them, so
/// their draws are independent across iterations, distributed as the model says, and the
/// other coordinates' posterior is unchanged. The runs stay reproducible and thread-independent.
#include <QtTest>
#include <cmath>

#include "core/mcmc/sampled_coordinates.h"
#include "core/mcmc/sampler.h"
#include "core/random/rng.h"
#include "support/gaussian_models.h"

using namespace dpsynth::core;

namespace {

/// x0 ~ N(1, 2²), x1 ~ N(0, 1) independent and drawn exactly, x2 | x0 ~ N(0.5 x0, 1); counts
/// evaluations in which x1 was not at its initial value (it must never move in a trajectory).
class PartlyExactModel : public dpsynth::test::IdentityModel {
 public:
  PartlyExactModel() : IdentityModel(3) {}
  double logDensity(const Eigen::VectorXd& u, Eigen::VectorXd& grad) const override {
    grad.resize(3);
    const double a = (u[0] - 1.0) / 2.0, c = u[2] - 0.5 * u[0];
    grad << -a / 2.0 + 0.5 * c, -u[1], -c;
    if (u[1] != initialPoint()[1]) ++moved;
    return -0.5 * (a * a + u[1] * u[1] + c * c);
  }
  Eigen::VectorXd initialPoint() const override { return Eigen::Vector3d(0.0, 0.25, 0.0); }
  std::vector<int> exactCoordinates() const override { return {1}; }
  void completeDraw(Eigen::Ref<Eigen::VectorXd> u, random::Rng& rng) const override {
    u[1] = random::standardNormal(rng);
  }
  mutable std::atomic<int> moved{0};
};

double lagOneCorrelation(const Eigen::VectorXd& x) {
  const Eigen::VectorXd c = x.array() - x.mean();
  return c.head(c.size() - 1).dot(c.tail(c.size() - 1)) / c.squaredNorm();
}

}  // namespace

class ExactCoordinatesTest : public QObject {
  Q_OBJECT

 private slots:
  void exactCoordinatesAreDrawnNotSampled() {
    PartlyExactModel model;
    mcmc::NutsConfig cfg;
    cfg.seed = 5;
    cfg.chains = 2;
    cfg.warmup = 500;
    cfg.draws = 4000;
    const auto r = mcmc::sample(model, cfg);
    QCOMPARE(model.moved.load(), 0);
    const Eigen::MatrixXd d = r.pooled();
    QCOMPARE(d.cols(), Eigen::Index(3));
    // x1: exact N(0, 1) draws, independent from one iteration to the next.
    QVERIFY(std::abs(d.col(1).mean()) < 4.0 / std::sqrt(8000.0));
    QVERIFY(std::abs(d.col(1).array().square().mean() - 1.0) < 0.06);
    QVERIFY(std::abs(lagOneCorrelation(r.chains[0].draws.col(1))) < 0.05);
    // x0, x2: the sampled part of the posterior.
    QVERIFY(std::abs(d.col(0).mean() - 1.0) < 0.15);
    QVERIFY(std::abs(d.col(2).mean() - 0.5) < 0.12);
    const double sd0 = std::sqrt((d.col(0).array() - d.col(0).mean()).square().mean());
    QVERIFY(std::abs(sd0 - 2.0) < 0.15);
  }

  void reproducibleAcrossThreads() {
    PartlyExactModel model;
    mcmc::NutsConfig cfg;
    cfg.seed = 6;
    cfg.chains = 3;
    cfg.warmup = 100;
    cfg.draws = 100;
    cfg.threads = 1;
    const auto one = mcmc::sample(model, cfg);
    cfg.threads = 3;
    const auto three = mcmc::sample(model, cfg);
    for (std::size_t c = 0; c < one.chains.size(); ++c)
      QVERIFY(one.chains[c].draws == three.chains[c].draws);
  }

  /// Inits of the full dimension (a previous stage's draws) start the sampled coordinates.
  void fullInitsAreProjected() {
    PartlyExactModel model;
    mcmc::SampledCoordinates view(model, {1});
    QCOMPARE(view.dim(), 2);
    QCOMPARE(view.project(Eigen::Vector3d(4.0, 5.0, 6.0)),
             Eigen::VectorXd(Eigen::Vector2d(4.0, 6.0)));
    auto rng = random::makeRng(7, 0);
    const Eigen::VectorXd full = view.expand(Eigen::Vector2d(4.0, 6.0), rng);
    QCOMPARE(full[0], 4.0);
    QCOMPARE(full[2], 6.0);
    mcmc::NutsConfig cfg;
    cfg.seed = 8;
    cfg.chains = 1;
    cfg.warmup = 10;
    cfg.draws = 10;
    cfg.inits = {Eigen::Vector3d(1.0, 3.0, 0.5)};
    QCOMPARE(mcmc::sample(model, cfg).chains.front().draws.cols(), Eigen::Index(3));
  }
};

QTEST_APPLESS_MAIN(ExactCoordinatesTest)
#include "exact_coordinates_test.moc"
