/// The exact sampler against numbers that do not depend on it: moments and probabilities of the
/// censored pseudo posterior by composite Gauss–Legendre quadrature (a product rule for two
/// parameters) of the target written out here from the families' densities, for every family, with
/// the clamp active. Tolerances are the Monte Carlo error of independent draws (4.5 standard
/// errors). Also: a seed fixes the draws, another seed changes them, and a stop ends the run.
#include "core/privacy/exact_sampler.h"

#include <QtTest>
#include <array>
#include <boost/math/quadrature/gauss.hpp>
#include <cmath>
#include <functional>
#include <numbers>
#include <stop_token>
#include <vector>

#include "core/privacy/location_prior.h"
#include "core/random/rng.h"

using namespace dpsynth::core;
using namespace dpsynth::core::privacy;
using models::Family;

namespace {

constexpr double kSamplerInf = std::numeric_limits<double>::infinity();

double clampTo(double v, double lo, double hi) { return std::min(std::max(v, lo), hi); }

double logHalfCauchy(double x, double scale) {
  return std::log(2.0 / (std::numbers::pi * scale)) - std::log1p((x / scale) * (x / scale));
}

double logNormal(double x, double mean, double sd) {
  const double z = (x - mean) / sd;
  return -0.5 * z * z - std::log(sd) - 0.5 * std::log(2.0 * std::numbers::pi);
}

/// Moments of coordinates 0 and 1 and P(coordinate 0 <= cut) for given cuts.
struct Quadrature {
  double mean[2] = {0, 0}, sd[2] = {0, 0};
  std::vector<double> below;
};

/// A composite Gauss–Legendre rule (8 nodes per piece) over pieces of given widths: fine where
/// the clamp's kinks and the data's bump are, coarse over the prior's tails.
struct Rule {
  std::vector<double> nodes, weights;
};

/// segments: {from, to, piece width}, contiguous and increasing; cuts given to quadrature() must
/// be piece boundaries, so that P(x <= cut) is a sum over whole pieces.
Rule compositeRule(const std::vector<std::array<double, 3>>& segments) {
  const auto& half = boost::math::quadrature::gauss<double, 8>::abscissa();
  const auto& halfWeights = boost::math::quadrature::gauss<double, 8>::weights();
  Rule r;
  for (const auto& [from, to, width] : segments) {
    const int pieces = static_cast<int>(std::ceil((to - from) / width - 1e-9));
    for (int k = 0; k < pieces; ++k) {
      const double a = from + (to - from) * k / pieces, b = from + (to - from) * (k + 1) / pieces;
      const double mid = 0.5 * (a + b), scale = 0.5 * (b - a);
      for (std::size_t i = 0; i < half.size(); ++i) {
        for (double sign : {-1.0, 1.0}) {
          r.nodes.push_back(mid + sign * scale * half[i]);
          r.weights.push_back(scale * halfWeights[i]);
        }
      }
    }
  }
  return r;
}

/// Moments of a density on R^dim (dim 1 or 2; unnormalised, as its log, shifted by `shift` to
/// stay in range) over the product rule, in one pass.
Quadrature quadrature(int dim, const std::function<double(double, double)>& logDensity,
                      double shift, const std::vector<double>& cuts, const Rule& rule0,
                      const Rule& rule1) {
  double z = 0, m[2][2] = {{0, 0}, {0, 0}};
  std::vector<double> below(cuts.size(), 0.0);
  for (std::size_t i = 0; i < rule0.nodes.size(); ++i) {
    const double x0 = rule0.nodes[i];
    double inner = 0.0, inner1 = 0.0, inner2 = 0.0;
    const std::size_t count = dim == 1 ? 1 : rule1.nodes.size();
    for (std::size_t k = 0; k < count; ++k) {
      const double x1 = dim == 1 ? 0.0 : rule1.nodes[k];
      const double l = logDensity(x0, x1) - shift;
      if (std::isnan(l)) throw std::logic_error("NaN density in the quadrature");
      const double h = std::exp(l) * (dim == 1 ? 1.0 : rule1.weights[k]);
      inner += h;
      inner1 += h * x1;
      inner2 += h * x1 * x1;
    }
    const double w = rule0.weights[i];
    z += w * inner;
    m[0][0] += w * inner * x0;
    m[0][1] += w * inner * x0 * x0;
    m[1][0] += w * inner1;
    m[1][1] += w * inner2;
    for (std::size_t c = 0; c < cuts.size(); ++c)
      if (x0 < cuts[c]) below[c] += w * inner;
  }
  Quadrature q;
  for (int j = 0; j < dim; ++j) {
    q.mean[j] = m[j][0] / z;
    q.sd[j] = std::sqrt(m[j][1] / z - q.mean[j] * q.mean[j]);
  }
  for (double b : below) q.below.push_back(b / z);
  return q;
}

/// Compares `draws` (columns 0 and `second`) with the quadrature, within 4.5 standard errors.
/// heavyTail: coordinate 0 has tails like |x|^−4 (negbin's σ-integrated prior), so its sample
/// sd has no usable standard error: it is compared through the probabilities instead.
void compare(const Eigen::MatrixXd& draws, int second, const Quadrature& q,
             const std::vector<double>& cuts, const char* what, bool heavyTail = false) {
  const auto n = static_cast<double>(draws.rows());
  const int cols[2] = {0, second};
  for (int j = 0; j < (second > 0 ? 2 : 1); ++j) {
    const Eigen::VectorXd x = draws.col(cols[j]);
    const double mean = x.mean();
    const double sd = std::sqrt((x.array() - mean).square().sum() / (n - 1));
    QVERIFY2(std::abs(mean - q.mean[j]) < 4.5 * q.sd[j] / std::sqrt(n),
             qPrintable(QString("%1, coordinate %2: mean %3 vs %4 (sd %5)")
                            .arg(what)
                            .arg(j)
                            .arg(mean)
                            .arg(q.mean[j])
                            .arg(q.sd[j])));
    if (j == 0 && heavyTail) continue;
    // The sd's standard error, for a distribution with kurtosis up to about 9.
    QVERIFY2(std::abs(sd - q.sd[j]) < 4.5 * q.sd[j] * std::sqrt(2.0 / n),
             qPrintable(
                 QString("%1, coordinate %2: sd %3 vs %4").arg(what).arg(j).arg(sd).arg(q.sd[j])));
  }
  for (std::size_t k = 0; k < cuts.size(); ++k) {
    const double p = q.below[k];
    const double got = (draws.col(0).array() <= cuts[k]).cast<double>().mean();
    QVERIFY2(
        std::abs(got - p) < 4.5 * std::sqrt(p * (1 - p) / n) + 1e-9,
        qPrintable(QString("%1: P(x <= %2) = %3 vs %4").arg(what).arg(cuts[k]).arg(got).arg(p)));
  }
}

ExactProblem problem(Family family, std::vector<double> y, double lower, double upper) {
  ExactProblem p;
  p.family = family;
  p.y = Eigen::Map<Eigen::VectorXd>(y.data(), static_cast<Eigen::Index>(y.size()));
  p.lower = lower;
  p.upper = upper;
  return p;
}

Eigen::MatrixXd drawsOf(const ExactProblem& p, int draws, std::uint64_t seed) {
  random::Rng rng = random::makeRng(seed);
  const ExactSample s = sampleExact(p, draws, rng);
  if (s.cancelled || s.draws.rows() != draws) throw std::logic_error("sampler did not finish");
  if (s.stats.roundingSlips != 0) throw std::logic_error("rounding slips in a small problem");
  return s.draws;
}

}  // namespace

class ExactSamplerTest : public QObject {
  Q_OBJECT

 private slots:
  void poissonMatchesOneDimensionalQuadrature() {
    // Five counts and ε = 4 ([−2, 0]): the 9 and the 0 are clamped over much of the range.
    const std::vector<double> y{0, 2, 3, 3, 9};
    const ExactProblem p = problem(Family::poisson, y, -2.0, 0.0);
    auto logDensity = [&](double beta, double) {
      double l = logNormal(beta, 0.0, 10.0);
      for (double v : y) l += clampTo(v * beta - std::exp(beta) - std::lgamma(v + 1), -2.0, 0.0);
      return l;
    };
    const std::vector<double> cuts{-5.0, 0.0, 0.8, 1.2, 2.0, 10.0};
    const Rule beta = compositeRule({{-80.0, -5.0, 0.5}, {-5.0, 10.0, 0.01}, {10.0, 80.0, 0.5}});
    const Quadrature q = quadrature(1, logDensity, -5.0, cuts, beta, {});
    compare(drawsOf(p, 40000, 1), 0, q, cuts, "poisson");
  }

  /// An empty database (a release whose count is confidential may hold none, SPEC §0) is a
  /// problem like any other: its target is the prior, here N(0, 10) for the Poisson log mean
  /// and N(0, 10) × half-Cauchy(0, 5) for the normal family's (μ, log σ).
  void anEmptyDatabaseDrawsThePrior() {
    const std::vector<double> none;
    const std::vector<double> cuts{-5.0, 0.0, 0.8, 10.0};
    const Rule beta = compositeRule({{-80.0, -5.0, 0.5}, {-5.0, 10.0, 0.01}, {10.0, 80.0, 0.5}});
    const Quadrature prior = quadrature(1, [](double b, double) { return logNormal(b, 0.0, 10.0); },
                                        -5.0, cuts, beta, {});
    QVERIFY(std::abs(prior.below[1] - 0.5) < 1e-6);  // the quadrature itself: Φ(0)
    compare(drawsOf(problem(Family::poisson, none, -2.0, 0.0), 20000, 3), 0, prior, cuts,
            "poisson, no records");
    const Rule mu =
        compositeRule({{-150.0, -10.0, 0.25}, {-10.0, 20.0, 0.05}, {20.0, 150.0, 0.25}});
    const Rule t = compositeRule({{-40.0, -6.0, 0.5}, {-6.0, 3.0, 0.05}, {3.0, 40.0, 0.5}});
    const Quadrature normal = quadrature(
        2,
        [](double m, double lt) {
          return logNormal(m, 0.0, 10.0) + logHalfCauchy(std::exp(lt), 5.0) + lt;
        },
        -10.0, cuts, mu, t);
    compare(drawsOf(problem(Family::normal, none, -2.0, 2.0), 20000, 4), 1, normal, cuts,
            "normal, no records");
  }

  void normalMatchesTwoDimensionalQuadrature() {
    const std::vector<double> y{1.2, 2.0, 2.1, 3.5};
    const ExactProblem p = problem(Family::normal, y, -2.0, 40.0);
    // Coordinates (μ, t = log σ): prior N(0, 10) × half-Cauchy(0, 5) with Jacobian e^t.
    auto logDensity = [&](double mu, double t) {
      const double sigma = std::exp(t);
      double l = logNormal(mu, 0.0, 10.0) + logHalfCauchy(sigma, 5.0) + t;
      for (double v : y) l += clampTo(logNormal(v, mu, sigma), -2.0, 40.0);
      return l;
    };
    const std::vector<double> cuts{0.0, 1.5, 2.2, 3.0};
    const Rule mu = compositeRule({{-150.0, -10.0, 2.0},
                                   {-10.0, 0.0, 0.25},
                                   {0.0, 6.0, 0.05},
                                   {6.0, 20.0, 0.25},
                                   {20.0, 150.0, 2.0}});
    const Rule t = compositeRule({{-40.0, -6.0, 0.5}, {-6.0, 3.0, 0.05}, {3.0, 40.0, 0.5}});
    const Quadrature q = quadrature(2, logDensity, -10.0, cuts, mu, t);
    compare(drawsOf(p, 20000, 2), 1, q, cuts, "normal");
  }

  void betaMatchesTwoDimensionalQuadrature() {
    const std::vector<double> y{0.12, 0.3, 0.31, 0.45, 0.7, 0.05};
    const ExactProblem p = problem(Family::beta, y, -1.0, 1.5);
    // Coordinates (η = logit φ, v = log(λ − 0.1)): φ ~ Uniform(0, 1) has density φ(1 − φ) in η;
    // λ ~ Pareto(0.1, 1.5) has density 1.5·0.1^1.5/λ^2.5, times e^v.
    auto logDensity = [&](double eta, double v) {
      const double phi = 1.0 / (1.0 + std::exp(-eta));
      const double lambda = 0.1 + std::exp(v);
      double l = std::log(phi) + std::log1p(-phi) + std::log(1.5 * std::pow(0.1, 1.5)) -
                 2.5 * std::log(lambda) + v;
      const double a = lambda * phi, b = lambda * (1.0 - phi);
      for (double x : y) {
        const double f = std::lgamma(lambda) - std::lgamma(a) - std::lgamma(b) +
                         (a - 1.0) * std::log(x) + (b - 1.0) * std::log1p(-x);
        l += clampTo(f, -1.0, 1.5);
      }
      return l;
    };
    const std::vector<double> cuts{-2.0, -1.0, -0.5, 0.5};
    const Rule eta = compositeRule({{-35.0, -6.0, 0.5}, {-6.0, 3.0, 0.04}, {3.0, 35.0, 0.5}});
    const Rule v = compositeRule({{-35.0, -5.0, 0.5}, {-5.0, 8.0, 0.04}, {8.0, 35.0, 0.5}});
    const Quadrature q = quadrature(2, logDensity, 0.0, cuts, eta, v);
    compare(drawsOf(p, 20000, 3), 1, q, cuts, "beta");
  }

  void negbinMatchesTwoDimensionalQuadrature() {
    const std::vector<double> y{1, 3, 4, 4, 8, 15};
    const ExactProblem p = problem(Family::negbin, y, -2.5, 0.0);
    const LocationPrior intercept = LocationPrior::negbinIntercept();
    // Coordinates (β, w = log τ), φ = 1/τ: the σ-integrated intercept prior × half-Cauchy(0, 5)
    // for τ with Jacobian e^w.
    double lastBeta = std::nan(""), lastPrior = 0.0;  // the product rule varies w fastest
    auto logDensity = [&](double beta, double w) {
      if (beta != lastBeta) {
        lastBeta = beta;
        lastPrior = intercept.logDensity(beta);
      }
      const double tau = std::exp(w), phi = 1.0 / tau, mu = std::exp(beta);
      double l = lastPrior + logHalfCauchy(tau, 5.0) + w;
      for (double v : y) {
        const double f = std::lgamma(v + phi) - std::lgamma(phi) - std::lgamma(v + 1) +
                         phi * std::log(phi / (mu + phi)) + v * std::log(mu / (mu + phi));
        l += clampTo(f, -2.5, 0.0);
      }
      return l;
    };
    const std::vector<double> cuts{-10.0, -2.0, 0.0, 1.0, 1.7, 2.5, 4.0, 10.0};
    const Rule beta = compositeRule({{-150.0, -10.0, 2.0},
                                     {-10.0, -1.0, 0.25},
                                     {-1.0, 4.0, 0.02},
                                     {4.0, 20.0, 0.25},
                                     {20.0, 150.0, 2.0}});
    const Rule w = compositeRule({{-35.0, -8.0, 0.5}, {-8.0, 4.0, 0.04}, {4.0, 35.0, 0.5}});
    const Quadrature q = quadrature(2, logDensity, -15.0, cuts, beta, w);
    // The draws are (β, log σ, log τ).
    compare(drawsOf(p, 20000, 4), 2, q, cuts, "negbin", true);
  }

  void aSeedFixesTheDraws() {
    const ExactProblem p = problem(Family::beta, {0.2, 0.4, 0.35}, -0.5, 0.5);
    const Eigen::MatrixXd a = drawsOf(p, 500, 11), b = drawsOf(p, 500, 11), c = drawsOf(p, 500, 12);
    QVERIFY(a == b);
    QVERIFY(a != c);
  }

  void aStopEndsTheRunWithoutDraws() {
    const ExactProblem p = problem(Family::normal, {1.0, 2.0, 3.0}, -0.5, 0.5);
    std::stop_source source;
    source.request_stop();
    random::Rng rng = random::makeRng(1);
    const ExactSample s = sampleExact(p, 1000, rng, source.get_token());
    QVERIFY(s.cancelled);
    QCOMPARE(s.draws.size(), Eigen::Index{0});
  }
};

QTEST_APPLESS_MAIN(ExactSamplerTest)
#include "exact_sampler_test.moc"
