/// A stage's Lipschitz pass on the real models (records grouped into patterns, weights that
/// repeat) equals the definition evaluated record by record, and a Cancel that arrives during
/// the pass ends the stage as cancelled instead of waiting for the whole pass.
#include "core/pipeline/stage_runner.h"

#include <QtTest>
#include <atomic>
#include <cmath>

#include "core/models/model.h"
#include "core/pipeline/pipeline.h"
#include "core/privacy/lipschitz.h"
#include "core/random/rng.h"
#include "support/model_fixtures.h"

using namespace dpsynth::core;
using namespace dpsynth::core::pipeline;
using models::Family;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// The definition: every record under every draw through recordLogLik, with the conventions of
/// lipschitz.h (weight 0 contributes 0; NaN is unbounded).
privacy::LipschitzResult bruteForce(const models::SynthesisModel& model,
                                    const Eigen::MatrixXd& draws, const std::vector<double>& alpha,
                                    double lower, double upper) {
  const auto n = static_cast<Eigen::Index>(model.records());
  privacy::LipschitzResult r;
  r.perRecord = Eigen::VectorXd::Zero(n);
  r.perRecordRaw = Eigen::VectorXd::Zero(n);
  r.perDrawMax = Eigen::VectorXd::Zero(draws.rows());
  std::vector<bool> censored(static_cast<std::size_t>(n), false);
  Eigen::VectorXd f(n);
  for (Eigen::Index s = 0; s < draws.rows(); ++s) {
    model.recordLogLik(draws.row(s).transpose(), f);
    for (Eigen::Index i = 0; i < n; ++i) {
      const double a = alpha.empty() ? 1.0 : alpha[static_cast<std::size_t>(i)];
      double c = a == 0.0 ? 0.0 : a * f[i];
      double raw = std::abs(c);
      if (std::isnan(c)) {
        c = -kInf;
        raw = kInf;
      }
      const double clamped = std::abs(std::min(std::max(c, lower), upper));
      if (c < lower || c > upper) censored[static_cast<std::size_t>(i)] = true;
      r.perRecordRaw[i] = std::max(r.perRecordRaw[i], raw);
      r.perRecord[i] = std::max(r.perRecord[i], clamped);
      r.perDrawMax[s] = std::max(r.perDrawMax[s], clamped);
    }
  }
  r.max = r.perRecord.maxCoeff();
  r.maxRaw = r.perRecordRaw.maxCoeff();
  r.censoredRecords = static_cast<std::size_t>(std::count(censored.begin(), censored.end(), true));
  return r;
}

Eigen::MatrixXd drawsAround(const models::SynthesisModel& model, int S, std::uint64_t seed) {
  auto rng = random::makeRng(seed, 4);
  Eigen::MatrixXd draws(S, model.dim());
  const Eigen::VectorXd start = model.initialPoint();
  for (int s = 0; s < S; ++s)
    for (int j = 0; j < model.dim(); ++j) draws(s, j) = start[j] + random::normal(rng, 0.0, 0.3);
  return draws;
}

/// Requests a stop when the last chain reports its last iteration: with one sampler thread the
/// chains run in order, so sampling completes and the stop lands in what follows (the pass).
class StopAfterSampling : public PipelineObserver {
 public:
  StopAfterSampling(std::stop_source& source, int chains) : source_(source), chains_(chains) {}
  void onSamplerProgress(const std::string&, const mcmc::Progress& p) override {
    if (p.chain == chains_ - 1 && p.iteration == p.total) source_.request_stop();
  }
  void onStageFinished(const std::string&, const StagePtr&) override { ++finished; }
  std::atomic<int> finished{0};

 private:
  std::stop_source& source_;
  int chains_;
};

}  // namespace

class StageRunnerTest : public QObject {
  Q_OBJECT
 private slots:
  void lipschitzPassOnGroupedModelsEqualsRecordByRecord() {
    struct Case {
      Family family;
      int covariates;
    };
    for (const Case& c : {Case{Family::negbin, 0}, Case{Family::poisson, 2}, Case{Family::beta, 0},
                          Case{Family::normal, 2}}) {
      const auto d = dpsynth::test::fixtureDataset(c.family, 300, c.covariates, 12);
      // Weights that repeat within patterns (and zeros), clamps off and on.
      const std::vector<double> alpha = dpsynth::test::fixtureWeights(d.size(), 12);
      const auto model = models::makeModel(d, {c.family});
      const Eigen::MatrixXd draws = drawsAround(*model, 40, 3);
      for (double M : {kInf, 1.5}) {
        const double lower = -M, upper = models::isCountFamily(c.family) && M < kInf ? 0.0 : M;
        const auto want = bruteForce(*model, draws, alpha, lower, upper);
        for (int threads : {1, 3}) {
          const auto got = privacy::computeLipschitz(
              *model, draws, models::LikelihoodWeights{alpha, lower, upper}, threads);
          QVERIFY(got.perRecord == want.perRecord);
          QVERIFY(got.perRecordRaw == want.perRecordRaw);
          QVERIFY(got.perDrawMax == want.perDrawMax);
          QCOMPARE(got.max, want.max);
          QCOMPARE(got.maxRaw, want.maxRaw);
          QCOMPARE(got.censoredRecords, want.censoredRecords);
        }
      }
    }
  }

  void cancelDuringTheLipschitzPassEndsTheStage() {
    const auto d = dpsynth::test::fixtureDataset(Family::negbin, 200, 0, 5);
    RunSettings settings;
    settings.model.family = Family::negbin;
    settings.nuts.chains = 2;
    settings.nuts.warmup = 60;
    settings.nuts.draws = 60;
    settings.nuts.threads = 1;
    settings.nuts.seed = 3;
    MechanismConfig unweighted;
    std::stop_source source;
    StopAfterSampling observer(source, settings.nuts.chains);
    const RunResult r =
        runMechanisms(d, {unweighted}, settings, nullptr, source.get_token(), &observer);
    QVERIFY(source.stop_requested());
    // The sampler finished; the pass saw the stop, so the stage (and the run) is cancelled.
    QCOMPARE(r.outcome, RunOutcome::cancelled);
    QVERIFY(r.mechanisms.empty());
    QCOMPARE(observer.finished.load(), 0);

    // Without a stop the same run completes.
    std::stop_source idle;
    const RunResult ok = runMechanisms(d, {unweighted}, settings, nullptr, idle.get_token());
    QCOMPARE(ok.outcome, RunOutcome::completed);
    QVERIFY(std::isfinite(ok.mechanisms.front().final->lipschitz.maxMcSd));
  }

  /// Two stages of one kind in a run draw from streams of their own: two censor-uw fits at
  /// nearly the same ε took the same random numbers, and the exact sampler released the very
  /// same draws twice, where the budget's sum (ε₁ + ε₂) rests on independent mechanisms.
  void stagesOfOneKindDrawIndependently() {
    const auto d = dpsynth::test::fixtureDataset(Family::poisson, 150, 0, 7);
    RunSettings settings;
    settings.model.family = Family::poisson;
    settings.nuts.chains = 1;
    settings.nuts.warmup = 100;
    settings.nuts.draws = 100;
    settings.nuts.threads = 1;
    settings.nuts.seed = 11;
    MechanismConfig a, b;
    a.mechanism = b.mechanism = Mechanism::censorUw;
    a.epsilon = 6.0;
    b.epsilon = 6.0 + 1e-9;
    const RunResult r = runMechanisms(d, {a, b}, settings);
    QCOMPARE(r.mechanisms.size(), std::size_t{2});
    const Eigen::VectorXd x = r.mechanisms[0].final->sample->chains[0].draws.col(0);
    const Eigen::VectorXd y = r.mechanisms[1].final->sample->chains[0].draws.col(0);
    const double sd = std::sqrt((x.array() - x.mean()).square().mean());
    QVERIFY(sd > 0);
    QVERIFY2(
        (x - y).cwiseAbs().mean() > 0.3 * sd,
        qPrintable(QString("mean |difference| %1, sd %2").arg((x - y).cwiseAbs().mean()).arg(sd)));
  }
};

QTEST_APPLESS_MAIN(StageRunnerTest)
#include "stage_runner_test.moc"
