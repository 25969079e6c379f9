#include "ui/workers/pipeline_worker.h"

#include <QElapsedTimer>
#include <QMetaObject>
#include <atomic>
#include <chrono>
#include <mutex>

#include "core/data/data_error.h"
#include "core/models/parameter_labels.h"
#include "core/privacy/running_lipschitz.h"
#include "ui/dialogs/error_report.h"
#include "ui/workers/run_summary.h"

namespace dpsynth::ui {

namespace pipeline = core::pipeline;

namespace {

/// The running Lipschitz bound of the stage that is sampling now, shared by its chain threads.
struct LiveLipschitz {
  LiveLipschitz(QString mechanismLabel, std::string stageLabel,
                std::shared_ptr<const core::models::SynthesisModel> stageModel)
      : mechanism(std::move(mechanismLabel)),
        stage(std::move(stageLabel)),
        model(stageModel),
        bound(std::move(stageModel)) {}
  QString mechanism;
  std::string stage;
  /// The model the stage samples: its draws live in this model's unconstrained space.
  std::shared_ptr<const core::models::SynthesisModel> model;
  core::privacy::RunningLipschitz bound;
  /// Steady-clock milliseconds of the last snapshot; -1 = none yet, so the first batch shows.
  std::atomic<long long> lastEmitMs{-1};
};

/// Turns engine callbacks (from the pipeline and chain threads) into the worker's signals.
/// Emitting a signal is thread-safe; the receivers live in the GUI thread, so each emission
/// is queued with a copy of its snapshot.
class SignalObserver : public pipeline::PipelineObserver {
 public:
  SignalObserver(PipelineWorker& worker, quint64 runId, const core::models::Model& model)
      : worker_(worker), runId_(runId), model_(model) {}

  void onStageStarted(const std::string& mechanism, const std::string& stage,
                      bool fromCache) override {
    emit worker_.stageStarted(
        {runId_, QString::fromStdString(mechanism), QString::fromStdString(stage), fromCache, {}});
  }
  void onSamplerProgress(const std::string& stage, const core::mcmc::Progress& progress) override {
    emit worker_.progress({runId_, QString::fromStdString(stage), progress});
  }
  void onDraws(const std::string& stage, int chain, int firstDraw,
               const Eigen::MatrixXd& rows) override {
    const auto live = liveFor(stage);
    // A stage of the reference data has its own unconstrained space (its QR transform comes
    // from the reference design): constrain with the stage's model, not the data's.
    const core::models::Model& model = live ? *live->model : model_;
    auto values = std::make_shared<const std::vector<double>>(constrainDraws(model, rows));
    emit worker_.draws({runId_, QString::fromStdString(stage), chain, firstDraw, values});
    if (live) {
      live->bound.addDraws(rows);
      maybeEmitLipschitz(*live);
    }
  }
  void onStageModel(const std::string& mechanism, const std::string& stage,
                    std::shared_ptr<const core::models::SynthesisModel> model) override {
    auto live =
        std::make_shared<LiveLipschitz>(QString::fromStdString(mechanism), stage, std::move(model));
    const std::lock_guard lock(liveMutex_);
    live_ = std::move(live);
  }
  void onStageFinished(const std::string& mechanism, const pipeline::StagePtr& stage) override {
    {
      const std::lock_guard lock(liveMutex_);
      live_.reset();
    }
    emit worker_.stageFinished({runId_, QString::fromStdString(mechanism),
                                QString::fromStdString(stage->name), stage->fromCache, stage});
  }

 private:
  std::shared_ptr<LiveLipschitz> liveFor(const std::string& stage) {
    const std::lock_guard lock(liveMutex_);
    return live_ && live_->stage == stage ? live_ : nullptr;
  }

  /// Rate limit without a timer: the chain thread that first finds the interval elapsed wins
  /// the compare-exchange and sends the snapshot; the others go on sampling.
  void maybeEmitLipschitz(LiveLipschitz& live) {
    using namespace std::chrono;
    const long long now =
        duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
    long long last = live.lastEmitMs.load();
    if (last >= 0 && now - last < PipelineWorker::kLipschitzIntervalMs) return;
    if (!live.lastEmitMs.compare_exchange_strong(last, now)) return;
    // Draws first: the bound read afterwards covers at least that many draws.
    const std::size_t draws = live.bound.draws();
    const Eigen::VectorXd perRecord = live.bound.perRecord();
    const double max = perRecord.size() > 0 ? perRecord.maxCoeff() : 0.0;
    auto values = std::make_shared<const std::vector<double>>(perRecord.data(),
                                                              perRecord.data() + perRecord.size());
    emit worker_.lipschitzUpdated({runId_, live.mechanism, QString::fromStdString(live.stage),
                                   std::move(values), max, draws});
  }

  PipelineWorker& worker_;
  quint64 runId_;
  const core::models::Model& model_;
  std::mutex liveMutex_;
  std::shared_ptr<LiveLipschitz> live_;  ///< of the stage sampling now, if any
};

}  // namespace

void registerRunTypes() {
  qRegisterMetaType<StageEvent>();
  qRegisterMetaType<ChainProgress>();
  qRegisterMetaType<DrawBatch>();
  qRegisterMetaType<LipschitzSnapshot>();
  qRegisterMetaType<RunStart>();
  qRegisterMetaType<RunOutput>();
}

PipelineWorker::PipelineWorker(QObject* parent) : QObject(parent) { registerRunTypes(); }

void PipelineWorker::start(RunRequest request) {
  const std::stop_token token = stopper_.next();
  // The token travels with the queued call, so a later start() or cancel() cannot mix up
  // which run it refers to.
  QMetaObject::invokeMethod(
      this, [this, request = std::move(request), token] { run(request, token); },
      Qt::QueuedConnection);
}

void PipelineWorker::cancel() { stopper_.cancel(); }

void PipelineWorker::run(const RunRequest& request, std::stop_token stop) {
  if (stop.stop_requested()) {
    emit cancelled(request.runId);
    return;
  }
  try {
    QElapsedTimer clock;
    clock.start();
    const auto& dataset = *request.dataset;
    const auto model = core::models::makeModel(dataset, request.settings.model);
    RunStart start{request.runId, {}, request.settings.nuts.chains};
    for (const auto& name :
         core::models::parameterLabels(model->parameterNames(), request.dataset->designNames))
      start.parameterNames << QString::fromStdString(name);
    emit runStarted(start);

    const std::size_t hits = request.cache->hits();
    const std::size_t misses = request.cache->misses();
    SignalObserver observer(*this, request.runId, *model);
    auto result = std::make_shared<pipeline::RunResult>(pipeline::runMechanisms(
        dataset, request.configs, request.settings, request.cache.get(), stop, &observer));
    if (result->outcome == pipeline::RunOutcome::cancelled || stop.stop_requested()) {
      emit cancelled(request.runId);
      return;
    }
    RunOutput output;
    output.runId = request.runId;
    output.finishedAt = QTime::currentTime();
    output.dataset = request.dataset;
    output.settings = request.settings;
    output.studio = request.studio;
    output.source = request.source;
    output.cacheHits = request.cache->hits() - hits;
    output.cacheMisses = request.cache->misses() - misses;
    for (const auto& m : result->mechanisms) {
      for (const auto& s : m.stages) {
        const QString label = QString::fromStdString(s->name);
        if (s->fromCache && !output.cachedStages.contains(label)) output.cachedStages << label;
      }
    }
    if (!summarizeRun(dataset, request.settings, *result, output, stop)) {
      emit cancelled(request.runId);
      return;
    }
    output.result = std::move(result);
    output.seconds = clock.elapsed() / 1000.0;
    emit finished(output);
  } catch (const core::data::DataError& e) {
    emit failed(request.runId, errorReportFrom(e, {}).oneLine());
  } catch (const std::exception& e) {
    emit failed(request.runId, QString::fromUtf8(e.what()));
  } catch (...) {
    emit failed(request.runId, tr("unexpected internal error"));
  }
}

}  // namespace dpsynth::ui
