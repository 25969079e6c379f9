#include "ui/services/run_controller.h"

#include <QThread>

#include "ui/workers/pipeline_worker.h"

namespace dpsynth::ui {

RunController::RunController(QObject* parent)
    : QObject(parent), cache_(std::make_shared<core::pipeline::StageCache>()) {
  thread_ = new QThread(this);
  thread_->setObjectName(QStringLiteral("dpsynth pipeline"));
  worker_ = new PipelineWorker;  // no parent: it moves to the thread
  worker_->moveToThread(thread_);
  connect(thread_, &QThread::finished, worker_, &QObject::deleteLater);
  thread_->start();

  mergeTimer_.setInterval(kMergeIntervalMs);
  connect(&mergeTimer_, &QTimer::timeout, this, [this] { flush(); });
  autoRunTimer_.setSingleShot(true);
  autoRunTimer_.setInterval(kAutoRunDelayMs);
  connect(&autoRunTimer_, &QTimer::timeout, this, [this] { emit autoRunDue(); });

  connect(worker_, &PipelineWorker::runStarted, this, [this](const RunStart& s) {
    if (!isCurrent(s.runId)) return;
    chains_ = s.chains;
    emit runStarted(s);
  });
  connect(worker_, &PipelineWorker::stageStarted, this, [this](const StageEvent& e) {
    if (!isCurrent(e.runId)) return;
    flush();
    if (!e.fromCache) {
      // Every chain from the start: with more chains than threads the later ones report only
      // when they start, and the bar went back (87% of two chains, then 73% of four).
      progress_ = StageProgress{e.stage, {}, 0};
      for (int c = 0; c < chains_; ++c) progress_.chains.push_back({c, 0, 0, true, 0});
      stageClock_.start();
    }
    emit stageStarted(e);
  });
  connect(worker_, &PipelineWorker::stageFinished, this, [this](const StageEvent& e) {
    if (!isCurrent(e.runId)) return;
    flush();
    emit stageFinished(e);
  });
  connect(worker_, &PipelineWorker::progress, this, [this](const ChainProgress& p) {
    if (!isCurrent(p.runId) || p.stage != progress_.stage) return;
    const auto chain = static_cast<std::size_t>(p.progress.chain);
    if (progress_.chains.size() <= chain) progress_.chains.resize(chain + 1);
    progress_.chains[chain] = p.progress;
    progressDirty_ = true;
  });
  connect(worker_, &PipelineWorker::draws, this, [this](const DrawBatch& b) {
    if (isCurrent(b.runId)) pendingDraws_.push_back(b);
  });
  connect(worker_, &PipelineWorker::lipschitzUpdated, this, [this](const LipschitzSnapshot& l) {
    if (isCurrent(l.runId)) emit lipschitzUpdated(l);
  });
  connect(worker_, &PipelineWorker::finished, this, [this](const RunOutput& out) {
    if (!isCurrent(out.runId)) return;
    flush();
    setRunning(false);
    emit finished(out);
  });
  connect(worker_, &PipelineWorker::cancelled, this, [this](quint64 id) {
    if (!isCurrent(id)) return;
    setRunning(false);
    emit cancelled();
  });
  connect(worker_, &PipelineWorker::failed, this, [this](quint64 id, const QString& message) {
    if (!isCurrent(id)) return;
    setRunning(false);
    emit failed(message);
  });
}

RunController::~RunController() {
  worker_->cancel();
  thread_->quit();
  thread_->wait();
}

quint64 RunController::start(std::shared_ptr<const core::data::Dataset> dataset,
                             const StudioSettings& settings, const DataSource& source) {
  autoRunTimer_.stop();
  RunRequest request;
  request.runId = ++runId_;
  request.dataset = std::move(dataset);
  request.configs = settings.mechanismConfigs();
  request.settings = settings.runSettings();
  request.cache = cache_;
  request.studio = settings;
  request.source = source;
  progress_ = {};
  progressDirty_ = false;
  pendingDraws_.clear();
  setRunning(true);
  worker_->start(std::move(request));
  return runId_;
}

void RunController::cancel() {
  autoRunTimer_.stop();
  if (running_) worker_->cancel();
}

void RunController::resetCache() { cache_ = std::make_shared<core::pipeline::StageCache>(); }

void RunController::setAutoRun(bool on) {
  autoRun_ = on;
  if (!on) autoRunTimer_.stop();
}

void RunController::settingsChanged() {
  if (autoRun_) autoRunTimer_.start();  // restarts: one run after the last of a burst
}

void RunController::setRunning(bool running) {
  if (running_ == running) return;
  running_ = running;
  if (running) {
    mergeTimer_.start();
  } else {
    mergeTimer_.stop();
    progressDirty_ = false;
    pendingDraws_.clear();
  }
  emit busyChanged(running);
}

void RunController::flush() {
  if (progressDirty_) {
    progress_.elapsedSeconds = stageClock_.isValid() ? stageClock_.elapsed() / 1000.0 : 0.0;
    progressDirty_ = false;
    emit progressMerged(progress_);
  }
  if (!pendingDraws_.empty()) {
    std::vector<DrawBatch> batches;
    batches.swap(pendingDraws_);
    emit drawsMerged(batches);
  }
}

}  // namespace dpsynth::ui
