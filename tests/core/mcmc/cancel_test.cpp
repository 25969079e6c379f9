#include <QtTest>
#include <map>
#include <mutex>

#include "core/mcmc/sampler.h"
#include "support/gaussian_models.h"

using dpsynth::core::mcmc::NutsConfig;
using dpsynth::core::mcmc::Progress;
using dpsynth::core::mcmc::RunStatus;
using dpsynth::core::mcmc::sample;
using dpsynth::core::mcmc::SampleResult;
using dpsynth::core::mcmc::SamplerObserver;
namespace test = dpsynth::test;

namespace {

/// Collects every event; called concurrently from the chain threads.
class RecordingObserver : public SamplerObserver {
 public:
  void onProgress(const Progress& progress) override {
    std::lock_guard lock(mutex_);
    progress_[progress.chain].push_back(progress);
  }
  void onDraws(int chain, int firstDraw, const Eigen::MatrixXd& rows) override {
    std::lock_guard lock(mutex_);
    batches_[chain].push_back({firstDraw, rows});
  }
  std::map<int, std::vector<Progress>> progress_;
  std::map<int, std::vector<std::pair<int, Eigen::MatrixXd>>> batches_;

 private:
  std::mutex mutex_;
};

}  // namespace

class CancelTest : public QObject {
  Q_OBJECT

 private slots:
  void stopReturnsPromptlyWithoutChains() {
    // Counted, not timed: the model asks for the stop itself at its 200th gradient. Once that
    // request has returned, each chain may begin at most two more evaluations: one it had
    // already checked the token for (it is polled before every leapfrog step), or, for a chain
    // that had not started yet, its initial point and first step-size trial.
    std::stop_source source;
    test::StoppingGaussianModel model(3, 200, source);
    NutsConfig c;
    c.chains = 2;
    c.threads = 2;
    c.seed = 9;
    const SampleResult r = sample(model, c, source.get_token());
    QCOMPARE(r.status, RunStatus::cancelled);
    QVERIFY(r.chains.empty());
    QVERIFY(model.evaluations() >= 200);
    const long long after = model.evaluationsAfterRequest();
    QVERIFY2(after >= 0 && after <= 2 * c.chains,
             qPrintable(QString("%1 gradient evaluations after the request").arg(after)));
  }

  void alreadyStoppedTokenRunsNothing() {
    test::IidGaussianModel model(2);
    std::stop_source source;
    source.request_stop();
    const SampleResult r = sample(model, NutsConfig{}, source.get_token());
    QCOMPARE(r.status, RunStatus::cancelled);
    QVERIFY(r.chains.empty());
    QCOMPARE(r.gradientEvaluations(), 0LL);
  }

  void observerSeesProgressAndAllDraws() {
    test::IidGaussianModel model(2);
    NutsConfig c;
    c.chains = 3;
    c.threads = 3;
    c.warmup = 110;
    c.draws = 130;
    c.progressEvery = 25;
    RecordingObserver observer;
    const SampleResult r = sample(model, c, {}, &observer);
    QCOMPARE(r.status, RunStatus::completed);
    const int total = c.warmup + c.draws;  // 240: events at 25, 50, ..., 225 and 240
    for (int chain = 0; chain < c.chains; ++chain) {
      const auto& events = observer.progress_[chain];
      QCOMPARE(int(events.size()), 10);
      for (std::size_t i = 0; i + 1 < events.size(); ++i) {
        QCOMPARE(events[i].iteration, 25 * int(i + 1));
        QCOMPARE(events[i].inWarmup, events[i].iteration <= c.warmup);
        QCOMPARE(events[i].total, total);
        QCOMPARE(events[i].chain, chain);
      }
      QCOMPARE(events.back().iteration, total);
      QVERIFY(!events.back().inWarmup);
      QCOMPARE(events.back().divergences, r.chains[chain].divergences);

      // Batches arrive in order and concatenate to the final draws exactly.
      const auto& batches = observer.batches_[chain];
      Eigen::MatrixXd joined(0, 2);
      for (const auto& [first, rows] : batches) {
        QCOMPARE(Eigen::Index(first), joined.rows());
        QVERIFY(rows.rows() > 0);
        Eigen::MatrixXd grown(joined.rows() + rows.rows(), 2);
        grown << joined, rows;
        joined = grown;
      }
      QVERIFY(joined == r.chains[chain].draws);
      // First batch at iteration 125 (draws 0..14), then every 25 iterations, last at 240.
      QCOMPARE(int(batches.size()), 6);
      QCOMPARE(int(batches.front().second.rows()), 15);
    }
  }
};

QTEST_APPLESS_MAIN(CancelTest)
#include "cancel_test.moc"
