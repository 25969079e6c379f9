/// The linear-regression release of 004 §5 and its data-augmentation model: the statistic by
/// hand, the sensitivity bound by exhaustive search, the exact noise, the file, and the sampler
/// (acceptance ≥ e^{−ε} on every proposal, prior at tiny ε, conjugate posterior at large ε).
#include "core/infer/linreg_release.h"

#include <QtTest>
#include <cmath>

#include "core/infer/any_release.h"
#include "core/infer/da_sampler.h"
#include "core/random/rng.h"

using dpsynth::core::infer::AnyRelease;
using dpsynth::core::infer::DaConfig;
using dpsynth::core::infer::DaResult;
using dpsynth::core::infer::kLinregGrid;
using dpsynth::core::infer::LinregLayout;
using dpsynth::core::infer::LinregModel;
using dpsynth::core::infer::LinregModelSpec;
using dpsynth::core::infer::LinregRelease;

namespace {

LinregLayout lrLayout(int p, double bound, double outcomeBound) {
  LinregLayout l;
  for (int j = 0; j < p; ++j) {
    l.predictors.push_back(std::string(1, static_cast<char>('A' + j)));
    l.lower.push_back(-bound);
    l.upper.push_back(bound);
  }
  l.outcome = "Y";
  l.outcomeLower = -outcomeBound;
  l.outcomeUpper = outcomeBound;
  return l;
}

LinregModelSpec lrSpec(int p, double sigma) {
  LinregModelSpec s;
  s.sigma = sigma;
  s.predictorMeans.assign(static_cast<std::size_t>(p), 0.0);
  s.predictorSds.assign(static_cast<std::size_t>(p), 1.0);
  return s;
}

/// n records of y = b0 + b1 x + e, x ~ N(0, 1), e ~ N(0, 1), from a fixed seed.
std::vector<std::vector<double>> lrRecords(int n, std::uint64_t seed, double b0 = 1.0,
                                           double b1 = 2.0) {
  dpsynth::core::random::Rng rng = dpsynth::core::random::makeRng(seed);
  std::vector<std::vector<double>> r;
  for (int i = 0; i < n; ++i) {
    const double x = dpsynth::core::random::standardNormal(rng);
    r.push_back({x, b0 + b1 * x + dpsynth::core::random::standardNormal(rng)});
  }
  return r;
}

/// The model's whole T (released sums and raw sums) of raw records.
Eigen::VectorXd lrWholeStatistic(const LinregModel& model,
                                 const std::vector<std::vector<double>>& records) {
  Eigen::VectorXd T = Eigen::VectorXd::Zero(model.statisticDim());
  std::vector<double> record(static_cast<std::size_t>(model.recordWidth()));
  for (const auto& r : records) {
    std::copy(r.begin(), r.end(), record.begin());
    model.completeRecord(record.data());
    model.addStatistic(record.data(), T);
  }
  return T;
}

/// The released entries of one record without rounding (z: normalised predictors, outcome).
std::vector<double> lrExactContribution(const std::vector<double>& z) {
  const std::size_t p = z.size() - 1;
  const double y = z[p];
  std::vector<double> t{y};
  for (std::size_t j = 0; j < p; ++j) t.push_back(z[j] * y);
  t.push_back(y * y);
  for (std::size_t j = 0; j < p; ++j) t.push_back(z[j]);
  for (std::size_t j = 0; j < p; ++j) {
    for (std::size_t k = j; k < p; ++k) t.push_back(z[j] * z[k]);
  }
  return t;
}

DaConfig lrConfig(std::uint64_t seed, int iterations, int warmup) {
  DaConfig c;
  c.seed = seed;
  c.iterations = iterations;
  c.warmup = warmup;
  c.chains = 2;
  c.threads = 0;
  return c;
}

double lrMean(const DaResult& r, int p) {
  double s = 0;
  long long n = 0;
  for (const auto& c : r.chains) {
    s += c.draws.col(p).sum();
    n += c.draws.rows();
  }
  return s / static_cast<double>(n);
}

double lrSd(const DaResult& r, int p) {
  const double m = lrMean(r, p);
  double s = 0;
  long long n = 0;
  for (const auto& c : r.chains) {
    s += (c.draws.col(p).array() - m).square().sum();
    n += c.draws.rows();
  }
  return std::sqrt(s / static_cast<double>(n - 1));
}

}  // namespace

class LinregReleaseTest : public QObject {
  Q_OBJECT

 private slots:
  void statisticByHandOnThreeRecords() {
    // x in [0, 10], y in [−5, 5]. Records (x, y) → (x̃, ỹ):
    //   (5, 0) → (0, 0);  (10, 5) → (1, 1);  (−3, 2.5) → x clamped to 0: (−1, 0.5).
    // Sums (ỹ, x̃ỹ, ỹ², x̃, x̃²) = (0+1+0.5, 0+1−0.5, 0+1+0.25, 0+1−1, 0+1+1).
    LinregLayout l;
    l.predictors = {"x"};
    l.lower = {0.0};
    l.upper = {10.0};
    l.outcome = "y";
    l.outcomeLower = -5.0;
    l.outcomeUpper = 5.0;
    QCOMPARE(l.statisticCount(), 5);
    QCOMPARE(l.statisticNames(), (std::vector<std::string>{"y", "x*y", "y*y", "x", "x*x"}));
    const Eigen::VectorXd s =
        dpsynth::core::infer::linregStatistic(l, {{5.0, 0.0}, {10.0, 5.0}, {-3.0, 2.5}});
    Eigen::VectorXd expected(5);
    expected << 1.5, 0.5, 1.25, 0.0, 2.0;
    QCOMPARE(s, expected);
    // p = 2: d = (p + 1)(p + 4)/2 = 9 in the order y, A*y, B*y, y*y, A, B, A*A, A*B, B*B.
    const LinregLayout two = lrLayout(2, 4.0, 8.0);
    QCOMPARE(two.statisticCount(), 9);
    QCOMPARE(two.statisticNames().back(), std::string("B*B"));
    const Eigen::VectorXd s2 = dpsynth::core::infer::linregStatistic(two, {{2.0, -4.0, 4.0}});
    Eigen::VectorXd e2(9);  // (x̃_A, x̃_B, ỹ) = (0.5, −1, 0.5)
    e2 << 0.5, 0.25, -0.5, 0.25, 0.5, -1.0, 0.25, -0.5, 1.0;
    QCOMPARE(s2, e2);
    // Rounded to the grid 2^−10: 1/3 becomes 341/1024.
    double out[5];
    const double z[] = {1.0 / 3.0, 1.0};
    dpsynth::core::infer::linregNormalisedContribution(1, z, out);
    QCOMPARE(out[1], 341.0 / 1024.0);
  }

  void sensitivityBoundHoldsOnEveryPairOfRecords() {
    // Replace-one (004's Hamming distance 1): the largest L1 change of the released vector when
    // one record changes. Exhaustive over a grid of normalised records, step 1/12 for p = 1 and
    // 1/8 for p = 2 (they hold the maximisers z = 1 vs z′ = −1/3 and −1/4 of the header's proof).
    QCOMPARE(lrLayout(1, 1, 1).sensitivity(), 7);
    QCOMPARE(lrLayout(2, 1, 1).sensitivity(), 13);
    QCOMPARE(lrLayout(2, 1, 1).gridSensitivity(), std::uint64_t{13 * 1024 + 9});
    for (int p = 1; p <= 2; ++p) {
      const int q = p + 1;
      std::vector<std::vector<double>> exact, rounded;
      std::vector<int> index(static_cast<std::size_t>(q), 0);
      const int per = p == 1 ? 12 : 8;
      const int steps = 2 * per + 1;
      for (;;) {
        std::vector<double> z;
        for (int v : index) z.push_back(-1.0 + static_cast<double>(v) / per);
        exact.push_back(lrExactContribution(z));
        std::vector<double> r(exact.back().size());
        dpsynth::core::infer::linregNormalisedContribution(p, z.data(), r.data());
        rounded.push_back(r);
        int k = 0;
        while (k < q && ++index[static_cast<std::size_t>(k)] == steps)
          index[static_cast<std::size_t>(k++)] = 0;
        if (k == q) break;
      }
      double maxExact = 0, maxRounded = 0;
      for (std::size_t a = 0; a < exact.size(); ++a) {
        for (std::size_t b = a + 1; b < exact.size(); ++b) {
          double e = 0, r = 0;
          for (std::size_t k = 0; k < exact[a].size(); ++k) {
            e += std::abs(exact[a][k] - exact[b][k]);
            r += std::abs(rounded[a][k] - rounded[b][k]);
          }
          maxExact = std::max(maxExact, e);
          maxRounded = std::max(maxRounded, r);
        }
      }
      const LinregLayout l = lrLayout(p, 1, 1);
      // The header's bound q(q + 2)²/(2(q + 1)) is reached at z = (1, …, 1) vs z′ = −(1, …, 1)/(q +
      // 1) (p = 1: 16/3 = 4/3 + 8/9 + 8/9 + 4/3 + 8/9; p = 2: 75/8), and lies below 004's p² + 3p
      // + 3.
      const double proven = q * (q + 2.0) * (q + 2.0) / (2.0 * (q + 1.0));
      QVERIFY2(std::abs(maxExact - proven) < 1e-9,
               qPrintable(QString::number(maxExact) + " vs " + QString::number(proven)));
      QVERIFY(maxExact <= l.sensitivity());
      // Rounding moves each entry's change by less than one grid step: Δ_γ in grid units.
      QVERIFY(maxRounded / kLinregGrid <= static_cast<double>(l.gridSensitivity()));
    }
    // And the bound stays below 004's for every p the release allows.
    for (int p = 1; p <= dpsynth::core::infer::kLinregMaxPredictors; ++p) {
      const double q = p + 1;
      QVERIFY(q * (q + 2) * (q + 2) / (2 * (q + 1)) <= lrLayout(p, 1, 1).sensitivity());
    }
  }

  void releaseAddsGridNoiseAtTheRightRate() {
    const LinregLayout l = lrLayout(2, 5.0, 10.0);
    const LinregModelSpec spec = lrSpec(2, 1.0);
    std::vector<std::vector<double>> records;
    for (int i = 0; i < 20; ++i) records.push_back({0.3 * i - 3, 0.1 * i, 0.5 * i - 4});
    auto bits = dpsynth::core::privacy::makeSeededSource(11);
    const LinregRelease r =
        dpsynth::core::infer::makeLinregRelease(l, spec, records, 1.5, *bits, true);
    QCOMPARE(r.n, 20);
    QVERIFY(r.notForRelease);
    // t = ⌊1.5·10^6⌋ / (Δ_γ·10^6) ≤ ε/Δ_γ; the scale in natural units is ≈ Δ/ε.
    QCOMPARE(r.rateNum, std::uint64_t{1500000});
    QCOMPARE(r.rateDen, std::uint64_t{1000000} * l.gridSensitivity());
    QVERIFY(std::abs(r.laplaceScale() - 13.0 / 1.5) < 13.0 / 1.5 * 1e-3);
    const Eigen::VectorXd exact = dpsynth::core::infer::linregStatistic(l, records);
    const Eigen::VectorXd noiseSteps = (r.noisy - exact) / kLinregGrid;
    QVERIFY((noiseSteps.array() == noiseSteps.array().round()).all());
    QVERIFY((noiseSteps.array() != 0).any());
    auto same = dpsynth::core::privacy::makeSeededSource(11);
    QCOMPARE(dpsynth::core::infer::makeLinregRelease(l, spec, records, 1.5, *same, true).noisy,
             r.noisy);
    // Refusals.
    auto more = dpsynth::core::privacy::makeSeededSource(1);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, dpsynth::core::infer::makeLinregRelease(
                                                        l, spec, records, 0.0, *more, true));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, dpsynth::core::infer::makeLinregRelease(
                                                        l, spec, records, 9e-7, *more, true));
    // The smallest ε the options accept gives the rate 10^-6 / Δ_γ (the decimal 1e-6, not the
    // double a hair below it rounded down to nothing).
    QCOMPARE(dpsynth::core::infer::makeLinregRelease(l, spec, records, 1e-6, *more, true).rateNum,
             std::uint64_t{1});
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             dpsynth::core::infer::makeLinregRelease(
                                 l, spec, {{1.0, std::nan(""), 2.0}}, 1.0, *more, true));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, dpsynth::core::infer::makeLinregRelease(
                                                        l, spec, {{1.0, 2.0}}, 1.0, *more, true));
    LinregLayout inverted = l;
    inverted.upper[1] = inverted.lower[1];
    QVERIFY(!inverted.validate().empty());
    QVERIFY(!spec.validate(3).empty());
  }

  void moveStatisticMatchesTheWholeSumAndRestores() {
    const LinregLayout l = lrLayout(2, 3.0, 8.0);
    Eigen::VectorXd noisy(9);
    noisy << 0.3, -1.2, 2.0, 4.1, 0.5, -0.7, 3.3, 0.2, 2.9;
    const LinregModel model(l, lrSpec(2, 1.5), 6, noisy, 0.8);
    QCOMPARE(model.recordWidth(), 3 + 9 + 6 + 3);
    dpsynth::core::random::Rng rng = dpsynth::core::random::makeRng(3);
    const Eigen::VectorXd beta = Eigen::Vector3d(0.5, 1.0, -2.0);
    std::vector<double> record(21), other(21);
    Eigen::VectorXd T = Eigen::VectorXd::Zero(model.statisticDim());
    for (int i = 0; i < 6; ++i) {
      model.drawRecord(beta, rng, record.data());
      model.addStatistic(record.data(), T);
    }
    const auto logEta = [&](const Eigen::VectorXd& t) {
      return -(noisy - t.head(9)).cwiseAbs().sum() / 0.8;
    };
    for (int trial = 0; trial < 100; ++trial) {
      model.drawRecord(beta, rng, other.data());
      const Eigen::VectorXd before = T;
      const double delta = model.moveStatistic(T, record.data(), other.data());
      QVERIFY(std::abs(delta - (logEta(T) - logEta(before))) < 1e-12);
      const double back = model.moveStatistic(T, other.data(), record.data());
      QCOMPARE(back, -delta);
      QVERIFY(T.head(9) == before.head(9));  // exact: multiples of 2^−10
      QVERIFY((T - before).cwiseAbs().maxCoeff() < 1e-9);
      model.moveStatistic(T, record.data(), other.data());
      record = other;
    }
  }

  void drawThetaIsTheConjugateNormal() {
    // p = 1 by hand: xᵀx = [[n, Σx], [Σx, Σx²]], xᵀy = (Σy, Σxy); records (0, 1), (1, 2), (2, 2).
    const LinregLayout l = lrLayout(1, 5.0, 5.0);
    const LinregModel model(l, lrSpec(1, 2.0), 3, Eigen::VectorXd::Zero(5), 1.0);
    const Eigen::VectorXd T = lrWholeStatistic(model, {{0, 1}, {1, 2}, {2, 2}});
    // Precision = xᵀx/σ² + I/τ² = [[3, 3], [3, 5]]/4 + I/4 = [[1, 0.75], [0.75, 1.5]];
    // xᵀy/σ² = (5, 6)/4 = (1.25, 1.5). By Cramer, det = 1.5 − 0.5625 = 0.9375,
    // μ0 = (1.25·1.5 − 0.75·1.5)/det = 0.8, μ1 = (1·1.5 − 0.75·1.25)/det = 0.6.
    Eigen::VectorXd mean;
    Eigen::MatrixXd cov;
    model.conjugatePosterior(T, mean, cov);
    QVERIFY(std::abs(mean[0] - 0.8) < 1e-12 && std::abs(mean[1] - 0.6) < 1e-12);
    QVERIFY(std::abs(cov(0, 0) - 1.5 / 0.9375) < 1e-12 &&
            std::abs(cov(0, 1) + 0.75 / 0.9375) < 1e-12);
    dpsynth::core::random::Rng rng = dpsynth::core::random::makeRng(4);
    const int draws = 40000;
    Eigen::MatrixXd d(draws, 2);
    for (int i = 0; i < draws; ++i) d.row(i) = model.drawTheta(T, rng).transpose();
    const Eigen::RowVector2d m = d.colwise().mean();
    const Eigen::MatrixXd centred = d.rowwise() - m;
    const Eigen::MatrixXd c = centred.transpose() * centred / (draws - 1);
    QVERIFY(std::abs(m[0] - 0.8) < 4 * std::sqrt(cov(0, 0) / draws));
    QVERIFY(std::abs(m[1] - 0.6) < 4 * std::sqrt(cov(1, 1) / draws));
    QVERIFY((c - cov).cwiseAbs().maxCoeff() < 0.05 * cov.cwiseAbs().maxCoeff());
  }

  void fileRoundTripAndBadFiles() {
    const LinregLayout l = lrLayout(2, 5.0, 10.0);
    LinregModelSpec spec = lrSpec(2, 1.25);
    spec.predictorMeans = {0.9, -1.17};
    auto bits = dpsynth::core::privacy::makeSeededSource(2);
    const LinregRelease r = dpsynth::core::infer::makeLinregRelease(
        l, spec, {{1, 2, 3}, {-1, 0.5, 2}, {4, -4, 9}}, 0.75, *bits, true);
    const std::string text = dpsynth::core::infer::linregReleaseToJson(r);
    const AnyRelease any = dpsynth::core::infer::readAnyRelease(text, "r.json");
    QVERIFY(std::holds_alternative<LinregRelease>(any));
    const LinregRelease& back = std::get<LinregRelease>(any);
    QCOMPARE(back.noisy, r.noisy);
    QCOMPARE(back.layout.predictors, l.predictors);
    QCOMPARE(back.layout.upper, l.upper);
    QCOMPARE(back.layout.outcomeLower, -10.0);
    QCOMPARE(back.spec.predictorMeans, spec.predictorMeans);
    QCOMPARE(back.spec.sigma, 1.25);
    QCOMPARE(back.spec.priorSd, 2.0);
    QCOMPARE(back.rateNum, r.rateNum);
    QCOMPARE(back.rateDen, r.rateDen);
    QCOMPARE(back.n, 3);
    QCOMPARE(back.epsilon, 0.75);
    QVERIFY(back.notForRelease);
    QCOMPARE(dpsynth::core::infer::linregReleaseToJson(back), text);
    QVERIFY(text.find("\"neighbours\": \"replace-one\"") != std::string::npos);
    QVERIFY(text.find("\"sensitivity\": 13") != std::string::npos);

    const auto replaced = [&](const std::string& from, const std::string& to) {
      std::string t = text;
      t.replace(t.find(from), from.size(), to);
      return t;
    };
    const std::string bad[] = {
        replaced("\"neighbours\": \"replace-one\"", "\"neighbours\": \"add-remove\""),
        replaced("\"numerator\": 750000", "\"numerator\": 900000"),  // rate above ε/Δ_γ
        replaced("\"sensitivity\": 13", "\"sensitivity\": 7"),
        replaced("\"sigma\": 1.25", "\"sigma\": -1"),
        replaced("\"beta_sd\": 2.0", "\"beta_sd\": \"two\""),
        replaced("\"noisy_statistics\": [", "\"noisy_statistics\": [1.0,"),
    };
    for (const std::string& t : bad) {
      try {
        dpsynth::core::infer::readAnyRelease(t, "r.json");
        QFAIL(qPrintable(QString::fromStdString(t)));
      } catch (const std::invalid_argument& e) {
        const std::string what = e.what();
        QVERIFY2(what.rfind("r.json: ", 0) == 0 && what.find('\n') == std::string::npos, e.what());
      }
    }
  }

  void acceptanceNeverBelowExpMinusEpsilon() {
    const LinregLayout l = lrLayout(1, 6.0, 15.0);
    const auto records = lrRecords(60, 21);
    for (const double epsilon : {0.3, 1.0, 3.0}) {
      auto bits = dpsynth::core::privacy::makeSeededSource(5);
      const LinregRelease r =
          dpsynth::core::infer::makeLinregRelease(l, lrSpec(1, 1.0), records, epsilon, *bits, true);
      const DaResult result =
          dpsynth::core::infer::runDataAugmentation(r.model(), lrConfig(6, 300, 50));
      // The sampler keeps the smallest acceptance probability of every proposal it made.
      QVERIFY(result.minAcceptance() >= std::exp(-epsilon) * (1 - 1e-12));
      QVERIFY(result.minAcceptance() < 1.0);
      for (const auto& c : result.chains) {
        QVERIFY((c.recordAcceptance.array() >= std::exp(-epsilon) * (1 - 1e-12)).all());
      }
    }
  }

  void threadCountDoesNotMatter() {
    const LinregLayout l = lrLayout(2, 6.0, 15.0);
    std::vector<std::vector<double>> records;
    for (const auto& r : lrRecords(30, 4)) records.push_back({r[0], 0.5 * r[0], r[1]});
    auto bits = dpsynth::core::privacy::makeSeededSource(6);
    const LinregRelease r =
        dpsynth::core::infer::makeLinregRelease(l, lrSpec(2, 1.0), records, 2.0, *bits, true);
    DaConfig one = lrConfig(13, 60, 20);
    one.chains = 3;
    one.threads = 1;
    DaConfig eight = one;
    eight.threads = 8;
    const DaResult a = dpsynth::core::infer::runDataAugmentation(r.model(), one);
    const DaResult b = dpsynth::core::infer::runDataAugmentation(r.model(), eight);
    for (std::size_t c = 0; c < 3; ++c) {
      QVERIFY(a.chains[c].draws == b.chains[c].draws);
      QVERIFY(a.chains[c].sweepAcceptance == b.chains[c].sweepAcceptance);
    }
  }

  void tinyEpsilonReturnsThePrior() {
    // Few records and a large σ: with n latent records β | x is informative, and the β-chain
    // is close to AR(1) with ρ = (n/σ²)/(n/σ² + 1/τ²) = 0.56/0.81 here, so it still mixes.
    const LinregLayout l = lrLayout(2, 6.0, 15.0);
    std::vector<std::vector<double>> records;
    for (const auto& r : lrRecords(5, 8)) records.push_back({r[0], -r[0], r[1]});
    auto bits = dpsynth::core::privacy::makeSeededSource(9);
    const LinregRelease r =
        dpsynth::core::infer::makeLinregRelease(l, lrSpec(2, 3.0), records, 1e-5, *bits, true);
    const LinregModel model = r.model();
    const DaResult result =
        dpsynth::core::infer::runDataAugmentation(model, lrConfig(7, 4500, 500));
    // β ~ N(0, 2²): the mean within 4 Monte Carlo sd (from the chains' bulk ESS), the sd within
    // 10%.
    const auto summary = dpsynth::core::infer::summarize(model, result);
    for (int p = 0; p < 3; ++p) {
      const double mcse = 2.0 / std::sqrt(summary[static_cast<std::size_t>(p)].ess);
      QVERIFY2(std::abs(lrMean(result, p)) < 4 * mcse,
               qPrintable(QString::number(lrMean(result, p)) + " mcse " + QString::number(mcse)));
      QVERIFY2(std::abs(lrSd(result, p) - 2.0) < 0.2, qPrintable(QString::number(lrSd(result, p))));
    }
    QVERIFY(result.minAcceptance() > 0.99);
  }

  void largeEpsilonRecoversTheConjugatePosterior() {
    // No record of the data is clamped, so the released sums determine xᵀx and xᵀy, and at
    // large ε p(β | s) approaches the non-private conjugate posterior N(μ, Σ).
    const LinregLayout l = lrLayout(1, 4.0, 7.0);
    const auto records = lrRecords(1000, 31, 0.5, 1.0);
    for (const auto& r : records) QVERIFY(std::abs(r[0]) < 4.0 && std::abs(r[1]) < 7.0);
    auto bits = dpsynth::core::privacy::makeSeededSource(12);
    const LinregRelease r =
        dpsynth::core::infer::makeLinregRelease(l, lrSpec(1, 1.0), records, 200.0, *bits, true);
    const LinregModel model = r.model();
    Eigen::VectorXd mean;
    Eigen::MatrixXd cov;
    model.conjugatePosterior(lrWholeStatistic(model, records), mean, cov);
    const DaResult result =
        dpsynth::core::infer::runDataAugmentation(model, lrConfig(8, 3000, 1000));
    const auto summary = dpsynth::core::infer::summarize(model, result);
    for (int p = 0; p < 2; ++p) {
      const double sd = std::sqrt(cov(p, p));
      const double mcse = sd / std::sqrt(summary[static_cast<std::size_t>(p)].ess);
      // The noise still moves the posterior a little (b ≈ 0.035 on sums of order n): allow 0.15 sd
      // besides 4 Monte Carlo sd. (At ε = 60 the shift of the slope is already 0.3 sd.)
      QVERIFY2(std::abs(lrMean(result, p) - mean[p]) < 0.15 * sd + 4 * mcse,
               qPrintable(QString::number(lrMean(result, p)) + " vs " + QString::number(mean[p]) +
                          " (sd " + QString::number(sd) + ")"));
      QVERIFY2(std::abs(lrSd(result, p) - sd) < 0.1 * sd,
               qPrintable(QString::number(lrSd(result, p)) + " vs " + QString::number(sd)));
    }
  }
};

QTEST_APPLESS_MAIN(LinregReleaseTest)
#include "linreg_release_test.moc"
