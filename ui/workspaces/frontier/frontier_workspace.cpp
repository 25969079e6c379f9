#include "ui/workspaces/frontier/frontier_workspace.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QVBoxLayout>
#include <algorithm>
#include <array>
#include <exception>
#include <map>

#include "core/study/study_store.h"
#include "ui/document/studio_document.h"
#include "ui/services/frontier_runner.h"
#include "ui/workspaces/frontier/frontier_plot.h"

namespace dpsynth::ui {
namespace {

namespace study = core::study;
namespace pipeline = core::pipeline;

/// Replicates landing faster than this are drawn together.
constexpr int kRedrawMs = 250;

QString frontierDuration(double seconds) {
  const int s = static_cast<int>(seconds + 0.5);
  return s >= 60 ? QStringLiteral("%1 min %2 s").arg(s / 60).arg(s % 60)
                 : QStringLiteral("%1 s").arg(s);
}

}  // namespace

FrontierWorkspace::FrontierWorkspace(StudioDocument* document, const StudioServices& services,
                                     QWidget* parent)
    : QWidget(parent), document_(document), services_(services) {
  setObjectName(QStringLiteral("frontierWorkspace"));
  auto* layout = new QVBoxLayout(this);
  banner_ = new QLabel(this);
  banner_->setObjectName(QStringLiteral("frontierBanner"));
  banner_->setWordWrap(true);
  layout->addWidget(banner_);

  auto* splitter = new QSplitter(Qt::Horizontal, this);
  auto* left = new QWidget(splitter);
  auto* leftLayout = new QVBoxLayout(left);
  leftLayout->setContentsMargins(0, 0, 0, 0);
  form_ = new FrontierForm(left);
  auto* scroll = new QScrollArea(left);
  scroll->setWidget(form_);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  leftLayout->addWidget(scroll, 1);
  auto* buttons = new QHBoxLayout;
  run_ = new QPushButton(tr("Run frontier"), left);
  run_->setObjectName(QStringLiteral("frontierRunButton"));
  cancel_ = new QPushButton(tr("Cancel"), left);
  cancel_->setObjectName(QStringLiteral("frontierCancelButton"));
  cancel_->setEnabled(false);
  open_ = new QPushButton(tr("Open study…"), left);
  open_->setToolTip(tr("Show the rows of a study folder (dpsynth study --out DIR)."));
  buttons->addWidget(run_);
  buttons->addWidget(cancel_);
  buttons->addWidget(open_);
  leftLayout->addLayout(buttons);
  progress_ = new QProgressBar(left);
  progress_->setRange(0, 1);
  progress_->setValue(0);
  leftLayout->addWidget(progress_);
  status_ = new QLabel(left);
  status_->setObjectName(QStringLiteral("frontierStatus"));
  status_->setWordWrap(true);
  leftLayout->addWidget(status_);
  left->setMinimumWidth(280);
  plot_ = new FrontierPlot(splitter);
  splitter->addWidget(left);
  splitter->addWidget(plot_);
  splitter->setStretchFactor(1, 1);
  splitter->setSizes({320, 900});
  layout->addWidget(splitter, 1);

  worker_ = new FrontierRunner(this);
  connect(run_, &QPushButton::clicked, this, [this] { start(); });
  connect(cancel_, &QPushButton::clicked, this, &FrontierWorkspace::cancel);
  connect(open_, &QPushButton::clicked, this, [this] {
    const QString folder = QFileDialog::getExistingDirectory(this, tr("Open study folder"));
    if (!folder.isEmpty()) openStudyFolder(folder);
  });
  connect(form_, &FrontierForm::measureChanged, this, [this] { refreshPoints(); });
  connect(form_, &FrontierForm::xAxisChanged, this, [this] { refreshPoints(); });
  connect(form_, &FrontierForm::sourceChanged, this, &FrontierWorkspace::showBanner);
  connect(form_->generatorEdit(), &QLineEdit::textChanged, this, &FrontierWorkspace::showBanner);
  connect(plot_, &FrontierPlot::pointClicked, this, &FrontierWorkspace::loadPoint);
  redraw_.setInterval(kRedrawMs);
  connect(&redraw_, &QTimer::timeout, this, [this] {
    if (rowsChanged_) refreshPoints();
  });
  connect(worker_, &FrontierRunner::replicateDone, this,
          [this](quint64 id, const study::ReplicateRows& r) {
            if (id != studyId_) return;
            for (auto& row : study::studyRowsFromCsv(r.rows)) rows_.push_back(std::move(row));
            rowsChanged_ = true;
          });
  connect(worker_, &FrontierRunner::progress, this,
          [this](quint64 id, int done, int total, double elapsed) {
            if (id == studyId_) onProgress(done, total, elapsed);
          });
  connect(worker_, &FrontierRunner::finished, this, [this](quint64 id, bool completed) {
    if (id != studyId_) return;
    setRunning(false);
    refreshPoints();
    setStatus(
        completed
            ? tr("Done: %1 replicates of %2.").arg(form_->replicatesBox()->value()).arg(dataName_)
            : tr("Cancelled: the replicates that finished are shown."));
    emit studyEnded(completed);
  });
  connect(worker_, &FrontierRunner::failed, this, [this](quint64 id, const QString& message) {
    if (id != studyId_) return;
    setRunning(false);
    refreshPoints();
    setStatus(tr("The study stopped: %1").arg(message));
    emit studyEnded(false);
  });
  takeSynthesisDefaults();
  // The family and columns decide the generator's default and whether the reference fits; the
  // sampler and tuning are the form's defaults.
  connect(document_, &StudioDocument::changed, this, [this](StudioDocument::Parts parts) {
    if (parts & (StudioDocument::kSampler | StudioDocument::kTuning)) takeSynthesisDefaults();
    if (parts & (StudioDocument::kData | StudioDocument::kChoice | StudioDocument::kReference)) {
      refreshSource();
      showBanner();
    }
  });
  showBanner();
  setStatus(tr("Choose the source, mechanisms and an ε grid, then Run frontier."));
}

FrontierWorkspace::~FrontierWorkspace() { worker_->cancel(); }

void FrontierWorkspace::takeSynthesisDefaults() {
  // The form follows the synthesis sampler when that changes, and keeps its own edits
  // otherwise (a change of ε in Synthesis does not undo them).
  const auto& nuts = document_->settings().run.nuts;
  const std::array<int, 3> now{nuts.chains, nuts.warmup, nuts.draws};
  if (now != synthesisSampler_) {
    synthesisSampler_ = now;
    form_->setSampler(nuts);
  }
  form_->setTuning(document_->settings().tuning);
  refreshSource();
}

void FrontierWorkspace::refreshSource() {
  form_->setFamily(document_->settings().dataset.family);
  std::string problem;
  const bool available = document_->referenceDataset(&problem) != nullptr;
  form_->setReferenceAvailable(available, QFileInfo(document_->reference().path()).fileName());
}

void FrontierWorkspace::showBanner() {
  const QString click =
      tr("Click a point to load its settings into Synthesis and run the "
         "release there.");
  QString text;
  QString colours =
      QStringLiteral("background: #fff3cd; color: #664d03; border: 1px solid #e0c36a;");
  switch (form_->source()) {
    case FrontierForm::Source::reference:
      text = tr("Internal study, not a release: bootstrap replicates of the public reference "
                "data %1, so that the mechanism and ε are chosen without the confidential data. "
                "%2")
                 .arg(QFileInfo(document_->reference().path()).fileName(), click);
      break;
    case FrontierForm::Source::generator:
      text = tr("Internal study, not a release: replicates drawn from the generator %1 (public, "
                "no covariates), so that the mechanism and ε are chosen without the confidential "
                "data. %2")
                 .arg(form_->generatorEdit()->text().trimmed(), click);
      break;
    case FrontierForm::Source::confidential:
      text =
          tr("Internal study, not a release: bootstrap replicates of the CONFIDENTIAL data "
             "loaded in Synthesis. Tuning on the confidential data is not covered by ε: "
             "settings loaded from here are marked \"tuned on the confidential data\" and "
             "the release note says so. Nothing here may be published.");
      colours = QStringLiteral("background: #f8d7da; color: #842029; border: 1px solid #e4a1a8;");
      break;
  }
  banner_->setText(text);
  banner_->setStyleSheet(QStringLiteral("QLabel { %1 padding: 4px 8px; }").arg(colours));
}

bool FrontierWorkspace::isRunning() const { return worker_->isRunning(); }

QString FrontierWorkspace::statusText() const { return status_->text(); }

void FrontierWorkspace::setStatus(const QString& text) { status_->setText(text); }

bool FrontierWorkspace::start() {
  if (isRunning()) return false;
  form_->setTuning(document_->settings().tuning);
  refreshSource();
  const auto spec = document_->settings().dataset;
  const FrontierForm::Source from = form_->source();
  // The rows of a bootstrap come from memory; its file only names them.
  std::optional<study::Bootstrap> bootstrap;
  std::shared_ptr<const core::data::Dataset> rows;
  QString name, label;
  const auto bootstrapOf = [&spec](std::string file) {
    study::Bootstrap b;
    b.file = std::move(file);
    b.outcome = spec.outcome;
    b.covariates = spec.covariates;
    b.family = spec.family;
    b.referenceLevels = spec.referenceLevels;
    return b;
  };
  if (from == FrontierForm::Source::confidential) {
    rows = document_->dataset();
    if (!rows) {
      const QString problem = document_->dataProblem();
      setStatus(tr("Load data in Synthesis first%1.")
                    .arg(problem.isEmpty() ? QString() : QStringLiteral(": ") + problem));
      return false;
    }
    const DataSource& source = document_->source();
    bootstrap = bootstrapOf(!source.file.isEmpty() ? source.file.toStdString()
                                                   : "sample:" + source.sample.toStdString());
    name = source.displayName;
    label = tr("bootstrap of the CONFIDENTIAL data %1 · tuning not covered by ε").arg(name);
  } else if (from == FrontierForm::Source::reference) {
    std::string problem;
    rows = document_->referenceDataset(&problem);
    if (!rows) {
      setStatus(tr("No usable reference data%1: load one in Tuning (weights from a reference "
                   "dataset), or choose the generator.")
                    .arg(problem.empty() ? QString()
                                         : QStringLiteral(" (") + QString::fromStdString(problem) +
                                               QLatin1Char(')')));
      return false;
    }
    bootstrap = bootstrapOf(document_->reference().path().toStdString());
    name = QFileInfo(document_->reference().path()).fileName();
    label = tr("bootstrap of the public reference data %1").arg(name);
  }
  std::vector<std::string> problems;
  FrontierRequest request;
  request.config = form_->config(bootstrap, document_->settings().run.neighbours, &problems);
  if (from == FrontierForm::Source::generator && request.config.source.generator) {
    name =
        tr("generator %1").arg(QString::fromStdString(request.config.source.generator->spelling()));
    label = tr("%1, %2 records each (public)").arg(name).arg(request.config.source.n);
  }
  if (!problems.empty()) {
    QStringList lines;
    for (const auto& p : problems) lines << QString::fromStdString(p);
    setStatus(tr("Cannot run: %1").arg(lines.join(QStringLiteral("; "))));
    return false;
  }
  request.id = ++studyId_;
  request.data = rows;  // null for a generator
  // censor-w and weighted-e take their weights from the reference loaded in Synthesis, as the
  // release would (censor-w then strict DP), when its design is the replicates'.
  {
    std::string problem;
    const auto reference = document_->referenceDataset(&problem);
    const bool fits =
        reference && (from != FrontierForm::Source::generator ||
                      (reference->interceptOnly() && reference->family == spec.family));
    if (fits) {
      request.weightReference = reference;
      label += tr(" · censor-w and weighted-e weights from the reference %1")
                   .arg(QFileInfo(document_->reference().path()).fileName());
    }
  }
  request.threads = 0;  // every core, one replicate per thread
  dataName_ = name;
  showsConfidential_ = from == FrontierForm::Source::confidential;
  rows_.clear();
  refreshPoints();
  plot_->setRunLabel(tr("%1 · internal study, not a release").arg(label));
  progress_->setRange(0, request.config.replicates);
  progress_->setValue(0);
  setStatus(tr("Running %1 replicates…").arg(request.config.replicates));
  setRunning(true);
  worker_->start(std::move(request));
  return true;
}

void FrontierWorkspace::cancel() {
  worker_->cancel();
  setStatus(tr("Cancelling…"));
}

void FrontierWorkspace::setRunning(bool running) {
  run_->setEnabled(!running);
  open_->setEnabled(!running);
  cancel_->setEnabled(running);
  if (running) {
    redraw_.start();
  } else {
    redraw_.stop();
  }
}

void FrontierWorkspace::onProgress(int done, int total, double elapsed) {
  progress_->setRange(0, total);
  progress_->setValue(done);
  const double left = done > 0 ? elapsed / done * (total - done) : 0;
  setStatus(tr("%1 of %2 replicates · %3 elapsed · about %4 left")
                .arg(done)
                .arg(total)
                .arg(frontierDuration(elapsed), frontierDuration(left)));
}

void FrontierWorkspace::setRows(std::vector<study::StudyRow> rows) {
  rows_ = std::move(rows);
  refreshPoints();
}

bool FrontierWorkspace::openStudyFolder(const QString& folder) {
  try {
    const auto config = study::loadStoredConfig(folder.toStdString());
    const study::StudyStore store(folder.toStdString(), config);
    setRows(study::studyRowsFromCsv(store.rows()));
    // The form shows what the study ran, so Run frontier repeats it on the loaded data.
    form_->setMechanisms(config.mechanisms);
    QStringList eps;
    for (double e : config.epsilon) eps << QString::number(e, 'g', 6);
    form_->epsilonEdit()->setText(eps.join(QStringLiteral(", ")));
    form_->replicatesBox()->setValue(config.replicates);
    core::mcmc::NutsConfig nuts;
    nuts.chains = config.sampler.chains;
    nuts.warmup = config.sampler.warmup;
    nuts.draws = config.sampler.draws;
    form_->setSampler(nuts);
    QString what;
    if (config.source.generator) {
      // Run frontier repeats a generator study as it is; a bootstrap's file is not read.
      form_->setSource(FrontierForm::Source::generator);
      form_->generatorEdit()->setText(QString::fromStdString(config.source.generator->spelling()));
      form_->recordsBox()->setValue(static_cast<int>(config.source.n));
      showsConfidential_ = false;
      what = tr("generator %1, %2 records each (public) · internal study, not a release")
                 .arg(QString::fromStdString(config.source.generator->spelling()))
                 .arg(config.source.n);
    } else {
      // Only the loaded reference file is known to be public: any other bootstrapped file
      // is treated as the confidential data it may well be.
      const QString file = QString::fromStdString(config.source.bootstrap->file);
      const QString reference = document_->reference().path();
      const bool isReference = !reference.isEmpty() && QFileInfo(file).canonicalFilePath() ==
                                                           QFileInfo(reference).canonicalFilePath();
      showsConfidential_ = !isReference;
      what = isReference
                 ? tr("bootstrap of the public reference data %1 · internal study, not a release")
                       .arg(file)
                 : tr("bootstrap of %1 (treated as confidential: tuning not covered by ε) · "
                      "internal study, not a release")
                       .arg(file);
    }
    plot_->setRunLabel(tr("%1 · %2 replicates").arg(what).arg(store.completed().size()));
    // The bar tells how complete the study shown is (it said 0% beside a finished one).
    progress_->setRange(0, std::max(config.replicates, 1));
    progress_->setValue(static_cast<int>(store.completed().size()));
    setStatus(tr("Showing %1 (%2 replicates).").arg(folder).arg(store.completed().size()));
    return true;
  } catch (const std::exception& e) {
    setStatus(tr("Cannot open the study: %1").arg(QString::fromUtf8(e.what())));
    return false;
  }
}

void FrontierWorkspace::refreshPoints() {
  rowsChanged_ = false;
  const QString measure = form_->measure();
  const bool riskAxis = form_->xAxis() == FrontierForm::XAxis::attributeCapGain;
  plot_->setXAxis(riskAxis ? FrontierPlot::XAxis::attributeCapGain : FrontierPlot::XAxis::epsilon);
  try {
    auto points = study::frontierPoints(rows_, measure.toStdString());
    if (riskAxis) {
      const std::size_t before = points.size();
      points = withAttributeCapGain(std::move(points), rows_);
      if (points.size() < before)
        setStatus(tr("%1 of %2 points have no attribute CAP (a mechanism without a synthetic "
                     "outcome to attribute, or no covariates as keys) and are not drawn.")
                      .arg(before - points.size())
                      .arg(before));
    }
    plot_->setPoints(std::move(points), measure);
  } catch (const std::exception& e) {
    plot_->setPoints({}, measure);
    setStatus(tr("Cannot draw the frontier: %1").arg(QString::fromUtf8(e.what())));
  }
}

std::vector<study::FrontierPoint> withAttributeCapGain(std::vector<study::FrontierPoint> points,
                                                       const std::vector<study::StudyRow>& rows) {
  std::map<int, std::vector<double>> gains;
  for (const auto& row : rows) {
    const auto& r = row.results;
    if (row.cell && r.attributeCap && r.attributeCapBaseline)
      gains[*row.cell].push_back(*r.attributeCap - *r.attributeCapBaseline);
  }
  std::vector<study::FrontierPoint> out;
  for (auto& p : points) {
    auto it = gains.find(p.cell);
    if (it == gains.end() || it->second.empty()) continue;
    auto& g = it->second;
    std::sort(g.begin(), g.end());
    const std::size_t n = g.size();
    p.x = n % 2 ? g[n / 2] : 0.5 * (g[n / 2 - 1] + g[n / 2]);
    out.push_back(std::move(p));
  }
  // A series is drawn through its points in order of x.
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    return a.series != b.series ? a.series < b.series : a.x < b.x;
  });
  return out;
}

void FrontierWorkspace::loadPoint(const study::FrontierPoint& point) {
  const pipeline::Mechanism chosen = pipeline::parseMechanism(point.mechanism);
  StudioDocument::Values values;
  values.emplace_back(Field::mechanisms, std::vector<pipeline::Mechanism>{chosen});
  if (point.epsilon) values.emplace_back(Field::epsilon, *point.epsilon);
  if (point.c) values.emplace_back(Field::c, *point.c);
  if (point.g) values.emplace_back(Field::g, *point.g);
  if (point.hasDownscale) values.emplace_back(Field::downscale, point.downscale);
  // A release, not a reproducible run: the frontier's seeded replicates were the study.
  values.emplace_back(Field::reproducible, false);
  // SPEC §0: a choice made on the confidential data is an output ε does not cover; a point of
  // public data replaces such a choice, so it clears the mark.
  values.emplace_back(Field::tunedOnConfidential, showsConfidential_);
  const QString what = QStringLiteral("%1, %2").arg(QString::fromStdString(point.mechanism),
                                                    frontierSettingsText(point));
  document_->edit(values, tr("Load frontier point %1").arg(what));
  document_->setCurrentMechanism(chosen);
  const QString mark = showsConfidential_
                           ? tr(" Marked as tuned on the confidential data: the release note "
                                "will say this choice is not covered by ε.")
                           : QString();
  emit pointLoaded(tr("Loaded from the frontier: %1 — press Run for a release (Undo puts the "
                      "previous settings back).%2")
                       .arg(what, mark));
}

}  // namespace dpsynth::ui
