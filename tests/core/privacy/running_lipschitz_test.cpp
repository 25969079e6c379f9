#include "core/privacy/running_lipschitz.h"

#include <QtTest>
#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

#include "core/privacy/lipschitz.h"
#include "core/random/rng.h"
#include "support/fake_synthesis_model.h"
#include "support/lipschitz_problem.h"

using namespace dpsynth::core;
using namespace dpsynth::core::privacy;
using dpsynth::test::FakeSynthesisModel;
using dpsynth::test::makeProblem;
using dpsynth::test::Problem;

namespace {

/// Cuts rows 0..S-1 into batches of varying sizes, listed in a scrambled order.
std::vector<std::pair<int, int>> scrambledBatches(int S, std::uint64_t seed) {
  std::vector<std::pair<int, int>> batches;
  for (int begin = 0, size = 1; begin < S; begin += size, size = size % 7 + 1)
    batches.emplace_back(begin, std::min(size, S - begin));
  random::Rng rng = random::makeRng(seed);
  for (std::size_t i = batches.size(); i > 1; --i)
    std::swap(batches[i - 1], batches[random::uniformIndex(rng, i)]);
  return batches;
}

}  // namespace

class RunningLipschitzTest : public QObject {
  Q_OBJECT

 private slots:
  void allBatchesInAnyOrderGiveTheFinalBound() {
    const Problem p = makeProblem(5, 41, 97);
    const double clamp = 1.5;  // binds for some records, not for others
    auto model = std::make_shared<FakeSynthesisModel>(
        p.y, models::LikelihoodWeights{p.alpha, -clamp, clamp});
    const LipschitzResult want = computeLipschitz(*model, p.draws, p.alpha, clamp);
    QVERIFY(want.censoredRecords > 0);
    QVERIFY(want.censoredRecords < p.y.size());

    RunningLipschitz running(model);
    QCOMPARE(running.draws(), std::size_t{0});
    QCOMPARE(running.max(), 0.0);
    QVERIFY(running.perRecord() == Eigen::VectorXd::Zero(41));
    for (auto [begin, size] : scrambledBatches(97, 9)) {
      running.addDraws(p.draws.middleRows(begin, size));
      // Always a lower bound of the final one: running maxima only grow towards it.
      QVERIFY((running.perRecord().array() <= want.perRecord.array()).all());
    }
    QCOMPARE(running.draws(), std::size_t{97});
    QVERIFY(running.perRecord() == want.perRecord);
    QCOMPARE(running.max(), want.max);

    // Independent of the library: record 1 (weight > 0) by the closed form.
    double r1 = 0;
    for (Eigen::Index s = 0; s < p.draws.rows(); ++s) {
      const double f = FakeSynthesisModel::recordLogLikAt(p.y[1], p.draws(s, 0), p.draws(s, 1));
      r1 = std::max(r1, std::min(std::abs(p.alpha[1] * f), clamp));
    }
    QCOMPARE(running.perRecord()[1], r1);
    QCOMPARE(running.perRecord()[0], 0.0);  // weight 0 contributes nothing
  }

  void concurrentChainsGiveTheSameBound() {
    const Problem p = makeProblem(6, 29, 120);
    auto model =
        std::make_shared<FakeSynthesisModel>(p.y, models::LikelihoodWeights{p.alpha, -2.0, 2.0});
    const LipschitzResult want = computeLipschitz(*model, p.draws, p.alpha, 2.0);
    RunningLipschitz running(model);
    {
      std::vector<std::jthread> chains;
      for (int c = 0; c < 4; ++c) {
        chains.emplace_back([&, c] {
          for (int s = c * 30; s < (c + 1) * 30; s += 5) running.addDraws(p.draws.middleRows(s, 5));
        });
      }
    }
    QCOMPARE(running.draws(), std::size_t{120});
    QVERIFY(running.perRecord() == want.perRecord);
    QCOMPARE(running.max(), want.max);
  }

  void emptyBatchesAndNullModel() {
    const Problem p = makeProblem(7, 5, 3);
    RunningLipschitz running(std::make_shared<FakeSynthesisModel>(p.y));
    running.addDraws(Eigen::MatrixXd(0, 2));
    QCOMPARE(running.draws(), std::size_t{0});
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, RunningLipschitz(nullptr));
  }
};

QTEST_APPLESS_MAIN(RunningLipschitzTest)
#include "running_lipschitz_test.moc"
