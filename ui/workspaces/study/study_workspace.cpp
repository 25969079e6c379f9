#include "ui/workspaces/study/study_workspace.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QScrollArea>
#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>

#include "core/data/csv_writer.h"
#include "core/study/study_config.h"
#include "core/study/study_outputs.h"
#include "ui/controllers/files_read.h"
#include "ui/plots/plot_export.h"
#include "ui/services/study_job.h"
#include "ui/studio_resources.h"
#include "ui/workspaces/study/analytic_values.h"
#include "ui/workspaces/study/study_config_form.h"
#include "ui/workspaces/study/study_counts_table.h"
#include "ui/workspaces/study/study_violin_plot.h"
#include "ui/workspaces/study/synthesis_bootstrap.h"

namespace dpsynth::ui {
namespace {

namespace study = core::study;

/// The utility measures a study's rows may hold (results columns), with their display names.
const std::pair<const char*, const char*> kMeasures[] = {
    {"max_ecdf", "max-ECDF distance"},
    {"avg_ecdf", "avg-ECDF distance"},
    {"mean", "mean"},
    {"median", "median"},
    {"q15", "15% quantile"},
    {"q90", "90% quantile"},
    {"ci_overlap", "CI overlap (covariates)"},
    {"max_std_diff", "max standardized coefficient difference"},
    {"pmse", "pMSE"},
    {"max_group_mean_diff", "max group-mean difference"}};

constexpr int kRefreshMs = 200;  // views redraw at most 5 times a second while rows land

QString durationText(double seconds) {
  if (seconds < 90) return QObject::tr("%1 s").arg(qRound(seconds));
  if (seconds < 5400) return QObject::tr("%1 min").arg(qRound(seconds / 60));
  return QObject::tr("%1 h").arg(seconds / 3600, 0, 'f', 1);
}

}  // namespace

StudyWorkspace::StudyWorkspace(StudioDocument* document, const StudioServices&, QWidget* parent)
    : QWidget(parent) {
  if (document) {
    bootstrapProvider_ = [document](QString& why) { return studyBootstrapOf(*document, why); };
    settingsAdopter_ = [document](study::StudyConfig& c) { adoptSynthesisSettings(*document, c); };
  }
  ensureStudioResources();
  job_ = new StudyJob(this);
  buildLayout();
  refreshTimer_.setSingleShot(true);
  refreshTimer_.setInterval(kRefreshMs);
  connect(&refreshTimer_, &QTimer::timeout, this, &StudyWorkspace::refreshViews);

  connect(job_, &StudyJob::opened, this, [this](const StudyRows& rows, int, int) {
    rows_.add(rows);
    scheduleRefresh();
  });
  connect(job_, &StudyJob::replicateFinished, this, [this](const StudyRows& rows) {
    rows_.add(rows);
    scheduleRefresh();
    emit replicateArrived();
  });
  connect(job_, &StudyJob::progress, this, &StudyWorkspace::onProgress);
  connect(job_, &StudyJob::finished, this, [this](bool cancelled) {
    setRunning(false);
    refreshViews();
    if (cancelled)
      setStatus(tr("Cancelled: %1 of %2 replicates are kept in the folder; Run again resumes.")
                    .arg(progress_->value())
                    .arg(progress_->maximum()));
    else
      setStatus(tr("Done: %1 replicates; summary.md, summary.json and lipschitz.svg are in %2.")
                    .arg(progress_->maximum())
                    .arg(QDir::toNativeSeparators(outputFolder())));
    emit runEnded(!cancelled);
  });
  connect(job_, &StudyJob::failed, this, [this](const QString& message) {
    setRunning(false);
    refreshViews();
    setStatus(message, true);
    emit runEnded(false);
  });
  setRunning(false);
}

StudyWorkspace::~StudyWorkspace() = default;

void StudyWorkspace::buildLayout() {
  auto* layout = new QVBoxLayout(this);
  auto* top = new QHBoxLayout;
  presets_ = new QComboBox;
  presets_->addItem(tr("Load a preset…"));
  presets_->addItems(presetNames());
  auto* open = new QPushButton(tr("Open config…"));
  auto* save = new QPushButton(tr("Save config as…"));
  bootstrapButton_ = new QPushButton(tr("Bootstrap the synthesis data"));
  bootstrapButton_->setToolTip(
      tr("Resample the file loaded in Synthesis with replacement: an internal study of the "
         "confidential data, never a release."));
  top->addWidget(presets_);
  top->addWidget(open);
  top->addWidget(save);
  top->addWidget(bootstrapButton_);
  top->addStretch(1);
  layout->addLayout(top);

  auto* splitter = new QSplitter(Qt::Horizontal);
  form_ = new StudyConfigForm;
  auto* scroll = new QScrollArea;
  scroll->setWidget(form_);
  scroll->setWidgetResizable(true);
  scroll->setMinimumWidth(300);
  // The form's problems stay in sight under it, however far the form is scrolled.
  auto* left = new QWidget;
  auto* leftLayout = new QVBoxLayout(left);
  leftLayout->setContentsMargins(0, 0, 0, 0);
  leftLayout->addWidget(scroll, 1);
  leftLayout->addWidget(form_->messagesLabel());
  splitter->addWidget(left);

  auto* right = new QWidget;
  auto* rightLayout = new QVBoxLayout(right);
  rightLayout->setContentsMargins(0, 0, 0, 0);
  auto* runRow = new QHBoxLayout;
  folder_ = new QLineEdit;
  folder_->setPlaceholderText(tr("Study folder (replicates.csv, summary.md…)"));
  auto* browse = new QPushButton(tr("Folder…"));
  runButton_ = new QPushButton(tr("Run study"));
  cancelButton_ = new QPushButton(tr("Cancel"));
  runRow->addWidget(new QLabel(tr("Output")));
  runRow->addWidget(folder_, 1);
  runRow->addWidget(browse);
  runRow->addWidget(runButton_);
  runRow->addWidget(cancelButton_);
  rightLayout->addLayout(runRow);
  progress_ = new QProgressBar;
  progress_->setFormat(tr("%v / %m replicates"));
  progress_->setRange(0, 1);
  progress_->setValue(0);
  if (const auto config = form_->config()) progress_->setRange(0, config->replicates);
  status_ = new QLabel;
  status_->setWordWrap(true);
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  rightLayout->addWidget(progress_);
  rightLayout->addWidget(status_);

  views_ = new QTabWidget;
  lipschitz_ =
      new StudyViolinPlot(tr("Lipschitz bound Δ"), tr("ε/2 (censored: clamp max(|L|, |U|))"),
                          QStringLiteral("study-lipschitz"));
  views_->addTab(lipschitz_, tr("Lipschitz Δ"));
  auto* utilityPage = new QWidget;
  auto* utilityLayout = new QVBoxLayout(utilityPage);
  utilityLayout->setContentsMargins(0, 0, 0, 0);
  auto* measureRow = new QHBoxLayout;
  measure_ = new QComboBox;
  measureRow->addWidget(new QLabel(tr("Measure")));
  measureRow->addWidget(measure_);
  measureRow->addStretch(1);
  utilityLayout->addLayout(measureRow);
  utility_ = new StudyViolinPlot(tr("value"), tr("generating distribution"),
                                 QStringLiteral("study-utility"));
  utilityLayout->addWidget(utility_, 1);
  views_->addTab(utilityPage, tr("Utility"));
  auto* countsPage = new QWidget;
  auto* countsLayout = new QVBoxLayout(countsPage);
  countsLayout->setContentsMargins(0, 0, 0, 0);
  counts_ = new StudyCountsTable;
  auto* exportCounts = new QPushButton(tr("Export CSV…"));
  countsLayout->addWidget(counts_, 1);
  countsLayout->addWidget(exportCounts, 0, Qt::AlignRight);
  views_->addTab(countsPage, tr("Counts"));
  rightLayout->addWidget(views_, 1);
  splitter->addWidget(right);
  splitter->setStretchFactor(1, 1);
  splitter->setSizes({340, 900});
  layout->addWidget(splitter, 1);

  connect(presets_, &QComboBox::activated, this, [this](int index) {
    if (index > 0) loadPreset(presets_->itemText(index));
    presets_->setCurrentIndex(0);
  });
  connect(open, &QPushButton::clicked, this, &StudyWorkspace::openWithDialog);
  connect(save, &QPushButton::clicked, this, &StudyWorkspace::saveWithDialog);
  connect(bootstrapButton_, &QPushButton::clicked, this, &StudyWorkspace::useSynthesisData);
  connect(browse, &QPushButton::clicked, this, &StudyWorkspace::chooseFolder);
  connect(runButton_, &QPushButton::clicked, this, &StudyWorkspace::run);
  connect(cancelButton_, &QPushButton::clicked, this, &StudyWorkspace::cancel);
  connect(measure_, &QComboBox::currentIndexChanged, this, &StudyWorkspace::refreshUtility);
  connect(exportCounts, &QPushButton::clicked, this, &StudyWorkspace::exportCounts);
  connect(form_, &StudyConfigForm::changed, this, [this] {
    if (isRunning()) return;
    runButton_->setEnabled(form_->problems().isEmpty());
    markStale();
    // The bar counts the replicates the form asks for ("0 / 10"), not a placeholder "0 / 1".
    if (const auto config = form_->config(); config && progress_->value() == 0)
      progress_->setRange(0, config->replicates);
  });
}

QStringList StudyWorkspace::presetNames() {
  ensureStudioResources();
  QStringList names;
  for (const QString& file :
       QDir(QStringLiteral(":/dpsynth/studies")).entryList({"*.json"}, QDir::Files, QDir::Name))
    names << file.chopped(5);
  return names;
}

bool StudyWorkspace::loadPreset(const QString& name) {
  QFile file(QStringLiteral(":/dpsynth/studies/%1.json").arg(name));
  if (!file.open(QIODevice::ReadOnly)) {
    setStatus(tr("No preset named %1.").arg(name), true);
    return false;
  }
  try {
    form_->setConfig(study::studyConfigFromJson(file.readAll().toStdString(),
                                                (name + QStringLiteral(".json")).toStdString()));
  } catch (const std::exception& e) {
    setStatus(QString::fromStdString(e.what()), true);
    return false;
  }
  setStatus(tr("Preset %1 loaded.").arg(name));
  return true;
}

bool StudyWorkspace::openConfig(const QString& path) {
  try {
    form_->setConfig(study::loadStudyConfig(path.toStdString()));
  } catch (const std::exception& e) {
    setStatus(QString::fromStdString(e.what()), true);
    return false;
  }
  setStatus(tr("Config %1 loaded.").arg(QDir::toNativeSeparators(path)));
  return true;
}

bool StudyWorkspace::saveConfig(const QString& path) {
  const auto config = form_->config();
  if (!config) {
    setStatus(tr("The config has problems (listed under the form); it was not saved."), true);
    return false;
  }
  try {
    core::data::writeTextAtomic(path.toStdString(), study::studyConfigToJson(*config));
  } catch (const std::exception& e) {
    setStatus(QString::fromStdString(e.what()), true);
    return false;
  }
  setStatus(tr("Config saved to %1.").arg(QDir::toNativeSeparators(path)));
  return true;
}

void StudyWorkspace::setOutputFolder(const QString& folder) { folder_->setText(folder); }
QString StudyWorkspace::outputFolder() const { return folder_->text().trimmed(); }
bool StudyWorkspace::isRunning() const { return job_->isRunning(); }

bool StudyWorkspace::run() {
  if (isRunning()) return false;
  const auto config = form_->config();
  if (!config) {
    setStatus(tr("The study was not started: ") + form_->problems().join(QStringLiteral("; ")),
              true);
    return false;
  }
  if (outputFolder().isEmpty()) {
    setStatus(tr("Choose the study folder first (a new folder, or this study's folder to "
                 "resume)."),
              true);
    return false;
  }
  if (const QString problem = summariesProblem(*config); !problem.isEmpty()) {
    setStatus(tr("The study was not started: ") + problem, true);
    return false;
  }
  rows_.clear();
  shown_ = config;
  markStale();
  refreshViews();
  progress_->setRange(0, config->replicates);
  progress_->setValue(0);
  setRunning(true);
  setStatus(tr("Opening %1…").arg(QDir::toNativeSeparators(outputFolder())));
  job_->start(*config, outputFolder(), threads_);
  return true;
}

void StudyWorkspace::cancel() {
  if (!isRunning()) return;
  job_->cancel();
  cancelButton_->setEnabled(false);
  setStatus(tr("Cancelling: finished replicates stay in the folder…"));
}

void StudyWorkspace::setRunning(bool running) {
  runButton_->setEnabled(!running && form_->problems().isEmpty());
  cancelButton_->setEnabled(running);
  form_->setEnabled(!running);
  presets_->setEnabled(!running);
  bootstrapButton_->setEnabled(!running);
  folder_->setEnabled(!running);
}

void StudyWorkspace::onProgress(int done, int total, double secondsLeft) {
  progress_->setRange(0, total);
  progress_->setValue(done);
  QString text = tr("%1 of %2 replicates").arg(done).arg(total);
  if (secondsLeft >= 0 && done < total)
    text += tr(" · about %1 left").arg(durationText(secondsLeft));
  setStatus(text);
}

void StudyWorkspace::scheduleRefresh() {
  if (!refreshTimer_.isActive()) refreshTimer_.start();
}

void StudyWorkspace::refreshViews() {
  refreshTimer_.stop();
  ++refreshCount_;
  std::vector<StudyViolinGroup> groups;
  const auto& cells = rows_.cells();
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (cells[i].isConfidential()) continue;
    auto values = rows_.values(i, "lipschitz");
    if (values.empty()) continue;  // ph has no Δ
    StudyViolinGroup group{cells[i].label(), std::move(values), std::nullopt};
    // The line a cell's Δ should stay under: ε/2 for the aDP mechanisms (ε_x = 2Δ), the
    // clamp's max(|L|, |U|) for the censored ones (ε/4 for beta and normal under replace-one).
    if (const auto& epsilon = cells[i].keys.epsilon) {
      group.reference = *epsilon / 2;
      namespace pipeline = core::pipeline;
      const std::string mechanism = cells[i].mechanism.toStdString();
      if (shown_ && (mechanism == pipeline::mechanismName(pipeline::Mechanism::censorUw) ||
                     mechanism == pipeline::mechanismName(pipeline::Mechanism::censorW)))
        group.reference = core::privacy::clampBound(
            core::privacy::censorInterval(shown_->family(), shown_->neighbours, *epsilon));
    }
    groups.push_back(std::move(group));
  }
  lipschitz_->setGroups(std::move(groups));
  if (shown_)
    lipschitz_->setTitle(
        tr("Δ over replicates (%1 neighbours)")
            .arg(QString::fromStdString(core::privacy::neighboursName(shown_->neighbours))));
  // The measures present in the rows, keeping the current choice.
  const QString current = measure_->currentData().toString();
  QSignalBlocker block(measure_);
  measure_->clear();
  for (const auto& [column, name] : kMeasures) {
    bool present = false;
    for (std::size_t i = 0; i < cells.size() && !present; ++i)
      present = !rows_.values(i, column).empty();
    if (present) measure_->addItem(tr(name), QString::fromLatin1(column));
  }
  const int index = measure_->findData(current);
  measure_->setCurrentIndex(index >= 0 ? index : 0);
  refreshUtility();
  counts_->setRows(rows_.rows());
}

void StudyWorkspace::refreshUtility() {
  const std::string column = measure_->currentData().toString().toStdString();
  std::vector<StudyViolinGroup> groups;
  std::optional<double> analytic;
  if (!column.empty() && shown_ && shown_->source.generator)
    analytic = analyticValue(*shown_->source.generator, column);
  const auto& cells = rows_.cells();
  bool anyMarginal = false;
  for (std::size_t i = 0; !column.empty() && i < cells.size(); ++i) {
    auto values = rows_.values(i, column);
    if (values.empty()) continue;
    QString label = cells[i].isConfidential() ? tr("confidential") : cells[i].label();
    if (cells[i].marginalOnly) {
      label.replace(0, cells[i].mechanism.size(), cells[i].mechanism + QStringLiteral("†"));
      anyMarginal = true;
    }
    groups.push_back({label, std::move(values), analytic});
  }
  utility_->setValueLabel(measure_->currentText());
  utility_->setReferenceName(
      shown_ && shown_->source.generator
          ? tr("%1 of %2")
                .arg(measure_->currentText(),
                     QString::fromStdString(shown_->source.generator->spelling()))
          : tr("generating distribution"));
  // The caption names what is shown: without a title an empty plot's "No results: press Run."
  // stood above a plotted study.
  QString title;
  if (!groups.empty()) {
    title = tr("%1 over replicates").arg(measure_->currentText());
    if (anyMarginal) title += tr(" · † marginal-only mechanism (ignores the covariates)");
  }
  utility_->setGroups(std::move(groups));
  utility_->setTitle(title);
}

void StudyWorkspace::markStale() {
  // The views show the study last run; once the form describes another one, they say so.
  const auto current = form_->config();
  const bool stale =
      shown_ && (!current || study::studyConfigHash(*current) != study::studyConfigHash(*shown_));
  const QString why = tr("the form now describes another study; Run shows it");
  lipschitz_->setStale(stale, why);
  utility_->setStale(stale, why);
}

void StudyWorkspace::useSynthesisData() {
  QString why = tr("Load a file in Synthesis first.");
  std::optional<study::Bootstrap> boot;
  if (bootstrapProvider_) boot = bootstrapProvider_(why);
  if (!boot) {
    setStatus(why, true);
    return;
  }
  form_->setBootstrap(*boot, settingsAdopter_);
  setStatus(tr("Source: %1 resampled with replacement (an internal study, never a release), "
               "with the mechanisms, ε, tuning and neighbours set in Synthesis.")
                .arg(QString::fromStdString(boot->file)));
}

void StudyWorkspace::openWithDialog() {
  const QString path =
      QFileDialog::getOpenFileName(this, tr("Open study config"), {}, tr("Study config (*.json)"));
  if (!path.isEmpty()) openConfig(path);
}

void StudyWorkspace::saveWithDialog() {
  const QString path = QFileDialog::getSaveFileName(
      this, tr("Save study config"), QStringLiteral("study.json"), tr("Study config (*.json)"));
  if (!path.isEmpty()) saveConfig(path);
}

void StudyWorkspace::chooseFolder() {
  const QString dir = QFileDialog::getExistingDirectory(this, tr("Study folder"), outputFolder());
  if (!dir.isEmpty()) setOutputFolder(dir);
}

void StudyWorkspace::exportCounts() {
  const QString path = QFileDialog::getSaveFileName(
      this, tr("Export counts table"), QStringLiteral("study-counts.csv"), tr("CSV (*.csv)"));
  if (path.isEmpty()) return;
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly) || file.write(toCsv(counts_->table())) < 0 ||
      !file.commit()) {
    setStatus(tr("Could not write %1: %2").arg(path, file.errorString()), true);
    return;
  }
  setStatus(tr("Counts table written to %1.").arg(QDir::toNativeSeparators(path)));
}

QString StudyWorkspace::summariesProblem(const core::study::StudyConfig& config) {
  // The summaries have names a user's own files have too (summary.md): an earlier study's are
  // replaced as they are (the folder's manifest lists them), anything else only when the
  // analyst says so, and a file the studio reads never.
  const QString folder = outputFolder();
  const auto names = core::study::studyOutputNames(config);
  QString input;
  if (const QString output = inputAmong(pathsIn(folder, names), filesTheStudioReads(), &input);
      !output.isEmpty())
    return isAnInputProblem(output, input);
  QStringList foreign;
  if (mayReplaceForeignFiles(this, askReplace_, folder, names,
                             tr("Replace with this study's summaries when it ends?"), foreign))
    return {};
  return tr("%1 holds %2, which dpsynth did not write; choose another folder.")
      .arg(QDir::toNativeSeparators(folder), foreign.join(QStringLiteral(", ")));
}

void StudyWorkspace::setStatus(const QString& text, bool error) {
  status_->setText(text);
  status_->setStyleSheet(error ? QStringLiteral("color: #b42318;") : QString());
}

}  // namespace dpsynth::ui
