#include "ui/panels/data_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHeaderView>
#include <QIcon>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QPushButton>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include "core/data/data_error.h"
#include "core/data/generators.h"
#include "core/data/sha256.h"
#include "ui/models/csv_preview_model.h"
#include "ui/studio_resources.h"
#include "ui/widgets/column_roles_view.h"
#include "ui/widgets/load_indicator.h"
#include "ui/widgets/outcome_summary.h"
#include "ui/workers/data_loader.h"
#include "ui/workers/load_jobs.h"

namespace dpsynth::ui {

namespace data = core::data;
namespace models = core::models;

namespace {

constexpr models::Family kFamilies[] = {models::Family::negbin, models::Family::poisson,
                                        models::Family::beta, models::Family::normal};

}  // namespace

DataPanel::DataPanel(QWidget* parent) : QWidget(parent) {
  ensureStudioResources();
  auto* open =
      new QPushButton(QIcon(QStringLiteral(":/dpsynth/icons/open.svg")), tr("Open CSV…"), this);
  open->setObjectName(QStringLiteral("openCsvButton"));
  auto* samples = new QToolButton(this);
  samples->setText(tr("Sample"));
  samples->setIcon(QIcon(QStringLiteral(":/dpsynth/icons/sample.svg")));
  samples->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  samples->setPopupMode(QToolButton::InstantPopup);
  auto* sampleMenu = new QMenu(samples);
  for (const QString& kind : sampleKinds()) {
    sampleMenu->addAction(kind, this, [this, kind] {
      if (mayLoad()) loadSample(kind);
    });
  }
  samples->setMenu(sampleMenu);
  fileLabel_ = new QLabel(tr("No data loaded"), this);
  fileLabel_->setObjectName(QStringLiteral("dataFileLabel"));
  fileLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto* top = new QHBoxLayout;
  top->addWidget(open);
  top->addWidget(samples);
  top->addWidget(fileLabel_, 1);
  loader_ = new DataLoader(QStringLiteral("dpsynth data loader"), this);
  loadIndicator_ = new LoadIndicator(this);
  loadIndicator_->track(loader_);

  preview_ = new CsvPreviewModel(this);
  previewView_ = new QTableView(this);
  previewView_->setObjectName(QStringLiteral("dataPreview"));
  previewView_->setModel(preview_);
  previewView_->setMinimumHeight(110);
  previewView_->setMaximumHeight(150);
  previewView_->verticalHeader()->setDefaultSectionSize(previewView_->fontMetrics().height() + 4);
  previewView_->setToolTip(tr("The first %1 rows (row labels are file line numbers)")
                               .arg(CsvPreviewModel::kPreviewRows));

  outcome_ = new QComboBox(this);
  outcome_->setObjectName(QStringLiteral("outcomeBox"));
  family_ = new QComboBox(this);
  family_->setObjectName(QStringLiteral("familyBox"));
  for (auto f : kFamilies) {
    family_->addItem(QString::fromStdString(models::familyName(f)), static_cast<int>(f));
  }
  suggestion_ = new QLabel(this);
  suggestion_->setObjectName(QStringLiteral("familySuggestion"));
  suggestion_->setWordWrap(true);
  auto* familyRow = new QHBoxLayout;
  familyRow->addWidget(family_);
  familyRow->addWidget(suggestion_, 1);
  covariates_ = new QListWidget(this);
  covariates_->setObjectName(QStringLiteral("covariateList"));
  covariates_->setMaximumHeight(64);
  covariates_->setToolTip(tr("Public covariates (text columns become dummy variables)"));
  dropMissing_ = new QCheckBox(tr("drop rows with missing values"), this);
  sdScale_ = new QDoubleSpinBox(this);
  sdScale_->setRange(1e-9, 1e12);
  sdScale_->setDecimals(4);
  sdScale_->setValue(1.0);
  sdScale_->setKeyboardTracking(false);
  sdScale_->setToolTip(
      tr("Normal family only: a public scale for the priors, β ~ N(0, 10·s), "
         "σ ~ half-Cauchy(0, 5·s). Must not be taken from the confidential "
         "data."));

  auto* form = new QFormLayout;
  form->addRow(tr("Outcome"), outcome_);
  form->addRow(tr("Family"), familyRow);
  form->addRow(tr("Covariates"), covariates_);
  form->addRow(dropMissing_);
  form->addRow(tr("Prior sd scale"), sdScale_);

  problemLabel_ = new QLabel(this);
  problemLabel_->setObjectName(QStringLiteral("dataProblem"));
  problemLabel_->setWordWrap(true);
  problemLabel_->setStyleSheet(QStringLiteral("color: #b00020"));
  problemLabel_->hide();
  summary_ = new OutcomeSummary(this);
  roles_ = new ColumnRolesView(this);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addLayout(top);
  layout->addWidget(loadIndicator_);
  layout->addWidget(previewView_);
  layout->addLayout(form);
  layout->addWidget(roles_);
  layout->addWidget(problemLabel_);
  layout->addWidget(summary_);

  connect(open, &QPushButton::clicked, this, [this] { openWithDialog(); });
  connect(loader_, &DataLoader::finished, this, [this](const LoadedData& result) {
    install(result);
    emit loadEnded(result.source.file, true);
  });
  connect(loader_, &DataLoader::failed, this, [this](const ErrorReport& report) {
    emit errorOccurred(report);
    emit loadEnded(report.file, false);
  });
  connect(loader_, &DataLoader::cancelled, this,
          [this](const QString& file) { emit loadEnded(file, false); });
  connect(outcome_, &QComboBox::currentIndexChanged, this, [this] {
    if (silent_) return;
    fillChoosers();  // the outcome leaves the covariate list
    rebuild(true);
  });
  connect(family_, &QComboBox::currentIndexChanged, this, [this] {
    if (!silent_) rebuild(false);
  });
  // Only a pick by the user declares the family (activated is not emitted for programmatic
  // changes); picking the suggested family again declares it too.
  connect(family_, &QComboBox::activated, this, [this] {
    familyChosen_ = true;
    showSummary();
  });
  connect(covariates_, &QListWidget::itemChanged, this, [this] {
    if (!silent_) rebuild(false);
  });
  connect(dropMissing_, &QCheckBox::toggled, this, [this] {
    if (!silent_) rebuild(false);
  });
  connect(sdScale_, &QDoubleSpinBox::valueChanged, this, [this] {
    if (!silent_) emit choiceChanged();
  });
}

QStringList DataPanel::sampleKinds() {
  QStringList kinds;
  for (const auto& k : data::sampleKinds()) kinds << QString::fromStdString(k);
  return kinds;
}

void DataPanel::openWithDialog() {
  if (!mayLoad()) return;
  const QString path = QFileDialog::getOpenFileName(
      this, tr("Open confidential data"), QFileInfo(source_.file).absolutePath(),
      tr("Data files (*.csv *.tsv *.txt *.sav *.zsav *.por *.dta *.sas7bdat *.xpt);;"
         "CSV files (*.csv *.tsv *.txt);;"
         "SPSS, Stata and SAS files (*.sav *.zsav *.por *.dta *.sas7bdat *.xpt);;All files (*)"));
  if (!path.isEmpty()) openFile(path);
}

void DataPanel::openFile(const QString& path) {
  const QString absolute = QFileInfo(path).absoluteFilePath();
  loader_->start(tr("Cannot load data"), absolute, dataFileJob(absolute));
}

void DataPanel::cancelLoad() { loader_->cancel(); }

bool DataPanel::isLoading() const { return loader_->isLoading(); }

bool DataPanel::loadFile(const QString& path) {
  const QString absolute = QFileInfo(path).absoluteFilePath();
  loader_->cancel();  // a load in progress must not replace this one when it ends
  const LoadOutcome outcome =
      runLoad({0, tr("Cannot load data"), absolute, dataFileJob(absolute)}, {});
  if (outcome.error) {
    emit errorOccurred(*outcome.error);
    return false;
  }
  install(*outcome.data);
  return true;
}

bool DataPanel::loadSample(const QString& kind) {
  loader_->cancel();
  const QString title = tr("Cannot load sample");
  // The job types the table; reading it is here because samples are small and come from two
  // places.
  const LoadJob job = [kind](const LoadContext& context) -> std::optional<LoadedData> {
    DataSource source;
    source.sample = kind;
    source.displayName = QObject::tr("sample: %1").arg(kind);
    std::shared_ptr<const data::CsvTable> table;
    // The repository's copy when running from a build tree (a real path for session files),
    // else the copy compiled into the program.
    const QString onDisk = QStringLiteral(DPSYNTH_RESOURCES_DIR "/samples/%1.csv").arg(kind);
    if (QFileInfo::exists(onDisk)) {
      const std::string text = data::readRegularFile(onDisk.toStdString());
      table = std::make_shared<const data::CsvTable>(data::parseCsv(text, onDisk.toStdString()));
      source.file = onDisk;
      source.sha256 = core::data::sha256Hex(text);
    } else {
      QFile embedded(QStringLiteral(":/dpsynth/samples/%1.csv").arg(kind));
      if (!embedded.open(QIODevice::ReadOnly)) {
        throw std::invalid_argument("unknown sample '" + kind.toStdString() + "'");
      }
      const std::string text = embedded.readAll().toStdString();
      table =
          std::make_shared<const data::CsvTable>(data::parseCsv(text, kind.toStdString() + ".csv"));
      source.sha256 = core::data::sha256Hex(text);
    }
    return tableJob(std::move(table), std::move(source))(context);
  };
  const LoadOutcome outcome = runLoad({0, title, {}, job}, {});
  if (outcome.error) {
    emit errorOccurred(*outcome.error);
    return false;
  }
  install(*outcome.data);
  return true;
}

void DataPanel::install(const LoadedData& result) {
  table_ = result.table;
  source_ = result.source;
  dataset_ = result.dataset;
  const data::DatasetSpec& spec = result.spec;
  suggested_ = spec.family;
  familyChosen_ = false;
  problem_.clear();
  preview_->setTable(table_);
  previewView_->resizeColumnsToContents();
  fileLabel_->setText(source_.displayName);
  fileLabel_->setToolTip(source_.file);

  silent_ = true;
  outcome_->clear();
  for (const auto& name : table_->header) outcome_->addItem(QString::fromStdString(name));
  outcome_->setCurrentText(QString::fromStdString(spec.outcome));
  family_->setCurrentIndex(family_->findData(static_cast<int>(spec.family)));
  dropMissing_->setChecked(spec.dropMissing);
  silent_ = false;
  fillChoosers();
  showSummary();
  emit loaded(source_);
  emit choiceChanged();
}

void DataPanel::fillChoosers() {
  const bool wasSilent = silent_;
  silent_ = true;
  QStringList checkedBefore;
  for (int i = 0; i < covariates_->count(); ++i) {
    if (covariates_->item(i)->checkState() == Qt::Checked)
      checkedBefore << covariates_->item(i)->text();
  }
  covariates_->clear();
  if (table_) {
    for (const auto& name : table_->header) {
      const QString column = QString::fromStdString(name);
      if (column == outcome_->currentText()) continue;
      auto* item = new QListWidgetItem(column, covariates_);
      item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
      item->setCheckState(checkedBefore.contains(column) ? Qt::Checked : Qt::Unchecked);
    }
  }
  covariates_->setEnabled(covariates_->count() > 0);
  silent_ = wasSilent;
}

core::data::DatasetSpec DataPanel::choice() const {
  data::DatasetSpec spec;
  spec.outcome = outcome_->currentText().toStdString();
  spec.family = static_cast<models::Family>(family_->currentData().toInt());
  for (int i = 0; i < covariates_->count(); ++i) {
    if (covariates_->item(i)->checkState() == Qt::Checked) {
      spec.covariates.push_back(covariates_->item(i)->text().toStdString());
    }
  }
  spec.dropMissing = dropMissing_->isChecked();
  return spec;
}

double DataPanel::sdScale() const { return sdScale_->value(); }

bool DataPanel::setChoice(const core::data::DatasetSpec& spec, double sdScale) {
  familyChosen_ = true;  // a session's family was declared when the session was made
  silent_ = true;
  outcome_->setCurrentText(QString::fromStdString(spec.outcome));
  family_->setCurrentIndex(family_->findData(static_cast<int>(spec.family)));
  dropMissing_->setChecked(spec.dropMissing);
  sdScale_->setValue(sdScale);
  silent_ = false;
  fillChoosers();
  silent_ = true;
  for (int i = 0; i < covariates_->count(); ++i) {
    const auto name = covariates_->item(i)->text().toStdString();
    const bool on =
        std::find(spec.covariates.begin(), spec.covariates.end(), name) != spec.covariates.end();
    covariates_->item(i)->setCheckState(on ? Qt::Checked : Qt::Unchecked);
  }
  silent_ = false;
  if (outcome_->currentText().toStdString() != spec.outcome) {
    problem_ = tr("The session's outcome column '%1' is not in the data.")
                   .arg(QString::fromStdString(spec.outcome));
    dataset_.reset();
    problemLabel_->setText(problem_);
    problemLabel_->show();
    roles_->setRoles(table_->header, choice());
    emit errorOccurred({tr("Session does not fit the data"),
                        source_.file,
                        0,
                        QString::fromStdString(spec.outcome),
                        problem_,
                        {}});
    emit choiceChanged();
    return false;
  }
  rebuild(false);
  if (!dataset_) {
    emit errorOccurred({tr("Session does not fit the data"), source_.file, 0, {}, problem_, {}});
    return false;
  }
  return true;
}

void DataPanel::rebuild(bool suggestFamily) {
  if (!table_) return;
  auto spec = choice();
  if (suggestFamily) {
    familyChosen_ = false;
    suggested_ = data::suggestFamily(*table_, spec.outcome);
    silent_ = true;
    family_->setCurrentIndex(family_->findData(static_cast<int>(suggested_)));
    silent_ = false;
    spec.family = suggested_;
  }
  try {
    dataset_ = std::make_shared<data::Dataset>(data::buildDataset(*table_, spec));
    problem_.clear();
  } catch (const data::DataError& e) {
    dataset_.reset();
    problem_ = errorReportFrom(e, {}).oneLine();
  }
  showSummary();
  emit choiceChanged();
}

void DataPanel::showSummary() {
  const QString suggested = QString::fromStdString(models::familyName(suggested_));
  if (!table_ || familyDeclared()) {
    suggestion_->setText(tr("suggested: %1").arg(suggested));
    suggestion_->setToolTip({});
  } else {
    suggestion_->setText(tr("the data suggest %1: pick a family to declare it").arg(suggested));
    suggestion_->setToolTip(
        tr("The suggestion is computed from the confidential values, so it can change with one "
           "record. A release needs the family declared: pick it in the box (the suggested one "
           "too). Reproducible study runs may use the suggestion."));
  }
  sdScale_->setEnabled(choice().family == models::Family::normal);
  problemLabel_->setVisible(!problem_.isEmpty());
  problemLabel_->setText(problem_);
  if (table_) {
    roles_->setRoles(table_->header, choice());
  } else {
    roles_->clear();
  }
  if (dataset_) {
    QString name = QString::fromStdString(dataset_->outcomeName);
    if (dataset_->droppedRows > 0) name += tr(" (%1 rows dropped)").arg(dataset_->droppedRows);
    summary_->setOutcome(name, dataset_->y, models::isCountFamily(dataset_->family));
  } else {
    summary_->clear();
  }
}

}  // namespace dpsynth::ui
