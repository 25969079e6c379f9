#include "ui/workspaces/frontier/frontier_workspace.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QVBoxLayout>
#include <array>
#include <exception>

#include "core/study/study_store.h"
#include "ui/controllers/reference_data.h"
#include "ui/controllers/settings_controller.h"
#include "ui/main_window.h"
#include "ui/panels/data_panel.h"
#include "ui/panels/mechanism_panel.h"
#include "ui/panels/sampler_panel.h"
#include "ui/panels/tuning_panel.h"
#include "ui/workers/frontier_worker.h"
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

FrontierWorkspace::FrontierWorkspace(MainWindow* window, QWidget* parent)
    : QWidget(parent), window_(window) {
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

  worker_ = new FrontierWorker(this);
  connect(run_, &QPushButton::clicked, this, [this] { start(); });
  connect(cancel_, &QPushButton::clicked, this, &FrontierWorkspace::cancel);
  connect(open_, &QPushButton::clicked, this, [this] {
    const QString folder = QFileDialog::getExistingDirectory(this, tr("Open study folder"));
    if (!folder.isEmpty()) openStudyFolder(folder);
  });
  connect(form_, &FrontierForm::measureChanged, this, [this] { refreshPoints(); });
  connect(form_, &FrontierForm::sourceChanged, this, &FrontierWorkspace::showBanner);
  connect(form_->generatorEdit(), &QLineEdit::textChanged, this, &FrontierWorkspace::showBanner);
  // The family and columns decide the generator's default and whether the reference fits.
  connect(window_->dataPanel(), &DataPanel::choiceChanged, this, &FrontierWorkspace::refreshSource);
  connect(plot_, &FrontierPlot::pointClicked, this, &FrontierWorkspace::loadPoint);
  redraw_.setInterval(kRedrawMs);
  connect(&redraw_, &QTimer::timeout, this, [this] {
    if (rowsChanged_) refreshPoints();
  });
  connect(worker_, &FrontierWorker::replicateDone, this,
          [this](quint64 id, const study::ReplicateRows& r) {
            if (id != studyId_) return;
            rows_.insert(rows_.end(), r.rows.begin(), r.rows.end());
            rowsChanged_ = true;
          });
  connect(worker_, &FrontierWorker::progress, this,
          [this](quint64 id, int done, int total, double elapsed) {
            if (id == studyId_) onProgress(done, total, elapsed);
          });
  connect(worker_, &FrontierWorker::finished, this, [this](quint64 id, bool completed) {
    if (id != studyId_) return;
    setRunning(false);
    refreshPoints();
    setStatus(completed ? tr("Done: %1 replicates of %2.").arg(form_->replicatesBox()->value()).arg(dataName_)
                        : tr("Cancelled: the replicates that finished are shown."));
    emit studyEnded(completed);
  });
  connect(worker_, &FrontierWorker::failed, this, [this](quint64 id, const QString& message) {
    if (id != studyId_) return;
    setRunning(false);
    refreshPoints();
    setStatus(tr("The study stopped: %1").arg(message));
    emit studyEnded(false);
  });
  takeSynthesisDefaults();
  connect(window_->settingsController(), &SettingsController::settingsChanged, this,
          &FrontierWorkspace::takeSynthesisDefaults);
  showBanner();
  setStatus(tr("Choose the source, mechanisms and an ε grid, then Run frontier."));
}

FrontierWorkspace::~FrontierWorkspace() { worker_->cancel(); }

void FrontierWorkspace::takeSynthesisDefaults() {
  // The form follows the synthesis sampler when that changes, and keeps its own edits
  // otherwise (a change of ε in Synthesis does not undo them).
  const auto nuts = window_->samplerPanel()->nuts();
  const std::array<int, 3> now{nuts.chains, nuts.warmup, nuts.draws};
  if (now != synthesisSampler_) {
    synthesisSampler_ = now;
    form_->setSampler(nuts);
  }
  form_->setTuning(window_->tuningPanel()->tuning());
  refreshSource();
}

void FrontierWorkspace::refreshSource() {
  const auto spec = window_->dataPanel()->choice();
  form_->setFamily(spec.family);
  const ReferenceData* reference = window_->settingsController()->reference();
  std::string problem;
  const bool available = reference->isLoaded() && reference->datasetFor(spec, &problem);
  form_->setReferenceAvailable(available, QFileInfo(reference->path()).fileName());
}

void FrontierWorkspace::showBanner() {
  const QString click = tr("Click a point to load its settings into Synthesis and run the "
                           "release there.");
  QString text;
  QString colours = QStringLiteral("background: #fff3cd; color: #664d03; border: 1px solid #e0c36a;");
  switch (form_->source()) {
    case FrontierForm::Source::reference:
      text = tr("Internal study, not a release: bootstrap replicates of the public reference "
                "data %1, so that the mechanism and ε are chosen without the confidential data. "
                "%2")
                 .arg(QFileInfo(window_->settingsController()->reference()->path()).fileName(),
                      click);
      break;
    case FrontierForm::Source::generator:
      text = tr("Internal study, not a release: replicates drawn from the generator %1 (public, "
                "no covariates), so that the mechanism and ε are chosen without the confidential "
                "data. %2")
                 .arg(form_->generatorEdit()->text().trimmed(), click);
      break;
    case FrontierForm::Source::confidential:
      text = tr("Internal study, not a release: bootstrap replicates of the CONFIDENTIAL data "
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
  const DataPanel* data = window_->dataPanel();
  form_->setTuning(window_->tuningPanel()->tuning());
  refreshSource();
  const auto spec = data->choice();
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
    return b;
  };
  if (from == FrontierForm::Source::confidential) {
    rows = data->dataset();
    if (!rows) {
      setStatus(tr("Load data in Synthesis first%1.")
                    .arg(data->problem().isEmpty() ? QString()
                                                   : QStringLiteral(": ") + data->problem()));
      return false;
    }
    const DataSource& source = data->source();
    bootstrap = bootstrapOf(!source.file.isEmpty() ? source.file.toStdString()
                                                   : "sample:" + source.sample.toStdString());
    name = source.displayName;
    label = tr("bootstrap of the CONFIDENTIAL data %1 · tuning not covered by ε").arg(name);
  } else if (from == FrontierForm::Source::reference) {
    const ReferenceData* reference = window_->settingsController()->reference();
    std::string problem;
    rows = reference->datasetFor(spec, &problem);
    if (!rows) {
      setStatus(tr("No usable reference data%1: load one in Tuning (weights from a reference "
                   "dataset), or choose the generator.")
                    .arg(problem.empty() ? QString()
                                         : QStringLiteral(" (") + QString::fromStdString(problem) +
                                               QLatin1Char(')')));
      return false;
    }
    bootstrap = bootstrapOf(reference->path().toStdString());
    name = QFileInfo(reference->path()).fileName();
    label = tr("bootstrap of the public reference data %1").arg(name);
  }
  std::vector<std::string> problems;
  FrontierRequest request;
  request.config = form_->config(bootstrap, window_->samplerPanel()->neighbours(), &problems);
  if (from == FrontierForm::Source::generator && request.config.source.generator) {
    name = tr("generator %1").arg(QString::fromStdString(request.config.source.generator->spelling()));
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

void FrontierWorkspace::setRows(std::vector<std::vector<std::string>> rows) {
  rows_ = std::move(rows);
  refreshPoints();
}

bool FrontierWorkspace::openStudyFolder(const QString& folder) {
  try {
    const auto config = study::loadStoredConfig(folder.toStdString());
    const study::StudyStore store(folder.toStdString(), config);
    setRows(store.rows());
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
      const QString reference = window_->settingsController()->reference()->path();
      const bool isReference =
          !reference.isEmpty() && QFileInfo(file).canonicalFilePath() ==
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
    setStatus(tr("Showing %1 (%2 replicates).").arg(folder).arg(store.completed().size()));
    return true;
  } catch (const std::exception& e) {
    setStatus(tr("Cannot open the study: %1").arg(QString::fromUtf8(e.what())));
    return false;
  }
}

void FrontierWorkspace::refreshPoints() {
  rowsChanged_ = false;
  try {
    plot_->setPoints(study::frontierPoints(rows_, form_->measure().toStdString()),
                     form_->measure());
  } catch (const std::exception& e) {
    plot_->setPoints({}, form_->measure());
    setStatus(tr("Cannot draw the frontier: %1").arg(QString::fromUtf8(e.what())));
  }
}

void FrontierWorkspace::loadPoint(const study::FrontierPoint& point) {
  MechanismPanel* mechanisms = window_->mechanismPanel();
  TuningPanel* tuning = window_->tuningPanel();
  SamplerPanel* sampler = window_->samplerPanel();
  QList<SettingChange> changes;
  const std::string chosen = point.mechanism;
  // The chosen mechanism is checked first, so that some mechanism stays checked throughout.
  const QString chosenKey = QString::fromStdString(chosen);
  changes.push_back({mechanisms, chosenKey, mechanisms->settingValue(chosenKey), true, 0});
  for (pipeline::Mechanism m : pipeline::allMechanisms()) {
    const QString key = QString::fromStdString(pipeline::mechanismName(m));
    if (key != chosenKey) changes.push_back({mechanisms, key, mechanisms->settingValue(key), false, 0});
  }
  const auto set = [&](const QString& key, const QVariant& value) {
    changes.push_back({tuning, key, tuning->settingValue(key), value, 0});
  };
  if (point.epsilon) set(QStringLiteral("epsilon"), *point.epsilon);
  if (point.c) set(QStringLiteral("c"), *point.c);
  if (point.g) set(QStringLiteral("g"), *point.g);
  if (point.hasDownscale)
    set(QStringLiteral("downscale"), point.downscale ? QVariant(*point.downscale) : QVariant());
  // A release, not a reproducible run: the frontier's seeded replicates were the study.
  changes.push_back({sampler, QStringLiteral("reproducible"),
                     sampler->settingValue(QStringLiteral("reproducible")), false, 0});
  // SPEC §0: a choice made on the confidential data is an output ε does not cover; a point of
  // public data replaces such a choice, so it clears the mark.
  changes.push_back({sampler, QStringLiteral("tunedOnConfidential"),
                     sampler->settingValue(QStringLiteral("tunedOnConfidential")),
                     showsConfidential_, 0});
  const QString what = QStringLiteral("%1, %2").arg(QString::fromStdString(chosen),
                                                     frontierSettingsText(point));
  window_->settingsController()->applyEdits(changes, tr("Load frontier point %1").arg(what));
  QString rounded;
  if (point.epsilon) {
    const double shown = tuning->settingValue(QStringLiteral("epsilon")).toDouble();
    if (shown != *point.epsilon)
      rounded = tr(" (the ε field shows %1: it has fewer decimals)").arg(shown);
  }
  const QString mark = showsConfidential_
                           ? tr(" Marked as tuned on the confidential data: the release note "
                                "will say this choice is not covered by ε.")
                           : QString();
  emit pointLoaded(tr("Loaded from the frontier: %1%2 — press Run for a release (Undo puts the "
                      "previous settings back).%3")
                       .arg(what, rounded, mark));
}

}  // namespace dpsynth::ui
