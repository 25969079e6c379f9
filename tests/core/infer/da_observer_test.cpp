#include <QtTest>
#include <mutex>

#include "core/infer/da_sampler.h"
#include "core/infer/naive_bayes_release.h"

using dpsynth::core::infer::DaBatch;
using dpsynth::core::infer::DaConfig;
using dpsynth::core::infer::DaObserver;
using dpsynth::core::infer::DaResult;
using dpsynth::core::infer::naiveBayesCounts;
using dpsynth::core::infer::NaiveBayesLayout;
using dpsynth::core::infer::NaiveBayesModel;
using dpsynth::core::infer::runDataAugmentation;

namespace {

NaiveBayesModel observerModel() {
  NaiveBayesLayout l;
  l.classes = {"a", "b"};
  l.features = {"f"};
  l.levels = {{"x", "y", "z"}};
  std::vector<std::vector<int>> records;
  for (int i = 0; i < 15; ++i) records.push_back({i % 2, (i * 5) % 3});
  return NaiveBayesModel(l, 15, naiveBayesCounts(l, records), 2.0);
}

DaConfig observerConfig() {
  DaConfig c;
  c.seed = 23;
  c.iterations = 57;  // not a multiple of the batch size: the last batch is short
  c.warmup = 20;
  c.chains = 3;
  c.threads = 2;
  return c;
}

}  // namespace

class DaObserverTest : public QObject {
  Q_OBJECT

 private slots:
  void observerDoesNotChangeTheSeededOutput() {
    const NaiveBayesModel model = observerModel();
    const DaResult plain = runDataAugmentation(model, observerConfig());
    DaObserver observer;
    observer.every = 7;
    observer.onBatch = [](const DaBatch&) {};
    const DaResult observed = runDataAugmentation(model, observerConfig(), {}, {}, observer);
    QCOMPARE(observed.chains.size(), plain.chains.size());
    for (std::size_t c = 0; c < plain.chains.size(); ++c) {
      QVERIFY(observed.chains[c].draws == plain.chains[c].draws);
      QVERIFY(observed.chains[c].sweepAcceptance == plain.chains[c].sweepAcceptance);
      QVERIFY(observed.chains[c].recordAcceptance == plain.chains[c].recordAcceptance);
      QCOMPARE(observed.chains[c].minAcceptance, plain.chains[c].minAcceptance);
    }
  }

  void batchesReassembleEveryChain() {
    const NaiveBayesModel model = observerModel();
    const DaConfig config = observerConfig();
    const int kept = config.iterations - config.warmup;
    std::mutex mutex;
    std::vector<Eigen::MatrixXd> draws(3,
                                       Eigen::MatrixXd::Constant(kept, model.parameterDim(), -1));
    std::vector<Eigen::VectorXd> sweeps(3, Eigen::VectorXd::Constant(config.iterations, -1));
    std::vector<double> lowestProbability(3, 2.0), highestProbability(3, -1.0);
    std::vector<int> nextSweep(3, 0), batches(3, 0);
    bool ordered = true;
    DaObserver observer;
    observer.every = 7;
    observer.onBatch = [&](const DaBatch& b) {
      const std::lock_guard lock(mutex);
      const auto c = static_cast<std::size_t>(b.chain);
      if (b.firstSweep != nextSweep[c]) ordered = false;  // contiguous, in order, no overlap
      nextSweep[c] += static_cast<int>(b.sweepAcceptance.size());
      sweeps[c].segment(b.firstSweep, b.sweepAcceptance.size()) = b.sweepAcceptance;
      if (b.sweepProbability.size() != b.sweepAcceptance.size()) ordered = false;
      lowestProbability[c] = std::min(lowestProbability[c], b.sweepProbability.minCoeff());
      highestProbability[c] = std::max(highestProbability[c], b.sweepProbability.maxCoeff());
      if (b.draws.rows() > 0) draws[c].middleRows(b.firstDraw, b.draws.rows()) = b.draws;
      ++batches[c];
    };
    const DaResult r = runDataAugmentation(model, config, {}, {}, observer);
    QVERIFY(ordered);
    for (std::size_t c = 0; c < 3; ++c) {
      QCOMPARE(nextSweep[c], config.iterations);
      QCOMPARE(batches[c], 9);  // 8 batches of 7 sweeps and one of 1
      QVERIFY(sweeps[c] == r.chains[c].sweepAcceptance);
      QVERIFY(draws[c] == r.chains[c].draws);
      // A sweep's mean acceptance probability is at least the chain's smallest one.
      QVERIFY(lowestProbability[c] >= r.chains[c].minAcceptance);
      QVERIFY(highestProbability[c] <= 1.0);
    }
  }

  void nonPositiveIntervalThrows() {
    const NaiveBayesModel model = observerModel();
    DaObserver observer;
    observer.every = 0;
    observer.onBatch = [](const DaBatch&) {};
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             runDataAugmentation(model, observerConfig(), {}, {}, observer));
  }
};

QTEST_APPLESS_MAIN(DaObserverTest)
#include "da_observer_test.moc"
