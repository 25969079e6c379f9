#include "ui/workers/pipeline_worker.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QThread>
#include <QtTest>
#include <algorithm>
#include <map>
#include <variant>
#include <vector>

#include "core/models/model.h"
#include "queued_recorder.h"
#include "studio_test_helpers.h"
#include "support/model_fixtures.h"
#include "ui/services/run_controller.h"

using namespace dpsynth::ui;
namespace pipeline = dpsynth::core::pipeline;

namespace {

RunRequest request(quint64 id, int warmup, int draws, pipeline::Mechanism m) {
  RunRequest r;
  r.runId = id;
  r.dataset = test::nbmixDataset();
  pipeline::MechanismConfig config;
  config.mechanism = m;
  config.k = 0.9;
  r.configs = {config};
  r.settings.model.family = dpsynth::core::models::Family::negbin;
  r.settings.nuts.chains = 2;
  r.settings.nuts.warmup = warmup;
  r.settings.nuts.draws = draws;
  r.settings.nuts.seed = 11;
  r.cache = std::make_shared<pipeline::StageCache>();
  return r;
}

/// The worker in its own thread, shut down the way the controller does it.
struct ThreadedWorker {
  QThread thread;
  PipelineWorker* worker = new PipelineWorker;
  ThreadedWorker() {
    worker->moveToThread(&thread);
    QObject::connect(&thread, &QThread::finished, worker, &QObject::deleteLater);
    thread.start();
  }
  ~ThreadedWorker() {
    worker->cancel();
    thread.quit();
    thread.wait();
  }
};

}  // namespace

class PipelineWorkerTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { registerRunTypes(); }

  void emitsProgressDrawsAndFinished() {
    ThreadedWorker t;
    auto started = test::record(t.worker, &PipelineWorker::runStarted);
    auto stages = test::record(t.worker, &PipelineWorker::stageStarted);
    auto stagesDone = test::record(t.worker, &PipelineWorker::stageFinished);
    auto progress = test::record(t.worker, &PipelineWorker::progress);
    auto draws = test::record(t.worker, &PipelineWorker::draws);
    auto finished = test::record(t.worker, &PipelineWorker::finished);
    auto failed = test::record(t.worker, &PipelineWorker::failed);
    t.worker->start(request(1, 150, 150, pipeline::Mechanism::lwFinal));
    QVERIFY(finished->wait(60000));
    QCOMPARE(failed->count(), 0);
    QCOMPARE(started->count(), 1);
    const auto start = started->at(0);
    QCOMPARE(start.chains, 2);
    QVERIFY(start.parameterNames.contains("phi"));
    QCOMPARE(stages->count(), 3);  // unweighted, lw, lw-final k=0.9
    QCOMPARE(stagesDone->count(), 3);
    QVERIFY(progress->count() >= 2 * 3);  // several reports per chain and stage
    for (const auto& [p] : progress->all()) {
      QCOMPARE(p.runId, quint64(1));
      QVERIFY(p.progress.chain >= 0 && p.progress.chain < 2);
      QVERIFY(p.progress.iteration <= p.progress.total);
    }
    QVERIFY(draws->count() > 0);
    int drawnRows = 0;
    const int parameters = start.parameterNames.size();
    for (const auto& [b] : draws->all()) {
      QCOMPARE(int(b.values->size()) % parameters, 0);
      if (b.stage == "unweighted") drawnRows += int(b.values->size()) / parameters;
    }
    QCOMPARE(drawnRows, 2 * 150);  // every post-warm-up draw of both chains, once
    const auto out = finished->at(0);
    QCOMPARE(out.runId, quint64(1));
    QCOMPARE(out.table.size(), std::size_t(2));  // confidential + lw-final
    QCOMPARE(out.table[1].mechanism, std::string("lw-final"));
    QCOMPARE(out.cacheMisses, std::size_t(3));
    QCOMPARE(out.cacheHits, std::size_t(0));
    QVERIFY(out.result);
    QCOMPARE(out.plots.size(), std::size_t(1));
    QCOMPARE(out.plots[0].deltaPerRecord.size(), std::size_t(1000));
  }

  /// Live draws are shown on the constrained scale of the stage's own model: a stage fitted on
  /// the reference data lives in that data's unconstrained space (its QR transform comes from
  /// the reference design), not the released data's.
  void referenceStageDrawsUseTheirOwnModel() {
    using dpsynth::core::models::Family;
    auto regression = [](Eigen::Index n, double offset, double scale, std::uint64_t seed) {
      const Eigen::MatrixXd standard = dpsynth::test::fixtureCovariates(n, 1, seed);
      const Eigen::MatrixXd x = (standard.array() * scale + offset).matrix();
      return std::make_shared<dpsynth::core::data::Dataset>(dpsynth::test::makeDataset(
          Family::poisson, dpsynth::test::fixtureOutcomes(Family::poisson, standard, n, seed), x));
    };
    ThreadedWorker t;
    auto draws = test::record(t.worker, &PipelineWorker::draws);
    auto finished = test::record(t.worker, &PipelineWorker::finished);
    auto failed = test::record(t.worker, &PipelineWorker::failed);
    RunRequest r = request(7, 150, 100, pipeline::Mechanism::censorW);
    r.dataset = regression(80, 0.0, 1.0, 3);
    const auto reference = regression(90, 5.0, 4.0, 4);  // another design, another R*
    r.settings.model.family = Family::poisson;
    r.settings.weightReference = reference;
    r.configs.front().epsilon = 8;
    t.worker->start(r);
    QVERIFY(finished->wait(60000));
    QCOMPARE(failed->count(), 0);
    const auto out = finished->at(0);
    const auto& stage = out.result->mechanisms.front().stages.front();
    QVERIFY(stage->reference);
    const auto referenceModel = dpsynth::core::models::makeModel(*reference, r.settings.model);
    const auto releasedModel = dpsynth::core::models::makeModel(*r.dataset, r.settings.model);
    const int dim = referenceModel->dim();
    int compared = 0;
    for (const auto& [b] : draws->all()) {
      if (b.stage != QString::fromStdString(stage->name)) continue;
      const auto& chain = stage->sample->chains[std::size_t(b.chain)].draws;
      for (int row = 0; row < int(b.values->size()) / dim; ++row) {
        const Eigen::VectorXd u = chain.row(b.firstDraw + row).transpose();
        const Eigen::VectorXd want = referenceModel->constrain(u);
        const Eigen::VectorXd wrong = releasedModel->constrain(u);
        for (int j = 0; j < dim; ++j) {
          QCOMPARE((*b.values)[std::size_t(row * dim + j)], want[j]);
        }
        QVERIFY((want - wrong).cwiseAbs().maxCoeff() > 1e-3);
        ++compared;
      }
    }
    QCOMPARE(compared, 2 * 100);
  }

  void lipschitzFillsInWhileDrawsArrive() {
    ThreadedWorker t;
    // One receiver in this thread keeps the order in which the worker emitted.
    QObject recorder;
    std::vector<std::variant<LipschitzSnapshot, StageEvent>> events;
    QObject::connect(t.worker, &PipelineWorker::lipschitzUpdated, &recorder,
                     [&](const LipschitzSnapshot& l) { events.emplace_back(l); });
    QObject::connect(t.worker, &PipelineWorker::stageFinished, &recorder,
                     [&](const StageEvent& e) { events.emplace_back(e); });
    auto finished = test::record(t.worker, &PipelineWorker::finished);
    auto failed = test::record(t.worker, &PipelineWorker::failed);
    t.worker->start(request(6, 150, 300, pipeline::Mechanism::lwFinal));
    QVERIFY(finished->wait(60000));
    QCOMPARE(failed->count(), 0);

    const std::size_t allDraws = 2 * 300;
    std::map<QString, LipschitzSnapshot> lastOfStage;
    int finishedStages = 0;
    for (const auto& event : events) {
      if (const auto* l = std::get_if<LipschitzSnapshot>(&event)) {
        QCOMPARE(l->runId, quint64(6));
        QCOMPARE(l->mechanism, QString("lw-final"));
        QVERIFY(l->perRecord);
        QCOMPARE(l->perRecord->size(), std::size_t(1000));
        QCOMPARE(l->max, *std::max_element(l->perRecord->begin(), l->perRecord->end()));
        QVERIFY(l->draws > 0 && l->draws <= allDraws);
        if (const auto it = lastOfStage.find(l->stage); it != lastOfStage.end())
          QVERIFY(l->draws >= it->second.draws);  // snapshots of a stage only grow
        lastOfStage.insert_or_assign(l->stage, *l);
        continue;
      }
      const auto& e = std::get<StageEvent>(event);
      ++finishedStages;
      QVERIFY2(lastOfStage.count(e.stage), qPrintable("no live snapshot before " + e.stage));
      const auto& last = lastOfStage.at(e.stage);
      const auto& bound = e.result->lipschitz.perRecord;
      for (std::size_t i = 0; i < last.perRecord->size(); ++i) {
        const double live = (*last.perRecord)[i], done = bound[Eigen::Index(i)];
        QVERIFY2(live <= done,
                 qPrintable(QString("record %1: %2 > %3").arg(i).arg(live).arg(done)));
        if (last.draws == allDraws) QCOMPARE(live, done);
      }
    }
    QCOMPARE(finishedStages, 3);
  }

  void cancelEndsWithin100ms() {
    ThreadedWorker t;
    auto progress = test::record(t.worker, &PipelineWorker::progress);
    auto cancelled = test::record(t.worker, &PipelineWorker::cancelled);
    auto finished = test::record(t.worker, &PipelineWorker::finished);
    t.worker->start(request(2, 20000, 20000, pipeline::Mechanism::lw));
    QVERIFY(progress->wait(30000));
    QElapsedTimer clock;
    clock.start();
    t.worker->cancel();  // a direct, thread-safe call: no event queue in between
    QVERIFY(cancelled->wait(5000));
    // The latency itself (SPEC: 100 ms) is measured outside the tests (.ci/ctrl_c_latency.py,
    // README): a bound here would fail on a loaded machine. What is checked is the mechanism:
    // the sampler stopped mid-run, well before its 2 × 40000 iterations, and said so once.
    qInfo("cancel took %lld ms", static_cast<long long>(clock.elapsed()));
    QCOMPARE(cancelled->at(0), quint64(2));
    QCOMPARE(finished->count(), 0);
  }

  void aNewStartSupersedesTheRunningOne() {
    ThreadedWorker t;
    auto progress = test::record(t.worker, &PipelineWorker::progress);
    auto cancelled = test::record(t.worker, &PipelineWorker::cancelled);
    auto finished = test::record(t.worker, &PipelineWorker::finished);
    t.worker->start(request(3, 20000, 20000, pipeline::Mechanism::lw));
    QVERIFY(progress->wait(30000));
    t.worker->start(request(4, 100, 100, pipeline::Mechanism::unweighted));
    QVERIFY(finished->wait(60000));
    QCOMPARE(cancelled->count(), 1);
    QCOMPARE(cancelled->at(0), quint64(3));
    QCOMPARE(finished->at(0).runId, quint64(4));
  }

  void invalidSettingsEmitFailed() {
    ThreadedWorker t;
    auto failed = test::record(t.worker, &PipelineWorker::failed);
    auto r = request(5, 100, 100, pipeline::Mechanism::ph);  // no ε, no bounds
    t.worker->start(r);
    QVERIFY(failed->wait(10000));
    const QString message = failed->at<1>(0);
    QVERIFY2(message.contains("bounds"), qPrintable(message));
    QVERIFY2(message.contains("epsilon"), qPrintable(message));
  }

  void controllerShutdownDuringARunIsPrompt() {
    QElapsedTimer clock;
    {
      RunController controller;
      QSignalSpy merged(&controller, &RunController::progressMerged);
      StudioSettings s;
      s.dataset.family = dpsynth::core::models::Family::negbin;
      s.tuning = defaultTuning();
      s.mechanisms = {pipeline::Mechanism::lw};
      s.run.nuts.chains = 2;
      s.run.nuts.warmup = 20000;
      s.run.nuts.draws = 20000;
      controller.start(test::nbmixDataset(), s);
      QVERIFY(merged.wait(30000));
      clock.start();
    }  // cancel → quit → wait
    QVERIFY2(clock.elapsed() < 1000, qPrintable(QString::number(clock.elapsed())));
  }

  void progressIsMergedOnATimer() {
    RunController controller;
    QSignalSpy merged(&controller, &RunController::progressMerged);
    QSignalSpy finished(&controller, &RunController::finished);
    StudioSettings s;
    s.dataset.family = dpsynth::core::models::Family::negbin;
    s.tuning = defaultTuning();
    s.mechanisms = {pipeline::Mechanism::unweighted};
    s.run.nuts.chains = 2;
    s.run.nuts.warmup = 1000;
    s.run.nuts.draws = 1000;
    s.run.nuts.progressEvery = 1;  // a report every iteration: 4000 reports
    controller.start(test::nbmixDataset(), s);
    QVERIFY(finished.wait(60000));
    QVERIFY(merged.count() >= 1);
    QVERIFY2(merged.count() < 400, qPrintable(QString::number(merged.count())));
    const auto last = merged.last().first().value<StageProgress>();
    QCOMPARE(last.chains.size(), std::size_t(2));
    QVERIFY(last.fraction() > 0 && last.fraction() <= 1);
  }
};

QTEST_MAIN(PipelineWorkerTest)
#include "pipeline_worker_test.moc"
