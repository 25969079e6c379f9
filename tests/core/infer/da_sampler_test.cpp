#include "core/infer/da_sampler.h"

#include <QtTest>
#include <cmath>

#include "core/infer/naive_bayes_release.h"

using dpsynth::core::infer::DaConfig;
using dpsynth::core::infer::DaResult;
using dpsynth::core::infer::naiveBayesCounts;
using dpsynth::core::infer::NaiveBayesLayout;
using dpsynth::core::infer::NaiveBayesModel;
using dpsynth::core::infer::runDataAugmentation;

namespace {

NaiveBayesLayout daLayout(int classes, int features, int levels) {
  NaiveBayesLayout l;
  for (int i = 0; i < classes; ++i) l.classes.push_back("c" + std::to_string(i));
  for (int k = 0; k < features; ++k) {
    l.features.push_back("f" + std::to_string(k));
    l.levels.emplace_back();
    for (int j = 0; j < levels; ++j) l.levels.back().push_back(std::to_string(j));
  }
  return l;
}

/// n records with codes cycling deterministically (class i·7 mod I, feature (i + k·3) mod J …).
std::vector<std::vector<int>> daRecords(int n, const NaiveBayesLayout& l) {
  std::vector<std::vector<int>> r;
  for (int i = 0; i < n; ++i) {
    std::vector<int> row{(i * 7 + i / 3) % l.classCount()};
    for (int k = 0; k < l.featureCount(); ++k) row.push_back((i + k * 3 + i / 5) % l.levelCount(k));
    r.push_back(row);
  }
  return r;
}

DaConfig daConfig(std::uint64_t seed, int iterations, int warmup, int threads) {
  DaConfig c;
  c.seed = seed;
  c.iterations = iterations;
  c.warmup = warmup;
  c.chains = 4;
  c.threads = threads;
  return c;
}

/// Pooled posterior mean of parameter p.
double daMean(const DaResult& r, int p) {
  double s = 0;
  long long n = 0;
  for (const auto& c : r.chains) {
    s += c.draws.col(p).sum();
    n += c.draws.rows();
  }
  return s / static_cast<double>(n);
}

double daSd(const DaResult& r, int p) {
  const double m = daMean(r, p);
  double s = 0;
  long long n = 0;
  for (const auto& c : r.chains) {
    s += (c.draws.col(p).array() - m).square().sum();
    n += c.draws.rows();
  }
  return std::sqrt(s / static_cast<double>(n - 1));
}

}  // namespace

class DaSamplerTest : public QObject {
  Q_OBJECT

 private slots:
  void invalidConfigurationThrows() {
    const NaiveBayesModel model(daLayout(2, 1, 2), 3, Eigen::VectorXd::Zero(4), 1.0);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             runDataAugmentation(model, daConfig(1, 10, 10, 1)));
    DaConfig noChains = daConfig(1, 10, 5, 1);
    noChains.chains = 0;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, runDataAugmentation(model, noChains));
  }

  void threadCountDoesNotMatter() {
    const NaiveBayesLayout l = daLayout(3, 2, 3);
    const NaiveBayesModel model(l, 20, naiveBayesCounts(l, daRecords(20, l)), 2.0 * 2 / 1.0);
    const DaResult one = runDataAugmentation(model, daConfig(11, 300, 100, 1));
    const DaResult eight = runDataAugmentation(model, daConfig(11, 300, 100, 8));
    QCOMPARE(one.chains.size(), std::size_t{4});
    for (std::size_t c = 0; c < 4; ++c) {
      QVERIFY(one.chains[c].draws == eight.chains[c].draws);
      QVERIFY(one.chains[c].sweepAcceptance == eight.chains[c].sweepAcceptance);
      QCOMPARE(one.chains[c].minAcceptance, eight.chains[c].minAcceptance);
    }
    QVERIFY(one.chains[0].draws != one.chains[1].draws);
    QCOMPARE(one.chains[0].draws.rows(), Eigen::Index{200});
    QCOMPARE(one.proposals(), 4LL * 300 * 20);
  }

  void acceptanceNeverBelowExpMinusEpsilon() {
    // Pure ε-DP: Laplace scale 2K/ε. The sampler records the smallest acceptance probability
    // of every proposal it made; it must not fall below e^{−ε}, and must be reached below 1
    // (otherwise the bound was not exercised).
    const NaiveBayesLayout l = daLayout(3, 3, 3);
    for (const double epsilon : {0.3, 1.0, 3.0}) {
      Eigen::VectorXd noisy = naiveBayesCounts(l, daRecords(30, l));
      for (Eigen::Index c = 0; c < noisy.size(); ++c) noisy[c] += std::sin(3.0 * c) * 2.0;
      const NaiveBayesModel model(l, 30, noisy, 2.0 * 3 / epsilon);
      const DaResult r = runDataAugmentation(model, daConfig(3, 400, 100, 0));
      QVERIFY(r.minAcceptance() >= std::exp(-epsilon) * (1 - 1e-12));
      QVERIFY(r.minAcceptance() < 1.0);
      QVERIFY(r.meanAcceptance() >= r.minAcceptance());
      for (const auto& c : r.chains) {
        QVERIFY((c.recordAcceptance.array() >= std::exp(-epsilon) * (1 - 1e-12)).all());
        QCOMPARE(c.sweepAcceptance.size(), Eigen::Index{400});
      }
    }
  }

  void largeEpsilonRecoversTheNonPrivatePosterior() {
    // K = 1: every record fills one cell, so single-record moves reach T = n from any start.
    const NaiveBayesLayout l = daLayout(2, 1, 3);
    const auto records = daRecords(40, l);
    const Eigen::VectorXd n = naiveBayesCounts(l, records);
    Eigen::VectorXd noisy = n;
    for (Eigen::Index c = 0; c < noisy.size(); ++c) noisy[c] += (c % 2 == 0 ? 0.01 : -0.01);
    const double alpha = 2.0;
    const NaiveBayesModel model(l, 40, noisy, 2.0 / 200.0, alpha);
    const DaResult r = runDataAugmentation(model, daConfig(5, 3000, 500, 0));
    // Conjugate posterior on the true counts: p ~ Dir(α + n_i), p_i ~ Dir(α + n_ij).
    const double n0 = n[0] + n[1] + n[2], n1 = n[3] + n[4] + n[5];
    QVERIFY(std::abs(daMean(r, 0) - (alpha + n0) / (2 * alpha + 40)) < 0.01);
    for (int i = 0; i < 2; ++i) {
      const double ni = i == 0 ? n0 : n1;
      for (int j = 0; j < 3; ++j) {
        const double expected = (alpha + n[3 * i + j]) / (3 * alpha + ni);
        QVERIFY2(std::abs(daMean(r, 2 + 3 * i + j) - expected) < 0.015,
                 qPrintable(QString::number(daMean(r, 2 + 3 * i + j)) + " vs " +
                            QString::number(expected)));
      }
    }
    // And its spread: Beta(α + n_0, α + n_1) sd.
    const double a = alpha + n0, b = alpha + n1;
    const double sd = std::sqrt(a * b / ((a + b) * (a + b) * (a + b + 1)));
    QVERIFY(std::abs(daSd(r, 0) - sd) < 0.1 * sd);
  }

  void tinyEpsilonReturnsThePrior() {
    const NaiveBayesLayout l = daLayout(2, 2, 2);
    const NaiveBayesModel model(l, 50, naiveBayesCounts(l, daRecords(50, l)), 2.0 * 2 / 1e-6);
    const DaResult r = runDataAugmentation(model, daConfig(8, 3000, 500, 0));
    // Dirichlet(2, 2) = Beta(2, 2): mean 1/2, sd sqrt(4 / (16 · 5)).
    const double priorSd = std::sqrt(4.0 / 80.0);
    for (int p = 0; p < model.parameterDim(); ++p) {
      QVERIFY(std::abs(daMean(r, p) - 0.5) < 0.02);
      QVERIFY(std::abs(daSd(r, p) - priorSd) < 0.1 * priorSd);
    }
    QVERIFY(r.minAcceptance() > 0.999);
  }

  void agreesWithBruteForceEnumeration() {
    // N = 3, I = 2, K = 1, J = 2: 4 cells, 4^3 ordered latent tables. p(θ | s) is the mixture
    // over tables x of p(θ | x) with weights ∝ m(x) η(s | x), m(x) the Dirichlet-multinomial
    // probability of the ordered records; E[p_0 | s] and E[p(f=0 | c0) | s] follow in closed form.
    const NaiveBayesLayout l = daLayout(2, 1, 2);
    Eigen::VectorXd noisy(4);
    noisy << 2.3, -0.4, 0.2, 1.1;
    const double alpha = 2.0, scale = 2.0 / 1.0;  // ε = 1
    const NaiveBayesModel model(l, 3, noisy, scale, alpha);
    auto logBeta2 = [](double a, double b) {
      return std::lgamma(a) + std::lgamma(b) - std::lgamma(a + b);
    };
    double total = 0, sumP0 = 0, sumF0 = 0, sumF0c1 = 0;
    for (int code = 0; code < 64; ++code) {
      Eigen::Vector4d t = Eigen::Vector4d::Zero();
      for (int r = 0, c = code; r < 3; ++r, c /= 4) t[c % 4] += 1;
      const double n0 = t[0] + t[1], n1 = t[2] + t[3];
      const double logM = logBeta2(alpha + n0, alpha + n1) + logBeta2(alpha + t[0], alpha + t[1]) +
                          logBeta2(alpha + t[2], alpha + t[3]);
      const double logEta = -(noisy - Eigen::VectorXd(t)).cwiseAbs().sum() / scale;
      const double w = std::exp(logM + logEta);
      total += w;
      sumP0 += w * (alpha + n0) / (2 * alpha + 3);
      sumF0 += w * (alpha + t[0]) / (2 * alpha + n0);
      sumF0c1 += w * (alpha + t[2]) / (2 * alpha + n1);
    }
    DaConfig c = daConfig(21, 20000, 1000, 0);
    const DaResult r = runDataAugmentation(model, c);
    QVERIFY2(std::abs(daMean(r, 0) - sumP0 / total) < 0.006,
             qPrintable(QString::number(daMean(r, 0)) + " vs " + QString::number(sumP0 / total)));
    QVERIFY2(std::abs(daMean(r, 2) - sumF0 / total) < 0.006,
             qPrintable(QString::number(daMean(r, 2)) + " vs " + QString::number(sumF0 / total)));
    QVERIFY2(std::abs(daMean(r, 4) - sumF0c1 / total) < 0.006,
             qPrintable(QString::number(daMean(r, 4)) + " vs " + QString::number(sumF0c1 / total)));
  }

  /// Issue 21, 6: what a run keeps is counted before anything is allocated: latent records
  /// with their running acceptance (recordWidth() + 1 values each), every sweep's acceptance
  /// (two values) and the kept draws, per chain; at most kMaxDaValues.
  void memoryIsCountedBeforeAnythingIsAllocated() {
    namespace infer = dpsynth::core::infer;
    const NaiveBayesLayout l = daLayout(2, 1, 2);  // width 1 + 1, parameters 2 + 4
    const NaiveBayesModel small(l, 10, Eigen::VectorXd::Zero(4), 1.0);
    QCOMPARE(infer::daValues(small, daConfig(1, 100, 50, 1)), 4LL * (10 * 3 + 2 * 100 + 50 * 6));
    // One chain of 89,478,482 records with 2 sweeps fills the bound exactly: 3n + 4 + 6 = 2^28.
    const NaiveBayesModel atBound(l, 89'478'482, Eigen::VectorXd::Zero(4), 1.0);
    DaConfig one = daConfig(1, 2, 1, 1);
    one.chains = 1;
    QCOMPARE(infer::daValues(atBound, one), infer::kMaxDaValues);
    QVERIFY(infer::daMemoryProblem(atBound, one).empty());
    DaConfig two = one;
    two.chains = 2;
    QVERIFY2(QString::fromStdString(infer::daMemoryProblem(atBound, two)).contains("--chains 1"),
             infer::daMemoryProblem(atBound, two).c_str());
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, runDataAugmentation(atBound, two));
    const NaiveBayesModel past(l, 89'478'483 + 4, Eigen::VectorXd::Zero(4), 1.0);
    QVERIFY2(
        QString::fromStdString(infer::daMemoryProblem(past, one)).contains("latent records alone"),
        infer::daMemoryProblem(past, one).c_str());
  }

  void cancelStopsTheRun() {
    const NaiveBayesLayout l = daLayout(2, 1, 2);
    const NaiveBayesModel model(l, 5, Eigen::VectorXd::Zero(4), 1.0);
    std::stop_source source;
    int calls = 0;
    const DaResult r = runDataAugmentation(model, daConfig(1, 100000, 10, 1), source.get_token(),
                                           [&](int, int, int) {
                                             if (++calls == 2) source.request_stop();
                                           });
    QVERIFY(r.cancelled);
    QVERIFY(r.chains.empty());
    QCOMPARE(calls, 2);
  }
};

QTEST_APPLESS_MAIN(DaSamplerTest)
#include "da_sampler_test.moc"
