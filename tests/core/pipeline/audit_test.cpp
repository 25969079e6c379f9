/// An empirical privacy audit of censor-uw (SPEC §0): many seeded runs on a tiny dataset and on
/// its neighbour (one record replaced by an extreme value), a one-dimensional statistic of the
/// synthetic data (its mean), and a Clopper–Pearson lower bound on the privacy loss of the
/// events {mean <= t}, {mean > t}. The bound must stay below the claimed ε; the same audit on a
/// broken variant (the seed fixed, so the output is a function of the data) must find a
/// violation, which shows the audit has the power to see one. Prints its figures.
#include <QtTest>
#include <algorithm>
#include <boost/math/distributions/beta.hpp>
#include <cmath>
#include <cstdio>
#include <vector>

#include "core/pipeline/pipeline.h"
#include "core/pipeline/synthesis.h"
#include "support/model_fixtures.h"

namespace pipeline = dpsynth::core::pipeline;
using dpsynth::core::models::Family;

namespace {

constexpr double kEpsilon = 2.0;

/// Synthetic means of `runs` censor-uw releases; seed r + offset for run r (fixedSeed: always
/// the same seed, the broken variant).
std::vector<double> syntheticMeans(const std::vector<double>& y, int runs, bool fixedSeed) {
  const auto data = dpsynth::test::makeDataset(Family::beta, y);
  pipeline::MechanismConfig c;
  c.mechanism = pipeline::Mechanism::censorUw;
  c.epsilon = kEpsilon;
  std::vector<double> out;
  for (int r = 0; r < runs; ++r) {
    pipeline::RunSettings s;
    s.model.family = Family::beta;
    s.nuts.chains = 1;
    s.nuts.warmup = 120;
    s.nuts.draws = 60;
    s.nuts.threads = 1;
    s.lipschitzThreads = 1;
    s.nuts.seed = fixedSeed ? 7 : 100000 + r;
    const auto run = pipeline::runMechanisms(data, {c}, s);
    const auto syn = pipeline::synthesize(data, run.mechanisms.front(), s.model, 1, s.nuts.seed);
    out.push_back(syn.front().mean());
  }
  return out;
}

/// Two-sided Clopper–Pearson bounds at level alpha for k successes in n trials.
double cpLower(int k, int n, double alpha) {
  if (k == 0) return 0.0;
  return boost::math::quantile(boost::math::beta_distribution<>(k, n - k + 1), alpha / 2);
}
double cpUpper(int k, int n, double alpha) {
  if (k == n) return 1.0;
  return boost::math::quantile(boost::math::beta_distribution<>(k + 1, n - k), 1 - alpha / 2);
}

/// The largest lower confidence bound on log P(E | x)/P(E | x') over thresholds t at the
/// deciles of the pooled statistics, both event directions and both orders (Bonferroni over
/// all events so the family-wise level is 5%).
double privacyLossLowerBound(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<double> pooled = a;
  pooled.insert(pooled.end(), b.begin(), b.end());
  std::sort(pooled.begin(), pooled.end());
  const int events = 9 * 4;
  const double alpha = 0.05 / events;
  double best = 0;
  for (int q = 1; q <= 9; ++q) {
    const double t = pooled[pooled.size() * q / 10];
    const int ka = int(std::count_if(a.begin(), a.end(), [&](double v) { return v <= t; }));
    const int kb = int(std::count_if(b.begin(), b.end(), [&](double v) { return v <= t; }));
    const int na = int(a.size()), nb = int(b.size());
    for (auto [k1, n1, k2, n2] : {std::array{ka, na, kb, nb}, std::array{kb, nb, ka, na},
                                  std::array{na - ka, na, nb - kb, nb},
                                  std::array{nb - kb, nb, na - ka, na}}) {
      const double lo = cpLower(k1, n1, alpha), hi = cpUpper(k2, n2, alpha);
      if (lo > 0 && hi > 0) best = std::max(best, std::log(lo / hi));
    }
  }
  return best;
}

}  // namespace

class AuditTest : public QObject {
  Q_OBJECT
 private slots:
  void censorUwStaysBelowItsEpsilonAndABrokenVariantIsCaught() {
    const std::vector<double> x{0.3, 0.45, 0.5, 0.52, 0.6, 0.41, 0.55, 0.48};
    std::vector<double> neighbour = x;
    neighbour[2] = 0.001;  // replace-one: an extreme record
    const int runs = 1500;
    const double honest =
        privacyLossLowerBound(syntheticMeans(x, runs, false), syntheticMeans(neighbour, runs, false));
    const double broken =
        privacyLossLowerBound(syntheticMeans(x, 200, true), syntheticMeans(neighbour, 200, true));
    std::printf("audit: censor-uw beta n=8, eps=%.2f, %d runs per database: privacy-loss lower "
                "bound %.3f; fixed-seed variant (200 runs): %.3f\n",
                kEpsilon, runs, honest, broken);
    QVERIFY2(honest < kEpsilon, qPrintable(QString::number(honest)));
    QVERIFY2(broken > kEpsilon, qPrintable(QString::number(broken)));
  }
};

QTEST_APPLESS_MAIN(AuditTest)
#include "audit_test.moc"
