#include "core/privacy/lipschitz.h"

#include <QtTest>
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/random/rng.h"
#include "support/fake_synthesis_model.h"

using namespace dpsynth::core;
using namespace dpsynth::core::privacy;
using dpsynth::test::FakeSynthesisModel;

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

struct Problem {
  std::vector<double> y;
  Eigen::MatrixXd draws;
  std::vector<double> alpha;
};

Problem makeProblem(std::uint64_t seed, int n, int S) {
  random::Rng rng = random::makeRng(seed);
  Problem p;
  p.y.resize(static_cast<std::size_t>(n));
  for (double& v : p.y) v = random::normal(rng, 1.0, 2.0);
  p.draws.resize(S, 2);
  for (int s = 0; s < S; ++s) {
    p.draws(s, 0) = random::normal(rng, 1.0, 0.7);
    p.draws(s, 1) = random::normal(rng, 0.0, 0.8);
  }
  p.alpha.resize(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) p.alpha[i] = (i % 5 == 0) ? 0.0 : random::uniform01(rng);
  return p;
}

void expectSame(const LipschitzResult& got, const LipschitzResult& want) {
  QCOMPARE(got.perRecord.size(), want.perRecord.size());
  QCOMPARE(got.perDrawMax.size(), want.perDrawMax.size());
  QVERIFY(got.perRecord == want.perRecord);
  QVERIFY(got.perRecordRaw == want.perRecordRaw);
  QVERIFY(got.perDrawMax == want.perDrawMax);
  QCOMPARE(got.max, want.max);
  QCOMPARE(got.maxRaw, want.maxRaw);
  QVERIFY(std::abs(got.q90 - want.q90) <= 1e-12 * std::max(1.0, std::abs(want.q90)));
  QVERIFY(std::abs(got.q95 - want.q95) <= 1e-12 * std::max(1.0, std::abs(want.q95)));
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
      expectSame(computeLipschitz(model, p.draws, std::vector<double>{}), bruteForce(p.y, p.draws, {}, kInf));
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
