#include "core/mcmc/diagnostics.h"

#include <QtTest>
#include <cmath>
#include <limits>

#include "core/random/rng.h"
#include "support/gaussian_models.h"

using dpsynth::core::mcmc::ChainResult;
using dpsynth::core::mcmc::SampleResult;
namespace mcmc = dpsynth::core::mcmc;
namespace rnd = dpsynth::core::random;
namespace test = dpsynth::test;
using Chains = std::vector<Eigen::VectorXd>;

namespace {

Chains iidNormal(int chains, int draws, std::uint64_t seed, double shiftLastChain = 0.0) {
  Chains out;
  for (int c = 0; c < chains; ++c) {
    rnd::Rng rng = rnd::makeRng(seed, c);
    Eigen::VectorXd x(draws);
    for (int i = 0; i < draws; ++i) x[i] = rnd::standardNormal(rng);
    if (c == chains - 1) x.array() += shiftLastChain;
    out.push_back(x);
  }
  return out;
}

/// Stationary AR(1) chains: x_t = rho x_{t-1} + sqrt(1 - rho^2) e_t.
Chains ar1(int chains, int draws, double rho, std::uint64_t seed) {
  Chains out;
  for (int c = 0; c < chains; ++c) {
    rnd::Rng rng = rnd::makeRng(seed, c);
    Eigen::VectorXd x(draws);
    x[0] = rnd::standardNormal(rng);
    for (int i = 1; i < draws; ++i) {
      x[i] = rho * x[i - 1] + std::sqrt(1 - rho * rho) * rnd::standardNormal(rng);
    }
    out.push_back(x);
  }
  return out;
}

bool near(double a, double b, double tol) { return std::abs(a - b) <= tol; }

/// Basic ESS written out from the definition (Geyer's initial monotone sequence with the
/// last-even-lag correction) on every lag's autocovariance by FFT: what the library computes
/// lag by lag, directly for the first lags.
double referenceEss(const Chains& unsplit) {
  const Chains chains = mcmc::splitChains(unsplit);
  const auto m = static_cast<double>(chains.size());
  const Eigen::Index n = chains.front().size();
  const auto nd = static_cast<double>(n);
  Eigen::VectorXd meanAcov = Eigen::VectorXd::Zero(n);
  Eigen::VectorXd means(chains.size());
  for (std::size_t c = 0; c < chains.size(); ++c) {
    meanAcov += mcmc::autocovariance(chains[c]) / m;
    means[static_cast<Eigen::Index>(c)] = chains[c].mean();
  }
  const double meanVar = meanAcov[0] * nd / (nd - 1.0);
  const double betweenVar = (means.array() - means.mean()).square().sum() / (m - 1.0);
  const double varPlus = meanVar * (nd - 1.0) / nd + betweenVar;
  std::vector<double> rho(static_cast<std::size_t>(n + 2), 0.0);
  auto r = [&](Eigen::Index t) { return 1.0 - (meanVar - meanAcov[t]) / varPlus; };
  Eigen::Index t = 0;
  double even = 1.0, odd = r(1);
  rho[0] = even;
  rho[1] = odd;
  while (t < n - 5 && even + odd > 0) {
    t += 2;
    even = r(t);
    odd = r(t + 1);
    if (even + odd >= 0) {
      rho[static_cast<std::size_t>(t)] = even;
      rho[static_cast<std::size_t>(t + 1)] = odd;
    }
  }
  if (even > 0) rho[static_cast<std::size_t>(t)] = even;
  for (Eigen::Index k = 2; k <= t - 2; k += 2) {
    auto at = [&](Eigen::Index i) -> double& { return rho[static_cast<std::size_t>(i)]; };
    if (at(k) + at(k + 1) > at(k - 2) + at(k - 1)) at(k) = at(k + 1) = (at(k - 2) + at(k - 1)) / 2;
  }
  double tau = -1.0 + rho[static_cast<std::size_t>(t)];
  for (Eigen::Index k = 0; k < t; ++k) tau += 2.0 * rho[static_cast<std::size_t>(k)];
  const double total = m * nd;
  return total / std::max(tau, 1.0 / std::log10(total));
}

QString num(double x) { return QString::number(x, 'g', 10); }

/// Equal bits, or both NaN.
bool same(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

}  // namespace

class DiagnosticsTest : public QObject {
  Q_OBJECT

 private slots:
  void rankNormalizationByHand() {
    // Pooled values 1 2 3 3 | 5 0 3 4 (S = 8): sorted 0 1 2 3 3 3 4 5, so the three 3s share
    // rank (4 + 5 + 6) / 3 = 5. z = Phi^{-1}((r - 3/8) / (8 + 1/4)); reference quantiles from
    // Python's statistics.NormalDist.
    const Chains chains{Eigen::Vector4d(1, 2, 3, 3), Eigen::Vector4d(5, 0, 3, 4)};
    const Chains z = mcmc::rankNormalize(chains);
    const double zr1 = -1.4342001596863794;  // r = 1: p = 0.625 / 8.25
    const double zr2 = -0.8524950342746939;  // r = 2
    const double zr3 = -0.4727891209922673;  // r = 3
    const double zr5 = 0.15250597424624424;  // r = 5 (ties)
    const Eigen::Vector4d expected0(zr2, zr3, zr5, zr5);
    const Eigen::Vector4d expected1(-zr1, zr1, zr5, -zr2);  // r = 8 and r = 7 by symmetry
    QVERIFY2((z[0] - expected0).cwiseAbs().maxCoeff() < 1e-12, qPrintable(num(z[0][0])));
    QVERIFY2((z[1] - expected1).cwiseAbs().maxCoeff() < 1e-12, qPrintable(num(z[1][0])));
  }

  void splitChainsDropsTheMiddleDraw() {
    const Chains split = mcmc::splitChains({(Eigen::VectorXd(5) << 1, 2, 3, 4, 5).finished()});
    QCOMPARE(int(split.size()), 2);
    QCOMPARE(split[0], Eigen::VectorXd(Eigen::Vector2d(1, 2)));
    QCOMPARE(split[1], Eigen::VectorXd(Eigen::Vector2d(4, 5)));
  }

  void splitRhatByHand() {
    // Split: [1 2] [3 4] [2 3] [4 5]; n = 2, W = 0.5, chain means 1.5 3.5 2.5 4.5 with
    // variance 5/3, B = 10/3; R = sqrt((B / W + n - 1) / n) = sqrt(23 / 6).
    const Chains chains{Eigen::Vector4d(1, 2, 3, 4), Eigen::Vector4d(2, 3, 4, 5)};
    QVERIFY2(near(mcmc::splitRhat(chains), std::sqrt(23.0 / 6.0), 1e-12),
             qPrintable(num(mcmc::splitRhat(chains))));
  }

  void autocovarianceMatchesDirectSum() {
    rnd::Rng rng = rnd::makeRng(1, 0);
    Eigen::VectorXd x(37);
    for (int i = 0; i < 37; ++i) x[i] = rnd::standardNormal(rng) + 0.1 * i;
    const Eigen::VectorXd acov = mcmc::autocovariance(x);
    const Eigen::VectorXd y = x.array() - x.mean();
    for (int lag = 0; lag < 37; ++lag) {
      double direct = 0.0;
      for (int i = 0; i + lag < 37; ++i) direct += y[i] * y[i + lag];
      QVERIFY2(near(acov[lag], direct / 37.0, 1e-12), qPrintable(QString::number(lag)));
    }
  }

  void quantileType7() {
    QVERIFY(near(mcmc::quantile(Eigen::Vector4d(4, 1, 3, 2), 0.5), 2.5, 1e-15));
    QVERIFY(
        near(mcmc::quantile((Eigen::VectorXd(5) << 5, 4, 3, 2, 1).finished(), 0.3), 2.2, 1e-15));
    QVERIFY(near(mcmc::quantile(Eigen::VectorXd::LinSpaced(10, 1, 10), 0.025), 1.225, 1e-15));
    QCOMPARE(mcmc::quantile(Eigen::Vector2d(3, 7), 1.0), 7.0);
    QCOMPARE(mcmc::quantile(Eigen::Vector2d(3, 7), 0.0), 3.0);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, mcmc::quantile(Eigen::VectorXd(), 0.5));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, mcmc::quantile(Eigen::Vector2d(1, 2), 1.5));
  }

  void iidChainsLookConverged() {
    const Chains chains = iidNormal(4, 1000, 11);
    const double n = 4000;
    const double rhat = mcmc::rankNormalizedSplitRhat(chains);
    QVERIFY2(rhat < 1.01 && rhat > 0.99, qPrintable(num(rhat)));
    QVERIFY2(mcmc::splitRhat(chains) < 1.01, qPrintable(num(mcmc::splitRhat(chains))));
    const double bulk = mcmc::essBulk(chains);
    const double basic = mcmc::essBasic(chains);
    const double tail = mcmc::essTail(chains);
    QVERIFY2(std::abs(bulk / n - 1) < 0.15, qPrintable(num(bulk)));
    QVERIFY2(std::abs(basic / n - 1) < 0.15, qPrintable(num(basic)));
    QVERIFY2(std::abs(tail / n - 1) < 0.25, qPrintable(num(tail)));
  }

  void ar1EssMatchesTheory() {
    // ESS = N (1 - rho) / (1 + rho) = 40000 / 19 for rho = 0.9.
    const double rho = 0.9;
    const Chains chains = ar1(4, 10000, rho, 5);
    const double expected = 40000.0 * (1 - rho) / (1 + rho);
    const double bulk = mcmc::essBulk(chains);
    const double basic = mcmc::essBasic(chains);
    QVERIFY2(std::abs(bulk / expected - 1) < 0.2, qPrintable(num(bulk)));
    QVERIFY2(std::abs(basic / expected - 1) < 0.2, qPrintable(num(basic)));
    QVERIFY(mcmc::essTail(chains) < 0.5 * 40000);
    QVERIFY(mcmc::rankNormalizedSplitRhat(chains) < 1.01);
  }

  /// The ESS takes its first lags' autocovariances directly and the rest by FFT: for chains
  /// whose sum stops within the direct lags (ρ = −0.5, 0.3) and past them (ρ = 0.9, 0.97), it is
  /// the definition's value.
  void essMatchesTheDefinitionAcrossLags() {
    for (double rho : {-0.5, 0.3, 0.9, 0.97}) {
      const Chains chains = ar1(4, 1000, rho, 21);
      const double want = referenceEss(chains);
      const double got = mcmc::essBasic(chains);
      QVERIFY2(near(got, want, 1e-9 * want),
               qPrintable(QString("rho %1: %2 against %3").arg(rho).arg(num(got)).arg(num(want))));
    }
  }

  void antitheticChainsExceedN() {
    // rho = -0.5: ESS = N * 1.5 / 0.5 = 3 N (capped at N log10 N).
    const Chains chains = ar1(4, 2000, -0.5, 8);
    const double bulk = mcmc::essBulk(chains);
    QVERIFY2(bulk > 1.5 * 8000 && bulk <= 8000 * std::log10(8000.0), qPrintable(num(bulk)));
  }

  void shiftedChainsAreFlagged() {
    // One chain of four shifted by 2 sd gives R-hat 1.30 with this seed (1 sd: 1.09, the
    // rank transform shrinks the shift); a 0.05 sd shift stays below 1.01.
    const Chains chains = iidNormal(4, 1000, 3, 2.0);
    const double rhat = mcmc::rankNormalizedSplitRhat(chains);
    QVERIFY2(rhat > 1.1, qPrintable(num(rhat)));
    QVERIFY(mcmc::rankNormalizedSplitRhat(iidNormal(4, 1000, 3, 0.05)) < 1.01);
    // A chain with the right mean but twice the scale is caught by the folded (tail) part.
    Chains wide = iidNormal(4, 1000, 4);
    wide[3] *= 3.0;
    QVERIFY2(mcmc::rankNormalizedSplitRhat(wide) > 1.1,
             qPrintable(num(mcmc::rankNormalizedSplitRhat(wide))));
    QVERIFY(mcmc::splitRhat(wide) < 1.1);  // the classic version misses it
    // A trend within each chain is caught by splitting.
    Chains trend = iidNormal(4, 1000, 6);
    for (auto& c : trend) c += Eigen::VectorXd::LinSpaced(1000, -2.0, 2.0);
    QVERIFY(mcmc::rankNormalizedSplitRhat(trend) > 1.1);
  }

  void heavyTailsStayFinite() {
    Chains chains;
    for (int c = 0; c < 4; ++c) {
      rnd::Rng rng = rnd::makeRng(21, c);
      Eigen::VectorXd x(1000);
      for (int i = 0; i < 1000; ++i) x[i] = rnd::cauchy(rng, 0.0, 1.0);
      chains.push_back(x);
    }
    const double rhat = mcmc::rankNormalizedSplitRhat(chains);
    QVERIFY2(std::isfinite(rhat) && rhat < 1.01, qPrintable(num(rhat)));
    const double tail = mcmc::essTail(chains);
    QVERIFY2(std::isfinite(tail) && tail > 0.75 * 4000, qPrintable(num(tail)));
    const double bulk = mcmc::essBulk(chains);
    QVERIFY2(std::abs(bulk / 4000 - 1) < 0.15, qPrintable(num(bulk)));
  }

  void degenerateInputGivesNaN() {
    const Chains constant(4, Eigen::VectorXd::Constant(10, 2.5));
    QVERIFY(std::isnan(mcmc::rankNormalizedSplitRhat(constant)));
    QVERIFY(std::isnan(mcmc::essBulk(constant)));
    QVERIFY(std::isnan(mcmc::essTail(constant)));
    QVERIFY(std::isnan(mcmc::essBasic(constant)));
    Chains withNaN = iidNormal(2, 10, 1);
    withNaN[1][3] = std::numeric_limits<double>::quiet_NaN();
    QVERIFY(std::isnan(mcmc::rankNormalizedSplitRhat(withNaN)));
    QVERIFY(std::isnan(mcmc::essBulk(withNaN)));
    // Too short to split into chains with an autocorrelation series.
    QVERIFY(std::isnan(mcmc::essBulk(iidNormal(2, 6, 1))));
    QVERIFY(std::isfinite(mcmc::rankNormalizedSplitRhat(iidNormal(2, 6, 1))));
  }

  void shapeErrorsThrow() {
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, mcmc::essBulk(Chains{}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             mcmc::rankNormalizedSplitRhat(iidNormal(2, 3, 1)));
    Chains unequal = iidNormal(2, 10, 1);
    unequal[1] = unequal[1].head(9).eval();
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, mcmc::essTail(unequal));
  }

  void summarizeConstrainsEveryDraw() {
    // u = log(1..8) and log(9..16): theta = 1..16.
    test::LogNormalModel model(0.0, 1.0);
    SampleResult result;
    for (int c = 0; c < 2; ++c) {
      ChainResult chain;
      chain.draws.resize(8, 1);
      for (int i = 0; i < 8; ++i) chain.draws(i, 0) = std::log(8.0 * c + i + 1);
      result.chains.push_back(chain);
    }
    const auto summary = mcmc::summarize(model, result);
    QCOMPARE(int(summary.size()), 1);
    const auto& s = summary[0];
    QCOMPARE(s.name, std::string("theta"));
    QVERIFY(near(s.mean, 8.5, 1e-12));
    QVERIFY(near(s.sd, std::sqrt(340.0 / 15.0), 1e-12));  // sum of squares 340, n - 1 = 15
    QVERIFY(near(s.q025, 1.375, 1e-12));                  // 1 + 15 * 0.025
    QVERIFY(near(s.q50, 8.5, 1e-12));
    QVERIFY(near(s.q975, 15.625, 1e-12));
    QVERIFY2(s.rhat > 1.5, qPrintable(num(s.rhat)));  // the two chains do not overlap
    QVERIFY(std::isfinite(s.essBulk) && std::isfinite(s.essTail));
  }

  /// summarize shares the ranks, the sorted draws and the normal scores between the three
  /// diagnostics and across parameters; it must give exactly what the separate functions give,
  /// with ties (repeated draws, as a sampler that stays put produces), odd chain lengths that
  /// drop a middle draw, and parameters that need different numbers of scores.
  void summarizeMatchesTheSeparateDiagnostics() {
    for (int draws : {400, 401, 7}) {
      test::IidGaussianModel model(4);
      SampleResult result;
      const Chains ar = ar1(3, draws, 0.6, 8);
      const Chains iid = iidNormal(3, draws, 9, 0.3);
      for (int c = 0; c < 3; ++c) {
        ChainResult chain;
        chain.draws.resize(draws, 4);
        chain.draws.col(0) = ar[c];
        chain.draws.col(1) = (ar[c] * 4.0).array().round() / 4.0;  // many ties
        chain.draws.col(2) = iid[c];
        chain.draws.col(3) = -iid[c];
        for (int i = 1; i < draws; i += 3) chain.draws(i, 2) = chain.draws(i - 1, 2);  // stays
        result.chains.push_back(chain);
      }
      const auto summary = mcmc::summarize(model, result);
      for (int j = 0; j < 4; ++j) {
        Chains chains;
        for (const ChainResult& chain : result.chains) chains.push_back(chain.draws.col(j));
        const auto& s = summary[static_cast<std::size_t>(j)];
        QVERIFY2(same(s.rhat, mcmc::rankNormalizedSplitRhat(chains)), qPrintable(num(s.rhat)));
        QVERIFY2(same(s.essBulk, mcmc::essBulk(chains)), qPrintable(num(s.essBulk)));
        QVERIFY2(same(s.essTail, mcmc::essTail(chains)), qPrintable(num(s.essTail)));
        QVERIFY(std::isfinite(s.rhat));
        // Split chains of 3 draws are too short for an ESS.
        QCOMPARE(std::isfinite(s.essBulk) && std::isfinite(s.essTail), draws > 7);
      }
    }
  }

  void summarizeEdgeCases() {
    test::IidGaussianModel model(2);
    SampleResult result;
    ChainResult chain;
    chain.draws = Eigen::MatrixXd::Zero(20, 2);
    chain.draws.col(1) = Eigen::VectorXd::LinSpaced(20, 0, 1);
    result.chains = {chain, chain};
    const auto summary = mcmc::summarize(model, result);
    QCOMPARE(summary[0].name, std::string("x[0]"));
    QVERIFY(std::isnan(summary[0].rhat));  // constant parameter: reported, not a crash
    QCOMPARE(summary[0].sd, 0.0);
    QVERIFY(std::isfinite(summary[1].rhat));
    result.chains[0].draws = chain.draws.topRows(3);
    result.chains[1].draws = chain.draws.topRows(3);
    const auto shortSummary = mcmc::summarize(model, result);
    QVERIFY(std::isnan(shortSummary[1].rhat) && std::isnan(shortSummary[1].essBulk));
    QVERIFY(near(shortSummary[1].mean, 1.0 / 19.0, 1e-12));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, mcmc::summarize(model, SampleResult{}));
  }
};

QTEST_APPLESS_MAIN(DiagnosticsTest)
#include "diagnostics_test.moc"
