#include <QtTest>
#include <algorithm>
#include <boost/math/distributions/beta.hpp>
#include <boost/math/distributions/negative_binomial.hpp>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/poisson.hpp>
#include <cmath>
#include <numbers>
#include <vector>

#include "core/models/model.h"
#include "core/models/negbin_likelihood.h"
#include "support/model_fixtures.h"

using namespace dpsynth::core;
using dpsynth::test::vec;
using models::Family;

namespace {

/// log p(y_i | θ) from Boost's distributions, for constrained θ and design X.
double referenceLogLik(Family family, const Eigen::VectorXd& theta, const Eigen::RowVectorXd& x,
                       double y) {
  const Eigen::Index k = x.size();
  const double eta = x.dot(theta.head(k));
  switch (family) {
    case Family::poisson:
      return std::log(boost::math::pdf(boost::math::poisson_distribution<>(std::exp(eta)), y));
    case Family::negbin: {
      const double mu = std::exp(eta);
      const double phi = theta[2 * k];
      const boost::math::negative_binomial_distribution<> nb(phi, phi / (mu + phi));
      return std::log(boost::math::pdf(nb, y));
    }
    case Family::beta: {
      // Intercept-only models carry φ itself in theta[0].
      const double mean = k == 1 ? theta[0] : 1.0 / (1.0 + std::exp(-eta));
      const double lambda = theta[k];
      return std::log(boost::math::pdf(
          boost::math::beta_distribution<>(lambda * mean, lambda * (1.0 - mean)), y));
    }
    case Family::normal:
      return std::log(boost::math::pdf(boost::math::normal_distribution<>(eta, theta[k]), y));
  }
  return 0.0;
}

/// Checks recordLogLik against Boost for every record at constrained θ.
bool recordsMatch(const data::Dataset& data, const Eigen::VectorXd& theta) {
  const auto model = models::makeModel(data, {});
  Eigen::VectorXd f(model->records());
  model->recordLogLik(model->unconstrain(theta), f);
  bool ok = true;
  for (Eigen::Index i = 0; i < f.size(); ++i) {
    const double want = referenceLogLik(data.family, theta, data.X.row(i), data.y[i]);
    if (std::abs(f[i] - want) > 1e-10 * std::max(1.0, std::abs(want))) {
      qWarning("record %lld: got %.15g, want %.15g", static_cast<long long>(i), f[i], want);
      ok = false;
    }
  }
  return ok;
}

double clampValue(double v, double m) { return std::clamp(v, -m, m); }

}  // namespace

class LogLikTest : public QObject {
  Q_OBJECT

 private slots:
  void poissonMatchesBoost() {
    const auto d = dpsynth::test::makeDataset(Family::poisson, std::vector<double>{0, 1, 3, 7, 40});
    QVERIFY(recordsMatch(d, vec({std::log(4.5)})));
    Eigen::MatrixXd x(4, 1);
    x << 0, 1, 2.5, -1;
    const auto reg = dpsynth::test::makeDataset(Family::poisson, vec({0, 2, 12, 1}), x);
    QVERIFY(recordsMatch(reg, vec({1.1, 0.4})));
  }

  void negbinMatchesBoost() {
    // Counts below and above the small-count cut-off, and φ from near-geometric to near-Poisson.
    const std::vector<double> y{0, 1, 2, 7, 8, 9, 30, 250};
    const auto d = dpsynth::test::makeDataset(Family::negbin, y);
    for (double phi : {0.3, 2.0, 50.0, 1e4})
      QVERIFY(recordsMatch(d, vec({std::log(12.0), 1.0, phi})));
    Eigen::MatrixXd x(4, 1);
    x << 0, 1, -2, 0.5;
    const auto reg = dpsynth::test::makeDataset(Family::negbin, vec({3, 0, 17, 5}), x);
    QVERIFY(recordsMatch(reg, vec({1.5, -0.7, 0.8, 2.0, 4.0})));
    // Non-integer outcomes (placeholder data) take the lgamma path, not the small-count sum.
    const auto frac = dpsynth::test::makeDataset(Family::negbin, std::vector<double>{0.5, 2.5});
    QVERIFY(recordsMatch(frac, vec({std::log(3.0), 1.0, 2.0})));
  }

  /// The gradient pass's φ-terms (prefix sums for small counts, the vector kernel for the
  /// others, Stirling's difference beyond kLargePhi) against logGammaRatio per distinct outcome,
  /// in long double where the terms cancel.
  void negbinPhiTermSumsMatchThePerOutcomeTerms() {
    using models::NegbinLikelihood;
    NegbinLikelihood lik(models::GlmShape{});
    std::vector<NegbinLikelihood::Data> data;
    const std::vector<double> ys = {0, 1, 2, 3, 5, 7, 8, 9, 12.5, 30, 31, 250, 4000};
    for (double y : ys) data.push_back(NegbinLikelihood::data(y));
    lik.indexOutcomes(data);
    NegbinLikelihood::PassData passData;
    for (std::size_t i = 0; i < ys.size(); ++i) {
      passData.outcomeWeight.push_back(i == 4 ? 0.0 : 1.0 + 0.37 * double(i));  // y = 5: none
    }
    for (double phi : {0.03, 0.9, 7.0, 480.0, 2e5, 3e6, 1e11}) {
      Eigen::VectorXd u(3);
      u << 0.0, 0.0, -std::log(phi);
      const auto params = lik.params(u);
      double ratios = 0.0, digammas = 0.0;
      lik.phiTermSums(passData, params, ratios, digammas);
      double wantRatios = 0.0, wantDigammas = 0.0, scale = 0.0, digammaScale = 0.0;
      for (std::size_t i = 0; i < ys.size(); ++i) {
        double digammaDiff = 0.0;
        const double ratio = NegbinLikelihood::logGammaRatio<true>(NegbinLikelihood::data(ys[i]),
                                                                   params, digammaDiff);
        wantRatios += passData.outcomeWeight[i] * ratio;
        wantDigammas += passData.outcomeWeight[i] * digammaDiff;
        scale += passData.outcomeWeight[i] *
                 (std::abs(std::lgamma(ys[i] + params.phi)) + std::abs(params.logGammaPhi));
        digammaScale += passData.outcomeWeight[i] *
                        (std::abs(std::log(ys[i] + params.phi)) + std::abs(params.digammaPhi));
      }
      // Differences of two log gammas (digammas) of up to `scale` each: good to ~1e-14 of it.
      auto check = [phi](double got, double want, double scale) {
        QVERIFY2(
            std::abs(got - want) <= 1e-13 * std::max(1.0, std::abs(want)) + 1e-14 * scale,
            qPrintable(
                QString("phi %1: %2 vs %3").arg(phi).arg(got, 0, 'g', 17).arg(want, 0, 'g', 17)));
      };
      check(ratios, wantRatios, scale);
      check(digammas, wantDigammas, digammaScale);
    }
  }

  /// In the near-Poisson regime (φ up to 1e13) the record terms stay exact: for integer y,
  /// lgamma(y+φ) − lgamma(φ) = Σ_{k<y} log(φ+k) and ψ(y+φ) − ψ(φ) = Σ_{k<y} 1/(φ+k), summed here
  /// in long double. Two cancelling log gammas would be off by ~0.1 per record at φ = 1e13.
  void negbinIsAccurateForHugePhi() {
    using models::NegbinLikelihood;
    const NegbinLikelihood lik(models::GlmShape{});
    for (double phi : {2e6, 1e8, 1e13}) {
      Eigen::VectorXd u(3);
      u << std::log(30.0), 0.0, -std::log(phi);
      const auto params = lik.params(u);
      for (double y : {8.0, 9.0, 30.0, 52.0, 250.0}) {
        const double eta = std::log(30.0);
        const auto terms = NegbinLikelihood::etaTerms<true>(eta, params);
        const auto r =
            NegbinLikelihood::record<true>(NegbinLikelihood::data(y), eta, terms, params);
        long double logRatio = 0, digammaDiff = 0;
        for (int k = 0; k < int(y); ++k) {
          logRatio += std::log(static_cast<long double>(params.phi) + k);
          digammaDiff += 1.0L / (static_cast<long double>(params.phi) + k);
        }
        const long double mu = 30.0L, ph = params.phi;
        const long double logSharePhi = -std::log1p(mu / ph);  // log(φ/(μ+φ))
        const long double want = logRatio - std::lgamma(static_cast<long double>(y) + 1) +
                                 ph * logSharePhi + y * std::log(mu / (mu + ph));
        QVERIFY2(std::abs(double(r.f - want)) < 1e-11 * std::max(1.0, std::abs(double(want))),
                 qPrintable(QString("phi %1 y %2: f %3, want %4")
                                .arg(phi)
                                .arg(y)
                                .arg(r.f, 0, 'g', 17)
                                .arg(double(want), 0, 'g', 17)));
        // d f / d log τ = −φ (ψ(y+φ) − ψ(φ) + log(φ/(μ+φ)) + (μ − y)/(μ+φ)), of order
        // (y − μ)²/(2φ): its terms cancel, so the double computation is good to ~1e-16·y.
        const long double dPhi = digammaDiff + logSharePhi + (mu - y) / (mu + ph);
        const double wantAux = double(-ph * dPhi);
        QVERIFY2(std::abs(r.dAux - wantAux) < 1e-6 * std::abs(wantAux) + 1e-13 * y,
                 qPrintable(QString("phi %1 y %2: dAux %3, want %4")
                                .arg(phi)
                                .arg(y)
                                .arg(r.dAux, 0, 'g', 17)
                                .arg(wantAux, 0, 'g', 17)));
      }
    }
  }

  void betaMatchesBoost() {
    const auto d =
        dpsynth::test::makeDataset(Family::beta, std::vector<double>{0.01, 0.2, 0.5, 0.93});
    QVERIFY(recordsMatch(d, vec({0.3, 4.0})));
    QVERIFY(recordsMatch(d, vec({0.9, 0.15})));
    Eigen::MatrixXd x(3, 2);
    x << 0, 1, 1, -1, 0.5, 2;
    const auto reg = dpsynth::test::makeDataset(Family::beta, vec({0.4, 0.05, 0.7}), x);
    QVERIFY(recordsMatch(reg, vec({-0.3, 0.8, 0.2, 12.0})));
  }

  void normalMatchesBoost() {
    const auto d = dpsynth::test::makeDataset(Family::normal, std::vector<double>{-3, 0, 1.5, 10});
    QVERIFY(recordsMatch(d, vec({1.0, 2.5})));
    Eigen::MatrixXd x(3, 1);
    x << 1, 2, -4;
    const auto reg = dpsynth::test::makeDataset(Family::normal, vec({5, -1, 2}), x);
    QVERIFY(recordsMatch(reg, vec({0.5, 1.2, 0.7})));
  }

  /// Σ_i clamp(α_i f_i, −M, M), f_i from Boost record by record (no grouping), plus the prior
  /// (the log density of the same model with α ≡ 0) equals the grouped log density.
  void groupingMatchesBruteForce_data() {
    QTest::addColumn<int>("family");
    QTest::addColumn<int>("covariates");
    QTest::addColumn<bool>("censored");
    for (Family f : {Family::poisson, Family::negbin, Family::beta, Family::normal}) {
      for (int k : {0, 1}) {
        for (bool c : {false, true}) {
          QTest::addRow("%s k=%d %s", models::familyName(f).c_str(), k,
                        c ? "censored" : "uncensored")
              << int(f) << k << c;
        }
      }
    }
  }

  void groupingMatchesBruteForce() {
    QFETCH(int, family);
    QFETCH(int, covariates);
    QFETCH(bool, censored);
    const auto data = dpsynth::test::fixtureDataset(Family(family), 300, covariates, 5);
    const auto alpha = dpsynth::test::fixtureWeights(data.size(), 6);
    const auto unweighted = models::makeModel(data, {});
    Eigen::VectorXd u = unweighted->initialPoint();
    u.array() += 0.1;
    // Censored: M = median |f_i|, so that many weighted contributions are clamped, many not.
    double clamp = std::numeric_limits<double>::infinity();
    if (censored) {
      Eigen::VectorXd f(unweighted->records());
      unweighted->recordLogLik(u, f);
      std::vector<double> a(f.size());
      for (Eigen::Index i = 0; i < f.size(); ++i) a[std::size_t(i)] = std::abs(f[i]);
      std::nth_element(a.begin(), a.begin() + a.size() / 2, a.end());
      clamp = a[a.size() / 2];
    }
    const auto model = models::makeModel(data, {}, {alpha, -clamp, clamp});
    const auto prior =
        models::makeModel(data, {}, {std::vector<double>(data.size(), 0.0), -clamp, clamp});
    const Eigen::VectorXd theta = model->constrain(u);
    double want = prior->logDensity(u);
    for (Eigen::Index i = 0; i < data.y.size(); ++i) {
      const double f = referenceLogLik(data.family, theta, data.X.row(i), data.y[i]);
      want += clampValue(alpha[std::size_t(i)] * f, clamp);
    }
    QVERIFY(std::abs(model->logDensity(u) - want) < 1e-9 * std::abs(want));
    if (std::isfinite(clamp)) {
      // The bound has to bite for this check to mean anything.
      Eigen::VectorXd f(model->records());
      model->recordLogLik(u, f);
      int clamped = 0, free = 0;
      for (Eigen::Index i = 0; i < f.size(); ++i) {
        const double v = std::abs(alpha[std::size_t(i)] * f[i]);
        clamped += v > clamp;
        free += alpha[std::size_t(i)] > 0 && v < clamp;
      }
      QVERIFY(clamped > 20 && free > 20);
    }
  }

  /// Three records, normal family, θ = (β0 = 1, σ = 2): residuals −1, 1, 4 give
  /// f = −c − log 2 − {1/8, 1/8, 2} with c = log(2π)/2. With α = (1, ½, ½) and M = 1.2 the first
  /// and third contributions are clamped to −1.2; only the second, ½ f_2, moves with θ.
  void weightsAndClampByHand() {
    const auto d = dpsynth::test::makeDataset(Family::normal, std::vector<double>{0, 2, 5});
    const std::vector<double> alpha{1.0, 0.5, 0.5};
    const auto prior = models::makeModel(d, {}, {{0.0, 0.0, 0.0}});
    const auto weighted = models::makeModel(d, {}, {alpha});
    const auto censored = models::makeModel(d, {}, {alpha, -1.2, 1.2});
    const Eigen::VectorXd u = vec({1.0, std::log(2.0)});
    const double c = 0.5 * std::log(2.0 * std::numbers::pi);
    const double f12 = -c - std::log(2.0) - 0.125;
    const double f3 = -c - std::log(2.0) - 2.0;

    Eigen::VectorXd g0(2), gw(2), gc(2);
    const double lp0 = prior->logDensity(u, g0);
    QCOMPARE(weighted->logDensity(u, gw) - lp0, f12 + 0.5 * f12 + 0.5 * f3);
    QCOMPARE(censored->logDensity(u, gc) - lp0, -1.2 + 0.5 * f12 - 1.2);
    // d/dβ0 of ½ f_2 = ½·r/σ² = 1/8; d/dlog σ = ½(r²/σ² − 1) = −3/8.
    QCOMPARE(gc[0] - g0[0], 0.125);
    QCOMPARE(gc[1] - g0[1], -0.375);
    // Unclamped: Σ α r/σ² = (−1 + ½ + 2)/4 and Σ α (r²/σ² − 1) = (−¾ − ⅜ + 1.5).
    QCOMPARE(gw[0] - g0[0], 0.375);
    QCOMPARE(gw[1] - g0[1], -0.75 - 0.375 + 1.5);
  }

  /// At |α f| = M exactly the record counts as unclamped (its gradient is kept).
  void boundaryUsesUnclampedGradient() {
    const auto d = dpsynth::test::makeDataset(Family::normal, std::vector<double>{0, 2, 5});
    const std::vector<double> alpha{1.0, 0.5, 0.5};
    const Eigen::VectorXd u = vec({1.0, std::log(2.0)});
    const auto weighted = models::makeModel(d, {}, {alpha});
    Eigen::VectorXd f(3);
    weighted->recordLogLik(u, f);
    const double bound = std::abs(f[0]);  // record 1 (α = 1) sits exactly on the bound
    const auto censored = models::makeModel(d, {}, {alpha, -bound, bound});
    const auto prior = models::makeModel(d, {}, {{0.0, 0.0, 0.0}});
    Eigen::VectorXd g0(2), gc(2);
    const double lp0 = prior->logDensity(u, g0);
    // Record 3 (½ f_3 ≈ −1.81) is clamped; records 1 and 2 are not.
    QCOMPARE(censored->logDensity(u, gc) - lp0, f[0] + 0.5 * f[1] - bound);
    // Records 1 and 2: β0: (−1 + ½)/4; log σ: (¼ − 1) + ½(¼ − 1).
    QVERIFY(std::abs(gc[0] - g0[0] + 0.125) < 1e-12);
    QVERIFY(std::abs(gc[1] - g0[1] + 1.125) < 1e-12);
  }

  /// The same on the upper bound: with σ = 0.1 densities exceed 1 and f > 0.
  void upperBoundaryUsesUnclampedGradient() {
    const auto d = dpsynth::test::makeDataset(Family::normal, std::vector<double>{0, 0.05, 0.3});
    const std::vector<double> alpha{1.0, 1.0, 0.5};
    const Eigen::VectorXd u = vec({0.0, std::log(0.1)});
    const auto weighted = models::makeModel(d, {}, {alpha});
    Eigen::VectorXd f(3);
    weighted->recordLogLik(u, f);
    QVERIFY(f[0] > f[1] && f[1] > 0.0 && 0.5 * f[2] < -f[1]);
    const double bound = f[1];  // record 2 sits exactly on +M; 1 is above, 3 below −M
    const auto censored = models::makeModel(d, {}, {alpha, -bound, bound});
    const auto prior = models::makeModel(d, {}, {{0.0, 0.0, 0.0}});
    Eigen::VectorXd g0(2), gc(2);
    const double lp0 = prior->logDensity(u, g0);
    QCOMPARE(censored->logDensity(u, gc) - lp0, bound + f[1] - bound);
    // Record 2 only: r/σ² = 0.05/0.01 and r²/σ² − 1 = 0.25 − 1.
    QVERIFY(std::abs(gc[0] - g0[0] - 5.0) < 1e-10);
    QVERIFY(std::abs(gc[1] - g0[1] + 0.75) < 1e-10);
  }

  void zeroWeightsLeaveThePrior() {
    const auto d = dpsynth::test::fixtureDataset(Family::negbin, 50, 0, 3);
    const auto prior = models::makeModel(d, {}, {std::vector<double>(50, 0.0)});
    const auto full = models::makeModel(d, {});
    Eigen::VectorXd u = full->initialPoint();
    Eigen::VectorXd f(50);
    full->recordLogLik(u, f);
    QVERIFY(std::abs(full->logDensity(u) - prior->logDensity(u) - f.sum()) <
            1e-9 * std::abs(f.sum()));
    // Record log-likelihoods ignore the weights.
    Eigen::VectorXd f0(50);
    prior->recordLogLik(u, f0);
    QVERIFY(f0 == f);
  }
};

QTEST_APPLESS_MAIN(LogLikTest)
#include "loglik_test.moc"
