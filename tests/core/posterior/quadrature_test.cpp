/// Posterior correctness: the sampler's summaries against quadrature on a fine grid of a log
/// density written here from the formulas of SPEC §2 (boost/std special functions only), so
/// neither the sampler nor the model code is trusted.
#include <QtTest>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>

#include "core/data/dataset.h"
#include "core/mcmc/diagnostics.h"
#include "core/mcmc/sampler.h"
#include "core/models/model.h"
#include "core/privacy/neighbours.h"
#include "core/random/rng.h"
#include "support/posterior_grid.h"

using namespace dpsynth::core;
using dpsynth::test::gridMarginals;
using dpsynth::test::linspace;
using dpsynth::test::Marginal;

namespace {

data::Dataset intercept(models::Family family, const Eigen::VectorXd& y) {
  data::Dataset d;
  d.family = family;
  d.y = y;
  d.X = Eigen::MatrixXd::Ones(y.size(), 1);
  d.designNames = {"(Intercept)"};
  d.outcomeName = "y";
  return d;
}

double logNormal(double x, double sd) { return -0.5 * x * x / (sd * sd) - std::log(sd); }
double logHalfCauchy(double x, double s) { return -std::log1p((x / s) * (x / s)); }
double logHalfT3(double x) { return -2.0 * std::log1p(x * x / 3.0); }

std::vector<mcmc::ParameterSummary> sampleSummary(const models::Model& model) {
  mcmc::NutsConfig cfg;
  cfg.chains = 4;
  cfg.warmup = 1000;
  cfg.draws = 2000;
  cfg.seed = 4242;
  const auto result = mcmc::sample(model, cfg);
  return mcmc::summarize(model, result);
}

void compare(const mcmc::ParameterSummary& s, const Marginal& q, bool heavyTail = false) {
  const QString what = QString::fromStdString(s.name);
  const double tol = 0.1 * q.sd;
  QVERIFY2(std::abs(s.mean - q.mean) < (heavyTail ? 3 : 1) * tol,
           qPrintable(what + QString(" mean %1 vs %2").arg(s.mean).arg(q.mean)));
  QVERIFY2(std::abs(s.q50 - q.q50) < tol,
           qPrintable(what + QString(" median %1 vs %2").arg(s.q50).arg(q.q50)));
  QVERIFY2(std::abs(s.q025 - q.q025) < 2 * tol,
           qPrintable(what + QString(" q025 %1 vs %2").arg(s.q025).arg(q.q025)));
  if (heavyTail) return;
  QVERIFY2(std::abs(s.sd / q.sd - 1) < 0.1,
           qPrintable(what + QString(" sd %1 vs %2").arg(s.sd).arg(q.sd)));
  QVERIFY2(std::abs(s.q975 - q.q975) < 2 * tol,
           qPrintable(what + QString(" q975 %1 vs %2").arg(s.q975).arg(q.q975)));
}

Eigen::VectorXd draws(int n, const std::function<double(random::Rng&)>& f) {
  random::Rng rng = random::makeRng(99, 1);
  Eigen::VectorXd y(n);
  for (int i = 0; i < n; ++i) y[i] = f(rng);
  return y;
}

}  // namespace

class QuadratureTest : public QObject {
  Q_OBJECT
 private slots:
  void poissonIntercept() {
    const auto y = draws(30, [](random::Rng& r) { return double(random::poisson(r, 20)); });
    auto logp = [&](const std::vector<double>& u) {
      double s = logNormal(u[0], 10);
      for (double yi : y) s += yi * u[0] - std::exp(u[0]);
      return s;
    };
    const double c = std::log(y.mean()), h = 8 / std::sqrt(y.sum());
    const auto q = gridMarginals({linspace(c - h, c + h, 4001)}, logp, {});
    auto model =
        models::makeModel(intercept(models::Family::poisson, y), {models::Family::poisson});
    const auto s = sampleSummary(*model);
    compare(s[0], q[0]);
  }

  void poissonWeightedCensored() {
    const auto y = draws(30, [](random::Rng& r) { return double(random::poisson(r, 20)); });
    std::vector<double> alpha(30);
    for (int i = 0; i < 30; ++i) alpha[static_cast<std::size_t>(i)] = 0.3 + 0.7 * (i % 7) / 6.0;
    const double clamp = 2.5;  // between the typical and the largest |alpha f| near the mode
    auto logp = [&](const std::vector<double>& u) {
      double s = logNormal(u[0], 10);
      for (int i = 0; i < 30; ++i) {
        const double f = y[i] * u[0] - std::exp(u[0]) - std::lgamma(y[i] + 1);
        s += std::clamp(alpha[static_cast<std::size_t>(i)] * f, -clamp, clamp);
      }
      return s;
    };
    const double c = std::log(y.mean());
    const auto q = gridMarginals({linspace(c - 1.5, c + 1.5, 6001)}, logp, {});
    auto model = models::makeModel(intercept(models::Family::poisson, y), {models::Family::poisson},
                                   {alpha, -clamp, clamp});
    const auto s = sampleSummary(*model);
    compare(s[0], q[0]);
  }

  void poissonCensoredOneSided() {
    // SPEC §0: a count family's log-pmf is never positive, so [L, U] = [-ε/2, 0] for both
    // neighbour relations. The censored pseudo posterior must be the clamped density below.
    const auto y = draws(30, [](random::Rng& r) { return double(random::poisson(r, 20)); });
    const double eps = 7;
    const auto c =
        privacy::censorInterval(models::Family::poisson, privacy::Neighbours::replaceOne, eps);
    QCOMPARE(c.lower, -3.5);
    QCOMPARE(c.upper, 0.0);
    auto logp = [&](const std::vector<double>& u) {
      double s = logNormal(u[0], 10);
      for (double yi : y)
        s += std::clamp(yi * u[0] - std::exp(u[0]) - std::lgamma(yi + 1), -eps / 2, 0.0);
      return s;
    };
    const double centre = std::log(y.mean());
    const auto q = gridMarginals({linspace(centre - 6, centre + 3, 12001)}, logp, {});
    const auto data = intercept(models::Family::poisson, y);
    auto censored = models::makeModel(data, {models::Family::poisson}, {{}, c.lower, c.upper});
    const auto s = sampleSummary(*censored);
    compare(s[0], q[0]);
    // The clamp binds: the uncensored posterior is a different one.
    const auto plain = sampleSummary(*models::makeModel(data, {models::Family::poisson}));
    QVERIFY2(std::abs(plain[0].sd / q[0].sd - 1) > 0.3,
             qPrintable(QString("sd %1 vs %2").arg(plain[0].sd).arg(q[0].sd)));
  }

  void betaCensoredTwoSided() {
    // Beta log-densities take both signs: under replace-one the interval is [-ε/4, ε/4].
    const auto y = draws(40, [](random::Rng& r) { return random::beta(r, 2.0, 5.0); });
    const double eps = 2.0;
    const auto c =
        privacy::censorInterval(models::Family::beta, privacy::Neighbours::replaceOne, eps);
    QCOMPARE(c.lower, -0.5);
    QCOMPARE(c.upper, 0.5);
    auto logp = [&](const std::vector<double>& u) {
      const double phi = 1 / (1 + std::exp(-u[0]));
      const double lambda = 0.1 + std::exp(u[1]);
      double s = std::log(phi) + std::log1p(-phi) - 2.5 * std::log(lambda) + u[1];
      const double a = lambda * phi, b = lambda * (1 - phi);
      for (double yi : y)
        s += std::clamp(std::lgamma(lambda) - std::lgamma(a) - std::lgamma(b) +
                            (a - 1) * std::log(yi) + (b - 1) * std::log1p(-yi),
                        c.lower, c.upper);
      return s;
    };
    const auto q = gridMarginals({linspace(-4.0, 2.5, 500), linspace(-4.0, 7.0, 500)}, logp,
                                 {[](double v) { return 1 / (1 + std::exp(-v)); },
                                  [](double v) { return 0.1 + std::exp(v); }});
    const auto data = intercept(models::Family::beta, y);
    auto censored = models::makeModel(data, {models::Family::beta}, {{}, c.lower, c.upper});
    const auto s = sampleSummary(*censored);
    compare(s[0], q[0]);
    compare(s[1], q[1], /*heavyTail=*/true);
    const auto plain = sampleSummary(*models::makeModel(data, {models::Family::beta}));
    QVERIFY2(std::abs(plain[0].mean - q[0].mean) > q[0].sd,
             qPrintable(QString("phi mean %1 vs %2").arg(plain[0].mean).arg(q[0].mean)));
    QVERIFY2(std::abs(plain[1].q50 - q[1].q50) > 0.5 * q[1].sd,
             qPrintable(QString("lambda median %1 vs %2").arg(plain[1].q50).arg(q[1].q50)));
  }

  void normalTwoParameters() {
    const auto y = draws(30, [](random::Rng& r) { return random::normal(r, 3.0, 2.0); });
    const double sdScale = 1.0;
    auto logp = [&](const std::vector<double>& u) {
      const double sigma = std::exp(u[1]);
      double s = logNormal(u[0], 10 * sdScale) + logHalfCauchy(sigma, 5 * sdScale) + u[1];
      for (double yi : y) s += -u[1] - 0.5 * (yi - u[0]) * (yi - u[0]) / (sigma * sigma);
      return s;
    };
    const double m = y.mean(), sd = std::sqrt((y.array() - m).square().sum() / 29);
    const auto q = gridMarginals({linspace(m - 2.5 * sd, m + 2.5 * sd, 500),
                                  linspace(std::log(sd) - 1.2, std::log(sd) + 1.2, 500)},
                                 logp, {nullptr, [](double v) { return std::exp(v); }});
    auto model =
        models::makeModel(intercept(models::Family::normal, y), {models::Family::normal, sdScale});
    const auto s = sampleSummary(*model);
    QCOMPARE(s[0].name, std::string("beta[0]"));
    QCOMPARE(s[1].name, std::string("sigma"));
    compare(s[0], q[0]);
    compare(s[1], q[1]);
  }

  void betaTwoParameters() {
    const auto y = draws(40, [](random::Rng& r) { return random::beta(r, 2.0, 5.0); });
    auto logp = [&](const std::vector<double>& u) {
      const double phi = 1 / (1 + std::exp(-u[0]));
      const double lambda = 0.1 + std::exp(u[1]);
      // phi ~ Beta(1,1) with the logit Jacobian; lambda ~ Pareto(0.1, 1.5) with its Jacobian.
      double s = std::log(phi) + std::log1p(-phi) - 2.5 * std::log(lambda) + u[1];
      const double a = lambda * phi, b = lambda * (1 - phi);
      for (double yi : y)
        s += std::lgamma(lambda) - std::lgamma(a) - std::lgamma(b) + (a - 1) * std::log(yi) +
             (b - 1) * std::log1p(-yi);
      return s;
    };
    const double m = y.mean();
    const double logitM = std::log(m / (1 - m));
    const auto q = gridMarginals({linspace(logitM - 1.2, logitM + 1.2, 500),
                                  linspace(std::log(7.0) - 1.6, std::log(7.0) + 1.6, 500)},
                                 logp,
                                 {[](double v) { return 1 / (1 + std::exp(-v)); },
                                  [](double v) { return 0.1 + std::exp(v); }});
    auto model = models::makeModel(intercept(models::Family::beta, y), {models::Family::beta});
    const auto s = sampleSummary(*model);
    QCOMPARE(s[0].name, std::string("phi"));
    QCOMPARE(s[1].name, std::string("lambda"));
    compare(s[0], q[0]);
    compare(s[1], q[1]);
  }

  void negbinThreeParameters() {
    const auto y =
        draws(30, [](random::Rng& r) { return double(random::negativeBinomial(r, 20, 5)); });
    auto logp = [&](const std::vector<double>& v) {
      // v = (beta0, log sigma0, log phi); the model samples log tau = -log phi (Jacobian |1|).
      const double beta0 = v[0], sigma = std::exp(v[1]), phi = std::exp(v[2]);
      const double tau = 1 / phi, mu = std::exp(beta0);
      double s =
          logNormal(beta0, sigma) + logHalfT3(sigma) + v[1] + logHalfCauchy(tau, 5) + std::log(tau);
      for (double yi : y)
        s += std::lgamma(yi + phi) - std::lgamma(phi) - std::lgamma(yi + 1) +
             phi * (std::log(phi) - std::log(mu + phi)) + yi * (beta0 - std::log(mu + phi));
      return s;
    };
    const double c = std::log(y.mean());
    const auto q = gridMarginals(
        {linspace(c - 0.8, c + 0.8, 90), linspace(-4, 6, 90), linspace(-1.5, 5.5, 110)}, logp,
        {nullptr, [](double v) { return std::exp(v); }, [](double v) { return std::exp(v); }});
    auto model = models::makeModel(intercept(models::Family::negbin, y), {models::Family::negbin});
    const auto s = sampleSummary(*model);
    QCOMPARE(s[0].name, std::string("beta[0]"));
    QCOMPARE(s[1].name, std::string("sigma[0]"));
    QCOMPARE(s[2].name, std::string("phi"));
    compare(s[0], q[0]);
    compare(s[1], q[1], /*heavyTail=*/true);
    compare(s[2], q[2], /*heavyTail=*/true);
  }
};

QTEST_APPLESS_MAIN(QuadratureTest)
#include "quadrature_test.moc"
