#include "ui/workspaces/inference/analyze_workspace.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTabWidget>
#include <QThread>
#include <QVBoxLayout>
#include <cmath>
#include <initializer_list>

#include "core/data/csv_writer.h"
#include "core/infer/da_convergence.h"
#include "core/infer/infer_outputs.h"
#include "core/report/infer_folder.h"
#include "ui/controllers/files_read.h"
#include "ui/document/studio_document.h"
#include "ui/plots/trace_plot.h"
#include "ui/workspaces/inference/acceptance_plot.h"
#include "ui/workspaces/inference/inference_summary_table.h"
#include "ui/workspaces/inference/make_release_dialog.h"
#include "ui/workspaces/inference/record_acceptance_plot.h"
#include "ui/workspaces/inference/release_density_plot.h"
#include "ui/workspaces/inference/release_from_data.h"
#include "ui/workspaces/inference/sampler_settings_box.h"

namespace dpsynth::ui {

AnalyzeWorkspace::AnalyzeWorkspace(StudioDocument* document, const StudioServices&, QWidget* parent)
    : QWidget(parent) {
  registerInferenceTypes();
  document_ = document;
  // Left: the release and the sampler.
  auto* left = new QWidget(this);
  left->setMaximumWidth(340);
  auto* leftLayout = new QVBoxLayout(left);
  auto* releaseBox = new QGroupBox(tr("Release"), left);
  auto* releaseLayout = new QVBoxLayout(releaseBox);
  open_ = new QPushButton(tr("Open release…"), releaseBox);
  make_ = new QPushButton(tr("Make a release from the loaded data…"), releaseBox);
  make_->setToolTip(tr("A real release: it spends ε of the data's privacy budget"));
  header_ = new QLabel(tr("No release open."), releaseBox);
  header_->setObjectName(QStringLiteral("releaseHeader"));
  header_->setWordWrap(true);
  header_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  releaseLayout->addWidget(open_);
  releaseLayout->addWidget(make_);
  releaseLayout->addWidget(header_);
  leftLayout->addWidget(releaseBox);
  settings_ = new SamplerSettingsBox(left);
  leftLayout->addWidget(settings_);
  auto* buttons = new QHBoxLayout;
  run_ = new QPushButton(tr("Run"), left);
  cancel_ = new QPushButton(tr("Cancel"), left);
  buttons->addWidget(run_);
  buttons->addWidget(cancel_);
  leftLayout->addLayout(buttons);
  progress_ = new QProgressBar(left);
  progress_->setRange(0, 1000);
  progress_->setValue(0);
  leftLayout->addWidget(progress_);
  status_ = new QLabel(left);
  status_->setObjectName(QStringLiteral("inferenceStatus"));
  status_->setWordWrap(true);
  leftLayout->addWidget(status_);
  export_ = new QPushButton(tr("Export draws, summary, trace…"), left);
  export_->setToolTip(tr("draws.csv, summary.json and trace.csv, as `dpsynth infer` writes them"));
  leftLayout->addWidget(export_);
  leftLayout->addStretch(1);

  // Right: the parameter chooser over the views.
  auto* right = new QWidget(this);
  auto* rightLayout = new QVBoxLayout(right);
  rightLayout->setContentsMargins(0, 0, 0, 0);
  auto* chooserRow = new QHBoxLayout;
  chooserRow->addWidget(new QLabel(tr("Parameter:"), right));
  parameter_ = new QComboBox(right);
  parameter_->setObjectName(QStringLiteral("inferenceParameter"));
  parameter_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  chooserRow->addWidget(parameter_);
  chooserRow->addStretch(1);
  rightLayout->addLayout(chooserRow);
  trace_ = new TracePlot(right);
  // The workspace's chooser drives the trace; its own selectors (and their labels) would repeat it.
  trace_->parameterSelector()->hide();
  trace_->mechanismSelector()->hide();
  for (QLabel* label : trace_->findChildren<QLabel*>()) {
    if (label->text() == TracePlot::tr("Mechanism:") ||
        label->text() == TracePlot::tr("Parameter:"))
      label->hide();
  }
  density_ = new ReleaseDensityPlot(right);
  acceptance_ = new AcceptancePlot(right);
  records_ = new RecordAcceptancePlot(right);
  summary_ = new InferenceSummaryTable(right);
  // Two rows of plots share the height: a smaller minimum than a lone plot's keeps the window
  // fitting 1280×720 at 1.5x scale.
  for (PlotWidget* plot :
       std::initializer_list<PlotWidget*>{trace_, density_, acceptance_, records_}) {
    plot->customPlot()->setMinimumSize(200, 90);
    // Run is off until a release is open: the empty plots say what comes first.
    plot->setEmptyText(tr("Open a release, then Run."));
  }
  auto* top = new QSplitter(Qt::Horizontal, right);
  top->addWidget(trace_);
  top->addWidget(density_);
  auto* bottom = new QTabWidget(right);
  bottom->addTab(acceptance_, tr("Acceptance per sweep"));
  bottom->addTab(records_, tr("Per-record acceptance"));
  bottom->addTab(summary_, tr("Summary"));
  auto* vertical = new QSplitter(Qt::Vertical, right);
  vertical->addWidget(top);
  vertical->addWidget(bottom);
  vertical->setStretchFactor(0, 1);  // the rows share the height, not by their size hints
  vertical->setStretchFactor(1, 1);
  vertical->setSizes({1000, 1000});
  rightLayout->addWidget(vertical, 1);

  // The left column scrolls, so the window keeps fitting small screens at 1.5x scale.
  auto* leftScroll = new QScrollArea(this);
  leftScroll->setWidgetResizable(true);
  leftScroll->setFrameShape(QFrame::NoFrame);
  leftScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  leftScroll->setWidget(left);
  leftScroll->setMinimumWidth(left->sizeHint().width() + 12);
  leftScroll->setMaximumWidth(352);
  auto* layout = new QHBoxLayout(this);
  layout->addWidget(leftScroll);
  layout->addWidget(right, 1);

  // The worker lives in its own thread for the workspace's lifetime.
  thread_ = new QThread(this);
  thread_->setObjectName(QStringLiteral("dpsynth inference"));
  worker_ = new InferenceRunner;  // no parent: it moves to the thread
  worker_->moveToThread(thread_);
  connect(thread_, &QThread::finished, worker_, &QObject::deleteLater);
  thread_->start();
  connect(worker_, &InferenceRunner::batch, this, [this](const InferenceBatch& b) {
    if (b.runId == runId_ && running_) pending_.push_back(b);
  });
  connect(worker_, &InferenceRunner::progress, this, [this](const InferenceProgress& p) {
    if (p.runId != runId_ || !running_) return;
    if (p.chain >= 0 && p.chain < static_cast<int>(chainDone_.size())) {
      chainDone_[static_cast<size_t>(p.chain)] = p.done;
    }
  });
  connect(worker_, &InferenceRunner::finished, this, [this](const InferenceOutput& out) {
    if (out.runId == runId_) onFinished(out);
  });
  connect(worker_, &InferenceRunner::cancelled, this, [this](quint64 id) {
    if (id == runId_) endRun(false, tr("Cancelled; the views show the draws up to then."));
  });
  connect(worker_, &InferenceRunner::failed, this, [this](quint64 id, const QString& message) {
    if (id != runId_) return;
    endRun(false, tr("Failed: %1").arg(message));
    showError(tr("Analysis failed"), message);
  });
  redraw_.setInterval(kRedrawIntervalMs);
  connect(&redraw_, &QTimer::timeout, this, &AnalyzeWorkspace::mergePending);

  connect(open_, &QPushButton::clicked, this, &AnalyzeWorkspace::openWithDialog);
  connect(make_, &QPushButton::clicked, this, &AnalyzeWorkspace::makeWithDialog);
  connect(run_, &QPushButton::clicked, this, [this] { startRun(); });
  connect(cancel_, &QPushButton::clicked, this, &AnalyzeWorkspace::cancelRun);
  connect(export_, &QPushButton::clicked, this, &AnalyzeWorkspace::exportWithDialog);
  connect(parameter_, &QComboBox::currentIndexChanged, this, [this](int index) {
    trace_->setCurrentParameter(index);
    density_->setCurrentParameter(index);
  });
  updateButtons();
  if (document_) {
    connect(document_, &StudioDocument::changed, this, [this](StudioDocument::Parts parts) {
      if (parts & StudioDocument::kData) setLoadedData(document_->table());
    });
    if (document_->hasData()) setLoadedData(document_->table());
  }
}

AnalyzeWorkspace::~AnalyzeWorkspace() {
  worker_->cancel();
  thread_->quit();
  thread_->wait();
}

void AnalyzeWorkspace::setLoadedData(std::shared_ptr<const core::data::CsvTable> data) {
  data_ = std::move(data);
  updateReferences();
  updateButtons();
}

void AnalyzeWorkspace::showError(const QString& title, const QString& message) {
  status_->setText(message);
  if (errors_) {
    errors_(title, message);
  } else {
    QMessageBox::warning(this, title, message);
  }
}

bool AnalyzeWorkspace::openRelease(const QString& path) {
  if (running_) cancelRun();
  try {
    release_ = openAnalysisRelease(path);
  } catch (const std::exception& e) {
    showError(tr("Cannot open the release"), QString::fromStdString(e.what()));
    return false;
  }
  showRelease();
  return true;
}

bool AnalyzeWorkspace::makeRelease(const std::string& classColumn,
                                   const std::vector<std::string>& features,
                                   const std::map<std::string, std::vector<std::string>>& levels,
                                   double epsilon, const QString& savePath) {
  if (!data_) {
    showError(tr("Cannot make a release"), tr("Load data in the Synthesis workspace first."));
    return false;
  }
  if (QString input;
      !inputAmong({savePath}, {QString::fromStdString(data_->file)}, &input).isEmpty()) {
    showError(tr("Cannot make a release"), isAnInputProblem(savePath, input));
    return false;
  }
  try {
    const auto bits = core::privacy::makeOsRandomSource();
    const core::infer::NaiveBayesRelease made =
        releaseFromTable(*data_, classColumn, features, levels, epsilon, *bits, false);
    core::data::writeTextAtomic(savePath.toStdString(), core::infer::releaseToJson(made));
    if (running_) cancelRun();
    release_ = analysisRelease(made, savePath);
  } catch (const std::exception& e) {
    showError(tr("Cannot make a release"), QString::fromStdString(e.what()));
    return false;
  }
  showRelease();
  status_->setText(
      tr("Released with ε = %1 and saved to %2.").arg(epsilon).arg(QFileInfo(savePath).fileName()));
  return true;
}

void AnalyzeWorkspace::openWithDialog() {
  const QString path = QFileDialog::getOpenFileName(this, tr("Open release"), {},
                                                    tr("Release files (*.json);;All files (*)"));
  if (!path.isEmpty()) openRelease(path);
}

void AnalyzeWorkspace::makeWithDialog() {
  if (!data_) return;
  std::vector<CategoricalColumn> columns = categoricalColumns(*data_);
  const QString dataName = QFileInfo(QString::fromStdString(data_->file)).fileName();
  if (columns.size() < 2) {
    showError(tr("Cannot make a release"),
              tr("%1 has fewer than two categorical columns (2–%2 distinct values): a naive-Bayes "
                 "release needs a class and at least one feature.")
                  .arg(dataName)
                  .arg(kMaxLevels));
    return;
  }
  MakeReleaseDialog dialog(std::move(columns), dataName, this);
  if (dialog.exec() != QDialog::Accepted) return;
  const QString suggested =
      QFileInfo(dataName).completeBaseName() + QStringLiteral("-release.json");
  const QString path = releasePath_
                           ? releasePath_(suggested)
                           : QFileDialog::getSaveFileName(this, tr("Save release"), suggested,
                                                          tr("Release files (*.json)"));
  if (path.isEmpty()) {
    status_->setText(tr("No release made: no file chosen, nothing was spent."));
    return;
  }
  DeclaredLevels levels;
  try {
    levels = dialog.declaredLevels();
  } catch (const std::exception& e) {
    showError(tr("Cannot make a release"), QString::fromStdString(e.what()));
    return;
  }
  makeRelease(dialog.classColumn(), dialog.features(), levels, dialog.epsilon(), path);
}

void AnalyzeWorkspace::showRelease() {
  const AnalysisRelease& r = *release_;
  QStringList lines;
  lines << tr("<b>%1</b>").arg(QFileInfo(r.file).fileName().toHtmlEscaped());
  lines << tr("Kind: %1").arg(r.kind) << tr("Mechanism: %1").arg(r.mechanism.toHtmlEscaped())
        << tr("ε = %1, neighbours: %2").arg(r.epsilon).arg(r.neighbours)
        << tr("n = %1 records").arg(r.n);
  for (const QString& l : r.layout) lines << l.toHtmlEscaped();
  if (r.notForRelease) lines << tr("<i>made with a seed: not for release</i>");
  header_->setText(lines.join(QStringLiteral("<br>")));
  QStringList names;
  for (const auto& n : r.model->parameterNames()) names << QString::fromStdString(n);
  {
    const QSignalBlocker block(parameter_);
    parameter_->clear();
    parameter_->addItems(names);
  }
  output_.reset();
  trace_->clearTraces(names, 0);
  acceptance_->reset(0, r.acceptanceBound, 0);
  records_->clear();
  summary_->clear();
  progress_->setValue(0);
  density_->setDraws(names, {});
  // The release is open: what comes first now is Run.
  for (PlotWidget* plot :
       std::initializer_list<PlotWidget*>{trace_, density_, acceptance_, records_})
    plot->setEmptyText(tr("%1 is open: press Run.").arg(QFileInfo(r.file).fileName()));
  updateReferences();
  updateButtons();
  emit releaseChanged();
}

void AnalyzeWorkspace::updateReferences() {
  if (!release_) return;
  ParameterDensity confidential;
  QString source;
  if (data_ && release_->confidential) confidential = release_->confidential(*data_, &source);
  density_->setReferences(release_->prior, confidential, source, release_->lower, release_->upper);
}

bool AnalyzeWorkspace::startRun() {
  if (!release_) {
    showError(tr("Cannot run"), tr("Open or make a release first."));
    return false;
  }
  const QString problem = settings_->problem();
  if (!problem.isEmpty()) {
    showError(tr("Cannot run"), problem);
    return false;
  }
  InferenceRequest request;
  request.runId = ++runId_;
  request.model = release_->model;
  request.config = settings_->config();
  request.batchEvery = std::max(1, request.config.iterations / 100);
  outputConfig_ = request.config;
  outputSeed_ = settings_->seed();
  output_.reset();
  pending_.clear();
  mergedBatches_ = 0;
  chainTotal_ = request.config.iterations;
  chainDone_.assign(static_cast<size_t>(request.config.chains), 0);
  const int chains = request.config.chains;
  QStringList names;
  for (int i = 0; i < parameter_->count(); ++i) names << parameter_->itemText(i);
  trace_->clearTraces(names, chains);
  trace_->setLiveSource(tr("release"), {});
  trace_->setCurrentParameter(parameter_->currentIndex());
  acceptance_->reset(chains, release_->acceptanceBound, request.config.warmup);
  records_->clear();
  summary_->clear();
  density_->setDraws(trace_->parameterNames(), {});
  running_ = true;
  clock_.start();
  progress_->setValue(0);
  status_->setText(tr("Sampling…"));
  redraw_.start();
  updateButtons();
  worker_->start(std::move(request));
  return true;
}

void AnalyzeWorkspace::cancelRun() {
  if (running_) worker_->cancel();
}

void AnalyzeWorkspace::mergePending() {
  for (const InferenceBatch& b : pending_) {
    const core::infer::DaBatch& d = *b.batch;
    const Eigen::Index rows = d.draws.rows(), cols = d.draws.cols();
    if (rows > 0) {
      std::vector<double> drawMajor(static_cast<size_t>(rows * cols));
      for (Eigen::Index r = 0; r < rows; ++r) {
        for (Eigen::Index c = 0; c < cols; ++c)
          drawMajor[static_cast<size_t>(r * cols + c)] = d.draws(r, c);
      }
      trace_->appendDraws(d.chain, d.firstDraw, drawMajor);
    }
    acceptance_->appendSweeps(
        d.chain, d.firstSweep,
        std::vector<double>(d.sweepProbability.begin(), d.sweepProbability.end()));
    ++mergedBatches_;
  }
  if (!pending_.empty()) acceptance_->refresh();
  pending_.clear();
  if (!running_ || chainTotal_ <= 0 || chainDone_.empty()) return;
  long long done = 0;
  for (int d : chainDone_) done += d;
  const long long total =
      static_cast<long long>(chainTotal_) * static_cast<long long>(chainDone_.size());
  progress_->setValue(static_cast<int>(1000 * done / std::max(1LL, total)));
  if (done > 0) {
    const double left = clock_.elapsed() / 1000.0 * static_cast<double>(total - done) / done;
    status_->setText(
        tr("Sampling: %1 of %2 sweeps, about %3 s left").arg(done).arg(total).arg(std::ceil(left)));
  }
}

void AnalyzeWorkspace::onFinished(const InferenceOutput& out) {
  mergePending();  // every batch of the run was queued before finished
  output_ = out;
  const core::infer::DaResult& result = *out.result;
  // The final traces come from the result itself: exactly the draws the summary describes.
  MechanismTraces traces;
  traces.mechanism = tr("release");
  traces.parameterNames = trace_->parameterNames();
  std::vector<std::vector<double>> pooled(static_cast<size_t>(traces.parameterNames.size()));
  for (const auto& chain : result.chains) {
    std::vector<double> drawMajor;
    drawMajor.reserve(static_cast<size_t>(chain.draws.size()));
    for (Eigen::Index r = 0; r < chain.draws.rows(); ++r) {
      for (Eigen::Index c = 0; c < chain.draws.cols(); ++c) {
        drawMajor.push_back(chain.draws(r, c));
        pooled[static_cast<size_t>(c)].push_back(chain.draws(r, c));
      }
    }
    traces.chains.push_back(std::move(drawMajor));
  }
  const int parameter = parameter_->currentIndex();
  trace_->setMechanismTraces({traces});
  trace_->setCurrentParameter(parameter);
  density_->setDraws(traces.parameterNames, std::move(pooled));
  density_->setCurrentParameter(parameter);
  Eigen::VectorXd perRecord = Eigen::VectorXd::Zero(release_->model->recordCount());
  for (const auto& chain : result.chains) perRecord += chain.recordAcceptance;
  if (!result.chains.empty()) perRecord /= static_cast<double>(result.chains.size());
  const double bound = release_->acceptanceBound;
  records_->setRecords(std::vector<double>(perRecord.begin(), perRecord.end()), bound);
  summary_->setSummary(out.summary, result.meanAcceptance(), result.minAcceptance(), bound);
  progress_->setValue(progress_->maximum());
  convergenceProblems_ =
      core::infer::daConvergenceProblems(out.summary, static_cast<int>(result.chains.size()));
  const std::string acceptance = core::infer::daAcceptanceProblem(result.minAcceptance(), bound);
  QString status = tr("Done: %1 proposals in %2 s; mean acceptance %3, minimum %4 (e^−ε = %5).")
                       .arg(result.proposals())
                       .arg(result.seconds, 0, 'f', 2)
                       .arg(result.meanAcceptance(), 0, 'f', 3)
                       .arg(result.minAcceptance(), 0, 'f', 3)
                       .arg(bound, 0, 'f', 3);
  if (!convergenceProblems_.empty()) {
    QStringList problems;
    for (const auto& p : convergenceProblems_) problems << QString::fromStdString(p);
    status += tr("\nThe chains have NOT converged (%1): these summaries are not reliable. Run "
                 "again with more warm-up and sweeps.")
                  .arg(problems.join(QStringLiteral("; ")));
  }
  if (!acceptance.empty()) {
    status += tr("\nThe %1.").arg(QString::fromStdString(acceptance));
    convergenceProblems_.push_back(acceptance);  // the export's summary.json: not converged
  }
  endRun(true, status);
}

void AnalyzeWorkspace::endRun(bool ok, const QString& status) {
  if (!ok) mergePending();
  running_ = false;
  redraw_.stop();
  status_->setText(status);
  updateButtons();
  emit runEnded(ok);
}

QString AnalyzeWorkspace::convergenceNote() const {
  if (convergenceProblems_.empty()) return {};
  QStringList problems;
  for (const auto& p : convergenceProblems_) problems << QString::fromStdString(p);
  return tr("\nThe chains have NOT converged (%1): these summaries are not reliable.")
      .arg(problems.join(QStringLiteral("; ")));
}

QString AnalyzeWorkspace::exportInputProblem(const QString& folder) const {
  QStringList inputs = filesTheStudioReads();
  if (release_) inputs << release_->file;
  QString input;
  const QString output =
      inputAmong(pathsIn(folder, core::report::inferFileNames()), inputs, &input);
  return output.isEmpty() ? QString() : isAnInputProblem(output, input);
}

bool AnalyzeWorkspace::exportRun(const QString& folder, bool replaceForeign) {
  if (!output_ || !release_) {
    showError(tr("Nothing to export"), tr("Run the sampler first."));
    return false;
  }
  if (const QString problem = exportInputProblem(folder); !problem.isEmpty()) {
    showError(tr("Export failed"), problem);
    return false;
  }
  core::infer::InferRunInfo info;
  info.release = release_->file.toStdString();
  info.kind = release_->kind.toStdString();
  info.epsilon = release_->epsilon;
  info.acceptanceBound = release_->acceptanceBound;
  info.iterations = outputConfig_.iterations;
  info.warmup = outputConfig_.warmup;
  info.chains = outputConfig_.chains;
  info.seed = outputSeed_;
  info.convergenceProblems = convergenceProblems_;
  try {
    core::report::writeInferFolder(
        folder.toStdString(), core::infer::inferOutputs(*release_->model, *output_->result, info),
        !replaceForeign);
  } catch (const std::exception& e) {
    showError(tr("Export failed"), QString::fromStdString(e.what()));
    return false;
  }
  // The run's warning stays in sight: the status line was its only place.
  status_->setText(tr("Wrote draws.csv, summary.json and trace.csv to %1.").arg(folder) +
                   convergenceNote());
  return true;
}

void AnalyzeWorkspace::exportWithDialog() {
  const QString folder =
      exportFolder_ ? exportFolder_({})
                    : QFileDialog::getExistingDirectory(this, tr("Export the analysis into"));
  if (folder.isEmpty()) return;
  // The three names are ones a user's own files have too: an earlier export's are replaced as
  // they are (the folder's manifest lists them), anything else only when the analyst says so.
  // A file the studio reads is refused outright, not asked about.
  if (const QString problem = exportInputProblem(folder); !problem.isEmpty()) {
    showError(tr("Export failed"), problem);
    return;
  }
  QStringList foreign;
  if (!mayReplaceForeignFiles(this, askReplace_, folder, core::report::inferFileNames(),
                              tr("Replace with this analysis?"), foreign)) {
    status_->setText(tr("Export cancelled: nothing was written to %1.").arg(folder) +
                     convergenceNote());
    return;
  }
  exportRun(folder, !foreign.isEmpty());
}

void AnalyzeWorkspace::updateButtons() {
  run_->setEnabled(release_.has_value() && !running_);
  cancel_->setEnabled(running_);
  open_->setEnabled(!running_);
  make_->setEnabled(data_ != nullptr && !running_);
  export_->setEnabled(output_.has_value() && !running_);
}

}  // namespace dpsynth::ui
