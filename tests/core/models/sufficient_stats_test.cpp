/// The exact shortcuts of sufficient_stats.h against the pattern-by-pattern likelihood and
/// against a long-double evaluation of the definition, including data scaled so badly that the
/// textbook expansion yᵀWy − 2βᵀXᵀWy + βᵀXᵀWXβ loses every digit.
#include "core/models/sufficient_stats.h"

#include <QtTest>
#include <cmath>
#include <vector>

#include "core/models/beta_likelihood.h"
#include "core/models/glm_model.h"
#include "core/models/model.h"
#include "core/models/normal_likelihood.h"
#include "core/models/poisson_likelihood.h"
#include "core/random/rng.h"
#include "support/model_fixtures.h"

using namespace dpsynth::core;
using dpsynth::test::fixtureDataset;
using dpsynth::test::fixtureWeights;
using dpsynth::test::makeDataset;
using models::Family;

namespace {

template <class L>
bool usesShortcut(const models::SynthesisModel& m) {
  const auto* glm = dynamic_cast<const models::GlmModel<L>*>(&m);
  return glm && glm->usesSufficientStatistics();
}

std::unique_ptr<models::SynthesisModel> build(
    const data::Dataset& d, bool shortcut, std::vector<double> alpha = {}, double sdScale = 1.0,
    models::Parameterisation form = models::Parameterisation::automatic) {
  models::ModelSpec spec{d.family, sdScale, shortcut};
  spec.parameterisation = form;
  return models::makeModel(d, spec, models::LikelihoodWeights{std::move(alpha)});
}

/// Random points around the model's start (σ of the jitter per coordinate).
std::vector<Eigen::VectorXd> points(const models::Model& m, std::uint64_t seed, double jitter) {
  auto rng = random::makeRng(seed, 11);
  std::vector<Eigen::VectorXd> out;
  for (int k = 0; k < 6; ++k) {
    Eigen::VectorXd u = m.initialPoint();
    for (Eigen::Index j = 0; j < u.size(); ++j) u[j] += random::normal(rng, 0.0, jitter);
    out.push_back(u);
  }
  return out;
}

/// Log density and gradient of the two models agree: the density to relTol, each gradient
/// coordinate to relTol of the gradient's largest coordinate (coordinates near zero are sums
/// of large terms of both signs).
void expectSameDensity(const models::Model& a, const models::Model& b, const Eigen::VectorXd& u,
                       double relTol) {
  Eigen::VectorXd ga(a.dim()), gb(b.dim());
  const double la = a.logDensity(u, ga);
  const double lb = b.logDensity(u, gb);
  QVERIFY(std::isfinite(la) && std::isfinite(lb));
  if (std::abs(la - lb) > relTol * std::abs(lb)) {
    qWarning("log density %.17g vs %.17g", la, lb);
    QFAIL("log densities differ");
  }
  const double scale = std::max(1.0, gb.cwiseAbs().maxCoeff());
  for (Eigen::Index j = 0; j < ga.size(); ++j) {
    if (std::abs(ga[j] - gb[j]) > relTol * scale) {
      qWarning("gradient %d: %.17g vs %.17g", int(j), ga[j], gb[j]);
      QFAIL("gradients differ");
    }
  }
}

/// The badly scaled regression: y ≈ 10⁶ + 10⁵ x₁ + 3 x₂ + N(0, 1) with x₂ ≈ 1000 (uncentred),
/// so R² ≈ 1 − 10⁻¹⁰ and every textbook statistic is ~10¹⁰ times the residual sum of squares.
data::Dataset badlyScaled(Eigen::Index n, std::uint64_t seed) {
  auto rng = random::makeRng(seed, 5);
  Eigen::MatrixXd c(n, 2);
  Eigen::VectorXd y(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    c(i, 0) = random::standardNormal(rng);
    c(i, 1) = 1000.0 + std::round(10.0 * random::standardNormal(rng)) / 10.0;
    y[i] = 1e6 + 1e5 * c(i, 0) + 3.0 * c(i, 1) + random::standardNormal(rng);
  }
  return makeDataset(Family::normal, y, c);
}

/// Σ_i α_i log N(y_i | x_i β, σ) and its gradient in (β, log σ), in long double.
struct Reference {
  long double logLik = 0;
  std::vector<long double> grad;
  std::vector<long double> gradScale;  ///< Σ |terms| per coordinate
};
Reference normalReference(const data::Dataset& d, const std::vector<double>& alpha,
                          const Eigen::VectorXd& u) {
  const Eigen::Index K = d.X.cols();
  Reference r;
  r.grad.assign(static_cast<std::size_t>(K + 1), 0);
  r.gradScale.assign(static_cast<std::size_t>(K + 1), 0);
  const long double logSigma = u[K];
  const long double invVar = std::exp(-2.0L * logSigma);
  for (Eigen::Index i = 0; i < d.X.rows(); ++i) {
    const long double w = alpha.empty() ? 1.0L : alpha[static_cast<std::size_t>(i)];
    long double eta = 0;
    for (Eigen::Index j = 0; j < K; ++j) eta += static_cast<long double>(d.X(i, j)) * u[j];
    const long double resid = d.y[i] - eta;
    r.logLik += w * (-0.918938533204672741780329736406L - logSigma - 0.5L * resid * resid * invVar);
    for (Eigen::Index j = 0; j < K; ++j) {
      const long double t = w * resid * invVar * d.X(i, j);
      r.grad[static_cast<std::size_t>(j)] += t;
      r.gradScale[static_cast<std::size_t>(j)] += std::abs(t);
    }
    const long double t = w * (resid * resid * invVar - 1.0L);
    r.grad[static_cast<std::size_t>(K)] += t;
    r.gradScale[static_cast<std::size_t>(K)] += std::abs(t);
  }
  return r;
}

/// The weighted least-squares fit and its residual sd, for test points near the posterior.
Eigen::VectorXd nearPosterior(const data::Dataset& d, const std::vector<double>& alpha,
                              random::Rng& rng) {
  const Eigen::Index K = d.X.cols();
  Eigen::VectorXd w = Eigen::VectorXd::Ones(d.X.rows());
  if (!alpha.empty()) w = Eigen::Map<const Eigen::VectorXd>(alpha.data(), d.X.rows());
  const Eigen::VectorXd root = w.cwiseSqrt();
  const Eigen::MatrixXd A = root.asDiagonal() * d.X;
  const Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(A);
  const Eigen::VectorXd beta = qr.solve(root.cwiseProduct(d.y));
  const double rss = (root.cwiseProduct(d.y - d.X * beta)).squaredNorm();
  const double sigma = std::sqrt(rss / w.sum());
  // A draw from N(β̂, 4σ²(AᵀA)⁻¹) without inverting the (ill-conditioned) AᵀA: the
  // least-squares solution for a noise vector of sd 2σ.
  Eigen::VectorXd noise(A.rows());
  for (Eigen::Index i = 0; i < noise.size(); ++i) noise[i] = random::normal(rng, 0.0, 2.0 * sigma);
  const Eigen::VectorXd delta = qr.solve(noise);
  Eigen::VectorXd u(K + 1);
  u.head(K) = beta + delta;
  u[K] = std::log(sigma) + random::normal(rng, 0.0, 0.05);
  return u;
}

/// The log-likelihood part of a model's log density: its log density minus that of the same
/// model with every weight 0 (the prior alone, same code path).
double likelihoodPart(const data::Dataset& d, bool shortcut, const std::vector<double>& alpha,
                      double sdScale, const Eigen::VectorXd& u, Eigen::VectorXd& grad) {
  // u holds β itself (the reference is written in β), so no QR transform here; the QR models'
  // shortcut is compared with their pattern-by-pattern likelihood in the other cases.
  constexpr auto kDirect = models::Parameterisation::direct;
  const auto m = build(d, shortcut, alpha, sdScale, kDirect);
  const auto prior = build(d, shortcut, std::vector<double>(d.size(), 0.0), sdScale, kDirect);
  Eigen::VectorXd gp(m->dim());
  const double l = m->logDensity(u, grad);
  const double p = prior->logDensity(u, gp);
  grad -= gp;
  return l - p;
}

}  // namespace

class SufficientStatsTest : public QObject {
  Q_OBJECT
 private slots:
  void normalRegressionMatchesPatternByPattern() {
    for (std::uint64_t seed : {1u, 2u, 3u}) {
      const auto d = fixtureDataset(Family::normal, 300, 3, seed);
      for (bool weighted : {false, true}) {
        const std::vector<double> alpha =
            weighted ? fixtureWeights(d.size(), seed) : std::vector<double>{};
        const auto fast = build(d, true, alpha);
        const auto slow = build(d, false, alpha);
        QVERIFY(usesShortcut<models::NormalLikelihood>(*fast));
        QVERIFY(!usesShortcut<models::NormalLikelihood>(*slow));
        for (const auto& u : points(*slow, seed, 0.5)) expectSameDensity(*fast, *slow, u, 1e-10);
        // Far from the data too (prior-dominated, large residuals).
        for (const auto& u : points(*slow, seed + 9, 5.0))
          expectSameDensity(*fast, *slow, u, 1e-10);
      }
    }
  }

  void normalInterceptOnlyMatches() {
    const auto d = fixtureDataset(Family::normal, 500, 0, 4);
    const auto fast = build(d, true, fixtureWeights(d.size(), 4));
    const auto slow = build(d, false, fixtureWeights(d.size(), 4));
    QVERIFY(usesShortcut<models::NormalLikelihood>(*fast));
    for (const auto& u : points(*slow, 4, 0.5)) expectSameDensity(*fast, *slow, u, 1e-10);
  }

  void badlyScaledNormalKeepsFullPrecision() {
    const auto d = badlyScaled(3000, 17);
    auto rng = random::makeRng(99);
    constexpr double kScale = 1e7;  // priors far wider than the data: the likelihood dominates
    for (bool weighted : {false, true}) {
      const std::vector<double> alpha =
          weighted ? fixtureWeights(d.size(), 3) : std::vector<double>{};
      for (int k = 0; k < 5; ++k) {
        const Eigen::VectorXd u = nearPosterior(d, alpha, rng);
        const Reference ref = normalReference(d, alpha, u);
        for (bool shortcut : {true, false}) {
          Eigen::VectorXd g(u.size());
          const double l = likelihoodPart(d, shortcut, alpha, kScale, u, g);
          const long double err = std::abs(static_cast<long double>(l) - ref.logLik);
          if (err > 1e-9L * std::abs(ref.logLik)) {
            qWarning("%s: log-likelihood %.17g, reference %.17Lg",
                     shortcut ? "sufficient" : "patterns", l, ref.logLik);
            QFAIL("log-likelihood off");
          }
          for (Eigen::Index j = 0; j < g.size(); ++j) {
            const auto jj = static_cast<std::size_t>(j);
            if (std::abs(g[j] - ref.grad[jj]) > 1e-9L * ref.gradScale[jj]) {
              qWarning("%s: gradient %d %.17g, reference %.17Lg (scale %.3Lg)",
                       shortcut ? "sufficient" : "patterns", int(j), g[j], ref.grad[jj],
                       ref.gradScale[jj]);
              QFAIL("gradient off");
            }
          }
        }
        // The data are hard: the textbook expansion in double misses the residual sum of
        // squares by far more than the tolerance (this is what the test guards against).
        const Eigen::Index K = d.X.cols();
        const Eigen::VectorXd beta = u.head(K);
        Eigen::VectorXd w = Eigen::VectorXd::Ones(d.X.rows());
        if (!alpha.empty()) w = Eigen::Map<const Eigen::VectorXd>(alpha.data(), d.X.rows());
        const double naive = d.y.dot(w.asDiagonal() * d.y) -
                             2.0 * beta.dot(d.X.transpose() * (w.asDiagonal() * d.y)) +
                             beta.dot(d.X.transpose() * w.asDiagonal() * d.X * beta);
        long double exact = 0;
        for (Eigen::Index i = 0; i < d.X.rows(); ++i) {
          long double eta = 0;
          for (Eigen::Index j = 0; j < K; ++j) eta += static_cast<long double>(d.X(i, j)) * beta[j];
          exact += w[i] * (d.y[i] - eta) * (d.y[i] - eta);
        }
        QVERIFY(std::abs(naive - exact) > 1e-6L * exact);
      }
    }
  }

  void residualSquaresHandlesFewerPatternsThanColumns() {
    // Two patterns, three columns: rank deficient; the identity must still hold exactly.
    Eigen::MatrixXd X(2, 3);
    X << 1, 2, 3, 1, -1, 0.5;
    const Eigen::VectorXd y = dpsynth::test::vec({4.0, -2.0});
    const Eigen::VectorXd w = dpsynth::test::vec({2.0, 0.5});
    const models::ResidualSquares q(X, y, w, 2);
    auto rng = random::makeRng(3);
    for (int k = 0; k < 5; ++k) {
      Eigen::VectorXd beta(3);
      for (Eigen::Index j = 0; j < 3; ++j) beta[j] = random::normal(rng, 0.0, 3.0);
      Eigen::VectorXd g = Eigen::VectorXd::Zero(3);
      const double got = q.evaluate(beta, 1.0, g);
      const Eigen::VectorXd r = y - X * beta;
      const double want = (w.array() * r.array().square()).sum();
      QVERIFY(std::abs(got - want) <= 1e-12 * std::max(1.0, want));
      const Eigen::VectorXd wantGrad = X.transpose() * (w.asDiagonal() * r);
      QVERIFY((g - wantGrad).cwiseAbs().maxCoeff() <= 1e-12 * std::max(1.0, wantGrad.norm()));
    }
  }

  void betaInterceptOnlyMatches() {
    const auto d = fixtureDataset(Family::beta, 400, 0, 6);
    for (bool weighted : {false, true}) {
      const std::vector<double> alpha =
          weighted ? fixtureWeights(d.size(), 6) : std::vector<double>{};
      const auto fast = build(d, true, alpha);
      const auto slow = build(d, false, alpha);
      QVERIFY(usesShortcut<models::BetaLikelihood>(*fast));
      for (const auto& u : points(*slow, 6, 0.7)) expectSameDensity(*fast, *slow, u, 1e-10);
    }
  }

  void shortcutsOnlyWhereExact() {
    // Censored fits clamp each record: never the shortcut. Beta regression: η varies by record.
    const auto normal = fixtureDataset(Family::normal, 100, 2, 7);
    const auto censored =
        models::makeModel(normal, {Family::normal}, models::LikelihoodWeights{{}, -3.0, 3.0});
    QVERIFY(!usesShortcut<models::NormalLikelihood>(*censored));
    const auto betaRegression = build(fixtureDataset(Family::beta, 100, 2, 7), true);
    QVERIFY(!usesShortcut<models::BetaLikelihood>(*betaRegression));
    const auto poisson = build(fixtureDataset(Family::poisson, 100, 2, 7), true);
    QVERIFY(dynamic_cast<const models::GlmModel<models::PoissonLikelihood>*>(poisson.get()));
  }

  void recordValuesDoNotDependOnTheShortcut() {
    // recordLogLik (Lipschitz bounds, weights) stays pattern by pattern.
    const auto d = fixtureDataset(Family::normal, 200, 2, 8);
    const auto fast = build(d, true);
    const auto slow = build(d, false);
    const Eigen::VectorXd u = fast->initialPoint();
    Eigen::VectorXd a(d.size()), b(d.size());
    fast->recordLogLik(u, a);
    slow->recordLogLik(u, b);
    QVERIFY(a == b);
  }

  void overflowIsMinusInfinityNotNaN() {
    const auto d = fixtureDataset(Family::normal, 50, 1, 9);
    const auto m = build(d, true);
    Eigen::VectorXd u = m->initialPoint();
    u[1] = 1e300;
    Eigen::VectorXd g(m->dim());
    QCOMPARE(m->logDensity(u, g), -std::numeric_limits<double>::infinity());
    u = m->initialPoint();
    u[2] = -800.0;  // σ = e^-800: 1/σ² overflows
    QCOMPARE(m->logDensity(u, g), -std::numeric_limits<double>::infinity());
  }
};

QTEST_APPLESS_MAIN(SufficientStatsTest)
#include "sufficient_stats_test.moc"
