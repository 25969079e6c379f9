#include "core/privacy/lipschitz.h"

#include <QtTest>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <stop_token>

#include "core/random/rng.h"
#include "support/fake_synthesis_model.h"
#include "support/lipschitz_problem.h"
#include "support/patterned_fake_model.h"

using namespace dpsynth::core;
using namespace dpsynth::core::privacy;
using dpsynth::test::FakeSynthesisModel;
using dpsynth::test::makeProblem;
using dpsynth::test::PatternedFakeModel;
using dpsynth::test::Problem;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// Written out independently of the library: R's type 7.
double type7(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  const double h = (static_cast<double>(v.size()) - 1.0) * p;
  const auto lo = static_cast<std::size_t>(std::floor(h));
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (h - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

/// The definition, with the whole S x n matrix in memory.
LipschitzResult bruteForce(const std::vector<double>& y, const Eigen::MatrixXd& draws,
                           const std::vector<double>& alpha, double clamp) {
  const auto n = static_cast<Eigen::Index>(y.size());
  const Eigen::Index S = draws.rows();
  Eigen::MatrixXd raw(S, n);
  for (Eigen::Index s = 0; s < S; ++s) {
    for (Eigen::Index i = 0; i < n; ++i) {
      const double a = alpha.empty() ? 1.0 : alpha[static_cast<std::size_t>(i)];
      raw(s, i) = a == 0.0
                      ? 0.0
                      : std::abs(a * FakeSynthesisModel::recordLogLikAt(
                                         y[static_cast<std::size_t>(i)], draws(s, 0), draws(s, 1)));
    }
  }
  const Eigen::MatrixXd clamped = raw.cwiseMin(clamp);
  LipschitzResult r;
  r.perRecordRaw = raw.colwise().maxCoeff().transpose();
  r.perRecord = clamped.colwise().maxCoeff().transpose();
  r.perDrawMax = clamped.rowwise().maxCoeff();
  r.max = clamped.maxCoeff();
  r.maxRaw = raw.maxCoeff();
  std::vector<double> pdm(r.perDrawMax.data(), r.perDrawMax.data() + S);
  r.q90 = type7(pdm, 0.9);
  r.q95 = type7(pdm, 0.95);
  r.censoredRecords = 0;
  for (Eigen::Index i = 0; i < n; ++i) r.censoredRecords += r.perRecordRaw[i] > clamp ? 1 : 0;
  return r;
}

/// The definition with an arbitrary clamp [L, U], from the whole S x n matrix of f values,
/// written out independently of the library's grouped pass: c = alpha f (exactly 0 for weight
/// 0); a NaN f is unbounded (|c| = inf, and on the negative side for the clamp).
LipschitzResult bruteForceMatrix(const Eigen::MatrixXd& f, const std::vector<double>& alpha,
                                 double lower, double upper) {
  const Eigen::Index S = f.rows(), n = f.cols();
  LipschitzResult r;
  r.perRecord = Eigen::VectorXd::Zero(n);
  r.perRecordRaw = Eigen::VectorXd::Zero(n);
  r.perDrawMax = Eigen::VectorXd::Zero(S);
  std::vector<bool> censored(static_cast<std::size_t>(n), false);
  for (Eigen::Index s = 0; s < S; ++s) {
    for (Eigen::Index i = 0; i < n; ++i) {
      const double a = alpha.empty() ? 1.0 : alpha[static_cast<std::size_t>(i)];
      double c = a == 0.0 ? 0.0 : a * f(s, i);
      double raw = std::abs(c);
      if (std::isnan(c)) {
        c = -kInf;
        raw = kInf;
      }
      const double clamped = std::abs(std::min(std::max(c, lower), upper));
      if (c < lower || c > upper) censored[static_cast<std::size_t>(i)] = true;
      if (raw > r.perRecordRaw[i]) r.perRecordRaw[i] = raw;
      if (clamped > r.perRecord[i]) r.perRecord[i] = clamped;
      if (clamped > r.perDrawMax[s]) r.perDrawMax[s] = clamped;
    }
  }
  r.max = r.perRecord.maxCoeff();
  r.maxRaw = r.perRecordRaw.maxCoeff();
  std::vector<double> pdm(r.perDrawMax.data(), r.perDrawMax.data() + S);
  r.q90 = type7(pdm, 0.9);
  r.q95 = type7(pdm, 0.95);
  r.censoredRecords = static_cast<std::size_t>(std::count(censored.begin(), censored.end(), true));
  return r;
}

/// Records in few patterns (some with f = -inf or NaN under every draw) and weights from a
/// small set, so that (pattern, weight) repeats a lot and one pattern holds several weights.
struct TiedProblem {
  std::vector<double> patternY;
  std::vector<std::size_t> recordPattern;
  std::vector<double> alpha;
  Eigen::MatrixXd draws;
};

TiedProblem makeTiedProblem(std::uint64_t seed, std::size_t patterns, std::size_t n, int S,
                            bool nonFinite) {
  random::Rng rng = random::makeRng(seed, 3);
  TiedProblem p;
  for (std::size_t q = 0; q < patterns; ++q) p.patternY.push_back(random::normal(rng, 1.0, 2.0));
  if (nonFinite && patterns > 3) {
    p.patternY[1] = kInf;                                                 // f = -inf
    p.patternY[patterns - 1] = std::numeric_limits<double>::quiet_NaN();  // f = NaN
  }
  const double levels[] = {0.0, 0.25, 0.5, 1.0};
  for (std::size_t i = 0; i < n; ++i) {
    p.recordPattern.push_back(random::uniformIndex(rng, patterns));
    const double u = random::uniform01(rng);
    p.alpha.push_back(u < 0.8 ? levels[random::uniformIndex(rng, 4)] : random::uniform01(rng));
  }
  p.draws.resize(S, 2);
  for (int s = 0; s < S; ++s) {
    p.draws(s, 0) = random::normal(rng, 1.0, 0.7);
    p.draws(s, 1) = random::normal(rng, 0.0, 0.8);
  }
  return p;
}

Eigen::MatrixXd recordValues(const TiedProblem& p) {
  Eigen::MatrixXd f(p.draws.rows(), static_cast<Eigen::Index>(p.recordPattern.size()));
  for (Eigen::Index s = 0; s < f.rows(); ++s)
    for (Eigen::Index i = 0; i < f.cols(); ++i)
      f(s, i) = FakeSynthesisModel::recordLogLikAt(
          p.patternY[p.recordPattern[static_cast<std::size_t>(i)]], p.draws(s, 0), p.draws(s, 1));
  return f;
}

void expectSame(const LipschitzResult& got, const LipschitzResult& want) {
  QCOMPARE(got.perRecord.size(), want.perRecord.size());
  QCOMPARE(got.perDrawMax.size(), want.perDrawMax.size());
  QVERIFY(got.perRecord == want.perRecord);
  QVERIFY(got.perRecordRaw == want.perRecordRaw);
  QVERIFY(got.perDrawMax == want.perDrawMax);
  QCOMPARE(got.max, want.max);
  QCOMPARE(got.maxRaw, want.maxRaw);
  // Quantiles: equal up to rounding, or the same non-finite value (a draw with an unbounded
  // contribution makes them inf, or NaN where type 7 weighs inf by 0).
  auto close = [](double a, double b) {
    return a == b || (std::isnan(a) && std::isnan(b)) ||
           std::abs(a - b) <= 1e-12 * std::max(1.0, std::abs(b));
  };
  QVERIFY(close(got.q90, want.q90));
  QVERIFY(close(got.q95, want.q95));
  QCOMPARE(got.censoredRecords, want.censoredRecords);
}

}  // namespace

class LipschitzTest : public QObject {
  Q_OBJECT

 private slots:
  void matchesBruteForceUnclamped() {
    for (std::uint64_t seed : {1u, 2u, 3u}) {
      const Problem p = makeProblem(seed, 37, 53);
      FakeSynthesisModel model(p.y);
      expectSame(computeLipschitz(model, p.draws, p.alpha),
                 bruteForce(p.y, p.draws, p.alpha, kInf));
      expectSame(computeLipschitz(model, p.draws, std::vector<double>{}),
                 bruteForce(p.y, p.draws, {}, kInf));
      QCOMPARE(computeLipschitz(model, p.draws, p.alpha).censoredRecords, std::size_t{0});
    }
  }

  void matchesBruteForceClamped() {
    const Problem p = makeProblem(11, 41, 60);
    FakeSynthesisModel model(p.y);
    const LipschitzResult unclamped = computeLipschitz(model, p.draws, p.alpha);
    std::vector<double> raw(unclamped.perRecordRaw.data(),
                            unclamped.perRecordRaw.data() + unclamped.perRecordRaw.size());
    const double M = type7(raw, 0.6);  // censors a good share of records, not all
    const LipschitzResult got = computeLipschitz(model, p.draws, p.alpha, M);
    expectSame(got, bruteForce(p.y, p.draws, p.alpha, M));
    QVERIFY(got.censoredRecords > 5 && got.censoredRecords < 30);
    QVERIFY(got.maxRaw > M);
    QCOMPARE(got.max, M);
    for (Eigen::Index i = 0; i < got.perRecord.size(); ++i) QVERIFY(got.perRecord[i] <= M);
    for (Eigen::Index s = 0; s < got.perDrawMax.size(); ++s) QVERIFY(got.perDrawMax[s] <= M);
    expectSame(computeLipschitz(model, p.draws, {}, M), bruteForce(p.y, p.draws, {}, M));
  }

  void zeroWeightRecordsContributeNothing() {
    const Problem p = makeProblem(5, 20, 15);
    FakeSynthesisModel model(p.y);
    const LipschitzResult r = computeLipschitz(model, p.draws, p.alpha);
    for (std::size_t i = 0; i < p.alpha.size(); ++i) {
      if (p.alpha[i] == 0.0) QCOMPARE(r.perRecordRaw[static_cast<Eigen::Index>(i)], 0.0);
    }
  }

  void nonFiniteLogLikelihoodIsNeverHidden() {
    // Draw 0: log_tau = 1000 overflows exp, so f = -inf for every y != mu. Draw 1: log_tau = inf
    // and y == mu gives f = NaN (0 * inf): it must count as unbounded, not be skipped by max.
    FakeSynthesisModel model({0.0, 1.0, 2.0});
    Eigen::MatrixXd draws(2, 2);
    draws << 5.0, 1000.0, 0.0, kInf;
    const std::vector<double> alpha = {0.5, 0.0, 1.0};
    const LipschitzResult raw = computeLipschitz(model, draws, alpha);
    QCOMPARE(raw.perRecordRaw[0], kInf);  // -inf under draw 0, NaN under draw 1
    QCOMPARE(raw.perRecordRaw[1], 0.0);   // weight 0: excluded even where f = -inf
    QCOMPARE(raw.perRecordRaw[2], kInf);
    QCOMPARE(raw.max, kInf);
    const LipschitzResult clamped = computeLipschitz(model, draws, alpha, 2.0);
    QCOMPARE(clamped.perRecord[0], 2.0);
    QCOMPARE(clamped.perRecord[1], 0.0);
    QCOMPARE(clamped.max, 2.0);
    QCOMPARE(clamped.maxRaw, kInf);
    QCOMPARE(clamped.censoredRecords, std::size_t{2});
    QCOMPARE(clamped.perDrawMax[0], 2.0);
    QCOMPARE(clamped.perDrawMax[1], 2.0);  // the NaN of record 0 counts as hitting the clamp
  }

  /// The same rules where records are folded several at a time (long tiles): a zero weight, an
  /// infinite and a NaN log-likelihood in every position of a block of four, next to finite ones.
  void nonFiniteValuesAreNeverHiddenInLongTiles() {
    std::vector<double> y, alpha;
    for (int i = 0; i < 23; ++i) {
      y.push_back(i % 3 == 0 ? 5.0 : 0.5 * i);  // y = 5 = mu of draw 0: f = NaN there
      alpha.push_back(i % 5 == 1 ? 0.0 : 0.25 + 0.03 * i);
    }
    FakeSynthesisModel model(y);
    Eigen::MatrixXd draws(4, 2);
    draws << 5.0, 1000.0,  // f = -inf for y != 5, NaN for y = 5
        5.0, 0.3,          // finite
        0.0, kInf,         // -inf for y != 0
        1.0, -2.0;         // finite
    const LipschitzResult r = computeLipschitz(model, draws, alpha);
    Eigen::VectorXd perDraw = Eigen::VectorXd::Zero(4);
    for (std::size_t i = 0; i < y.size(); ++i) {
      double expected = 0.0;
      for (Eigen::Index s = 0; s < 4; ++s) {
        const double f = FakeSynthesisModel::recordLogLikAt(y[i], draws(s, 0), draws(s, 1));
        double c = alpha[i] == 0.0 ? 0.0 : std::abs(alpha[i] * f);
        if (std::isnan(c)) c = kInf;
        expected = std::max(expected, c);
        perDraw[s] = std::max(perDraw[s], c);
      }
      QVERIFY(r.perRecordRaw[static_cast<Eigen::Index>(i)] == expected);  // the same bits
      QVERIFY(r.perRecord[static_cast<Eigen::Index>(i)] == expected);
      if (alpha[i] == 0.0) QCOMPARE(expected, 0.0);
    }
    QVERIFY(r.perDrawMax == perDraw);
    QCOMPARE(r.perDrawMax[0], kInf);
    QVERIFY(std::isfinite(r.perDrawMax[1]) && std::isfinite(r.perDrawMax[3]));
  }

  void resultDoesNotDependOnThreads() {
    const Problem p = makeProblem(9, 101, 97);
    FakeSynthesisModel model(p.y);
    const LipschitzResult one = computeLipschitz(model, p.draws, p.alpha, 3.0, 1);
    QVERIFY(one.censoredRecords > 0);
    for (int threads : {2, 3, 8, 200}) {
      const LipschitzResult many = computeLipschitz(model, p.draws, p.alpha, 3.0, threads);
      expectSame(many, one);
      QCOMPARE(many.q90, one.q90);
      QCOMPARE(many.q95, one.q95);
    }
  }

  void onePassOverDraws() {
    const Problem p = makeProblem(4, 30, 44);
    FakeSynthesisModel model(p.y);
    computeLipschitz(model, p.draws, p.alpha, kInf, 3);
    QCOMPARE(model.recordLogLikCalls.load(), std::size_t{44});
  }

  void quantilesAreOverPerDrawMaxima() {
    // One record, five draws with log_tau = 0 and mu = y - d: |f| = d^2/2.
    FakeSynthesisModel model({0.0});
    Eigen::MatrixXd draws(5, 2);
    draws << -1, 0, -2, 0, -3, 0, -4, 0, -10, 0;  // |f| = .5, 2, 4.5, 8, 50
    const LipschitzResult r = computeLipschitz(model, draws, std::vector<double>{});
    QCOMPARE(r.max, 50.0);
    // Type 7 on {.5, 2, 4.5, 8, 50}: h = 3.6 -> 8 + .6*42 = 33.2; h = 3.8 -> 8 + .8*42 = 41.6.
    QVERIFY(std::abs(r.q90 - 33.2) < 1e-12);
    QVERIFY(std::abs(r.q95 - 41.6) < 1e-12);
  }

  void groupedPassEqualsBruteForceWithManyTies() {
    struct Clamp {
      double lower, upper;
    };
    const Clamp clamps[] = {{-kInf, kInf}, {-3.0, 3.0}, {-2.5, 0.5}, {-1.0, 0.0}};
    for (std::uint64_t seed : {1u, 2u, 3u, 4u}) {
      const TiedProblem p = makeTiedProblem(seed, 13, 400, 31, /*nonFinite=*/seed % 2 == 0);
      PatternedFakeModel model(p.patternY, p.recordPattern);
      const Eigen::MatrixXd f = recordValues(p);
      for (const Clamp& c : clamps) {
        const LipschitzResult want = bruteForceMatrix(f, p.alpha, c.lower, c.upper);
        for (int threads : {1, 3}) {
          const LipschitzResult got = computeLipschitz(
              model, p.draws, models::LikelihoodWeights{p.alpha, c.lower, c.upper}, threads);
          expectSame(got, want);
        }
        // All weights one (empty alpha) and all weights zero.
        const models::LikelihoodWeights ones{{}, c.lower, c.upper};
        expectSame(computeLipschitz(model, p.draws, ones),
                   bruteForceMatrix(f, {}, c.lower, c.upper));
        const std::vector<double> zeros(p.alpha.size(), 0.0);
        const LipschitzResult none =
            computeLipschitz(model, p.draws, models::LikelihoodWeights{zeros, c.lower, c.upper});
        expectSame(none, bruteForceMatrix(f, zeros, c.lower, c.upper));
        QCOMPARE(none.max, 0.0);
      }
      // One evaluation per draw (one tile: 13 patterns), not one per record.
      QCOMPARE(model.evaluations.load(), std::size_t{31} * (4 * 2 + 4 * 2));
    }
  }

  void groupedPassSpanningManyTilesEqualsBruteForce() {
    // More patterns than one tile holds: maxima and per-draw maxima must merge across tiles.
    const TiedProblem p = makeTiedProblem(21, 9000, 12000, 5, true);
    PatternedFakeModel model(p.patternY, p.recordPattern);
    const Eigen::MatrixXd f = recordValues(p);
    for (double M : {kInf, 2.0}) {
      const LipschitzResult want = bruteForceMatrix(f, p.alpha, -M, M);
      expectSame(computeLipschitz(model, p.draws, models::LikelihoodWeights{p.alpha, -M, M}, 2),
                 want);
      // One weight per pattern (here all ones): groups are the patterns themselves.
      expectSame(computeLipschitz(model, p.draws, models::LikelihoodWeights{{}, -M, M}, 2),
                 bruteForceMatrix(f, {}, -M, M));
    }
  }

  void stopEndsThePassWithinOneEvaluationPerWorker() {
    const TiedProblem p = makeTiedProblem(8, 50, 300, 400, false);
    for (int threads : {1, 2, 4}) {
      for (std::size_t fireAfter : {std::size_t{1}, std::size_t{37}}) {
        PatternedFakeModel model(p.patternY, p.recordPattern);
        std::stop_source source;
        model.afterEvaluation = [&] {
          if (model.evaluations.load() >= fireAfter) source.request_stop();
        };
        const auto r = computeLipschitz(model, p.draws, models::LikelihoodWeights{p.alpha}, threads,
                                        source.get_token());
        QVERIFY(!r.has_value());
        // The stop is seen before the next evaluation of every worker.
        QVERIFY(model.evaluations.load() <= fireAfter + static_cast<std::size_t>(threads));
      }
    }
    // A token that never fires changes nothing.
    PatternedFakeModel model(p.patternY, p.recordPattern);
    std::stop_source idle;
    const auto r = computeLipschitz(model, p.draws, models::LikelihoodWeights{p.alpha, -2.0, 2.0},
                                    2, idle.get_token());
    QVERIFY(r.has_value());
    expectSame(*r, computeLipschitz(model, p.draws, models::LikelihoodWeights{p.alpha, -2.0, 2.0}));
    QCOMPARE(model.evaluations.load(), std::size_t{800});
  }

  void prebuiltGroupsGiveTheSameResult() {
    const TiedProblem p = makeTiedProblem(5, 20, 200, 17, true);
    PatternedFakeModel model(p.patternY, p.recordPattern);
    const ContributionGroups groups = groupContributions(model, p.alpha);
    const models::LikelihoodWeights w{p.alpha, -1.5, 1.5};
    expectSame(*computeLipschitz(model, p.draws, w, 1, {}, &groups),
               computeLipschitz(model, p.draws, w));
    // Groups of other weights (or another model) are refused rather than silently misused.
    const ContributionGroups other = groupContributions({}, 7, 7, {});
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             computeLipschitz(model, p.draws, w, 1, {}, &other));
  }

  void monteCarloSdIsTheSpreadOfBatchMaxima() {
    // Two chains of 6 draws, 3 batches each: batch maxima 3, 5, 6 and 1, 2, 9.
    Eigen::VectorXd d(12);
    d << 1, 3, 5, 2, 6, 0, 1, 0, 2, 1, 9, 4;
    const double sd = lipschitzMonteCarloSd(d, {6, 6}, 3);
    const std::vector<double> m = {3, 5, 6, 1, 2, 9};
    double mean = 0;
    for (double x : m) mean += x / 6.0;
    double ss = 0;
    for (double x : m) ss += (x - mean) * (x - mean);
    QVERIFY(std::abs(sd - std::sqrt(ss / 5.0)) < 1e-12);
    QVERIFY(std::isnan(lipschitzMonteCarloSd(d, {12}, 1)));  // one batch: unknown
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, lipschitzMonteCarloSd(d, {6, 5}, 3));
  }

  void monteCarloSdTracksTheSpreadOfTheMaximumAcrossRuns() {
    // Draws of D ~ Exp(1) (a Gumbel-domain tail): the sd of the maximum of S draws is π/√6
    // whatever S. The estimate from one run's batches must be close on average.
    const int S = 4000;
    double sum = 0;
    const int runs = 200;
    for (int r = 0; r < runs; ++r) {
      random::Rng rng = random::makeRng(1000 + static_cast<std::uint64_t>(r));
      Eigen::VectorXd d(S);
      for (int s = 0; s < S; ++s) d[s] = -std::log(random::uniform01(rng));
      sum += lipschitzMonteCarloSd(d, {1000, 1000, 1000, 1000}, 4);
    }
    const double truth = std::numbers::pi / std::sqrt(6.0);
    QVERIFY(std::abs(sum / runs - truth) < 0.08 * truth);
  }

  void rejectsBadSizes() {
    const Problem p = makeProblem(3, 10, 8);
    FakeSynthesisModel model(p.y);
    const std::vector<double> shortAlpha(9, 1.0);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, computeLipschitz(model, p.draws, shortAlpha));
    const Eigen::MatrixXd wideDraws = Eigen::MatrixXd::Zero(8, 3);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, computeLipschitz(model, wideDraws, p.alpha));
    const Eigen::MatrixXd noDraws(0, 2);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, computeLipschitz(model, noDraws, p.alpha));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, computeLipschitz(model, p.draws, p.alpha, 0.0));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             computeLipschitz(model, p.draws, p.alpha, kInf, 0));
    std::vector<double> badAlpha(10, 0.5);
    badAlpha[3] = 1.5;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, computeLipschitz(model, p.draws, badAlpha));
  }
};

QTEST_APPLESS_MAIN(LipschitzTest)
#include "lipschitz_test.moc"
