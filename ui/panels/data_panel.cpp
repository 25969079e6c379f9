#include "ui/panels/data_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHeaderView>
#include <QIcon>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QPushButton>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include "core/data/generators.h"
#include "ui/models/csv_preview_model.h"
#include "ui/studio_resources.h"
#include "ui/widgets/column_roles_view.h"
#include "ui/widgets/load_indicator.h"
#include "ui/widgets/outcome_summary.h"

namespace dpsynth::ui {

namespace data = core::data;
namespace models = core::models;

namespace {

constexpr models::Family kFamilies[] = {models::Family::negbin, models::Family::poisson,
                                        models::Family::beta, models::Family::normal};

}  // namespace

DataPanel::DataPanel(StudioDocument* document, QWidget* parent)
    : QWidget(parent), document_(document) {
  ensureStudioResources();
  auto* open =
      new QPushButton(QIcon(QStringLiteral(":/dpsynth/icons/open.svg")), tr("Open data…"), this);
  open->setObjectName(QStringLiteral("openCsvButton"));
  open->setToolTip(tr("A CSV file, or an SPSS, Stata or SAS file"));
  auto* samples = new QToolButton(this);
  samples->setText(tr("Sample"));
  samples->setIcon(QIcon(QStringLiteral(":/dpsynth/icons/sample.svg")));
  samples->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  samples->setPopupMode(QToolButton::InstantPopup);
  auto* sampleMenu = new QMenu(samples);
  for (const auto& k : data::sampleKinds()) {
    const QString kind = QString::fromStdString(k);
    sampleMenu->addAction(kind, this, [this, kind] { emit sampleChosen(kind); });
  }
  samples->setMenu(sampleMenu);
  fileLabel_ = new QLabel(tr("No data loaded"), this);
  fileLabel_->setObjectName(QStringLiteral("dataFileLabel"));
  fileLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto* top = new QHBoxLayout;
  top->addWidget(open);
  top->addWidget(samples);
  top->addWidget(fileLabel_, 1);
  loadIndicator_ = new LoadIndicator(this);

  preview_ = new CsvPreviewModel(this);
  previewView_ = new QTableView(this);
  previewView_->setObjectName(QStringLiteral("dataPreview"));
  previewView_->setModel(preview_);
  // Tab leaves a read-only table (arrows still move between its cells): it stepped through
  // every cell, so keyboard users could not get past the preview.
  previewView_->setTabKeyNavigation(false);
  previewView_->setMinimumHeight(110);
  previewView_->setMaximumHeight(150);
  previewView_->verticalHeader()->setDefaultSectionSize(previewView_->fontMetrics().height() + 4);
  previewView_->setToolTip(tr("The first %1 rows (row labels are file line numbers)")
                               .arg(CsvPreviewModel::kPreviewRows));

  outcome_ = new QComboBox(this);
  outcome_->setObjectName(QStringLiteral("outcomeBox"));
  outcome_->setPlaceholderText(tr("choose the column to synthesize"));
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
  covariates_->setMaximumHeight(96);
  covariates_->setToolTip(tr("Public covariates (text columns become dummy variables)"));
  covariateFilter_ = new QLineEdit(this);
  covariateFilter_->setObjectName(QStringLiteral("covariateFilter"));
  covariateFilter_->setPlaceholderText(tr("filter columns"));
  covariateFilter_->setClearButtonEnabled(true);
  auto* covariateBox = new QVBoxLayout;
  covariateBox->setContentsMargins(0, 0, 0, 0);
  covariateBox->setSpacing(2);
  covariateBox->addWidget(covariateFilter_);
  covariateBox->addWidget(covariates_);
  dropMissing_ = new QCheckBox(tr("drop rows with missing values"), this);
  dropMissing_->setObjectName(QStringLiteral("dropMissingBox"));
  sdScale_ = new QDoubleSpinBox(this);
  sdScale_->setObjectName(QStringLiteral("sdScaleBox"));
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
  form->addRow(tr("Covariates"), covariateBox);
  form->addRow(dropMissing_);
  form->addRow(tr("Prior sd scale"), sdScale_);
  sdScaleHint_ = new QLabel(this);
  sdScaleHint_->setObjectName(QStringLiteral("sdScaleHint"));
  sdScaleHint_->setWordWrap(true);
  sdScaleFromBounds_ = new QToolButton(this);
  sdScaleFromBounds_->setObjectName(QStringLiteral("sdScaleFromBounds"));
  auto* hintRow = new QHBoxLayout;
  hintRow->setContentsMargins(0, 0, 0, 0);
  hintRow->addWidget(sdScaleHint_, 1);
  hintRow->addWidget(sdScaleFromBounds_);

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
  // Under the data it is about, above the fold: below the roles it was out of sight.
  layout->addWidget(problemLabel_);
  layout->addLayout(form);
  // Below the form, not a row of it: QFormLayout gave this wrapped text the height of one line
  // fewer than it needs in a narrow panel (clipped at top and bottom).
  layout->addLayout(hintRow);
  layout->addWidget(roles_);
  layout->addWidget(summary_);

  connect(open, &QPushButton::clicked, this, [this] { openWithDialog(); });
  // Every change that is not the document being shown is the analyst's edit. Picking the
  // family shown again (activated without a change) declares it.
  connect(outcome_, &QComboBox::currentIndexChanged, this, [this] {
    if (!rendering_) document_->edit(Field::outcome, outcome_->currentText().toStdString());
  });
  const auto pickFamily = [this] {
    if (!rendering_)
      document_->edit(Field::family, static_cast<models::Family>(family_->currentData().toInt()));
  };
  connect(family_, &QComboBox::currentIndexChanged, this, pickFamily);
  connect(family_, &QComboBox::activated, this, pickFamily);
  connect(covariates_, &QListWidget::itemChanged, this, [this] {
    if (!rendering_) document_->edit(Field::covariates, tickedCovariates());
  });
  connect(dropMissing_, &QCheckBox::toggled, this, [this](bool on) {
    if (!rendering_) document_->edit(Field::dropMissing, on);
  });
  connect(sdScale_, &QDoubleSpinBox::valueChanged, this, [this](double value) {
    if (!rendering_) document_->edit(Field::sdScale, value);
  });
  connect(covariateFilter_, &QLineEdit::textChanged, this, [this] { applyCovariateFilter(); });
  connect(roles_, &ColumnRolesView::referenceLevelChosen, this,
          [this](const QString& column, const QString& level) { chooseReference(column, level); });
  connect(sdScaleFromBounds_, &QToolButton::clicked, this, [this] {
    const auto& t = document_->settings().tuning;
    if (t.lower && t.upper && *t.upper > *t.lower)
      document_->edit(Field::sdScale, (*t.upper - *t.lower) / 4.0);
  });
  connect(document_, &StudioDocument::changed, this, [this](StudioDocument::Parts parts) {
    if (parts & (StudioDocument::kData | StudioDocument::kChoice)) render();
    if (parts & (StudioDocument::kTuning | StudioDocument::kChoice | StudioDocument::kData))
      showScaleHint();
  });
  render();
  showScaleHint();
}

void DataPanel::openWithDialog() {
  const QString folder = document_->source().file.isEmpty() || !document_->source().sample.isEmpty()
                             ? QString()
                             : QFileInfo(document_->source().file).absolutePath();
  const QString path = QFileDialog::getOpenFileName(
      this, tr("Open confidential data"), folder,
      tr("Data files (*.csv *.tsv *.txt *.sav *.zsav *.por *.dta *.sas7bdat *.xpt);;"
         "CSV files (*.csv *.tsv *.txt);;"
         "SPSS, Stata and SAS files (*.sav *.zsav *.por *.dta *.sas7bdat *.xpt);;All files (*)"));
  if (!path.isEmpty()) emit fileChosen(path);
}

std::vector<std::string> DataPanel::tickedCovariates() const {
  std::vector<std::string> out;
  for (int i = 0; i < covariates_->count(); ++i) {
    if (covariates_->item(i)->checkState() == Qt::Checked)
      out.push_back(covariates_->item(i)->data(Qt::UserRole).toString().toStdString());
  }
  return out;
}

void DataPanel::render() {
  rendering_ = true;
  const auto table = document_->table();
  if (table.get() != shownTable_) {
    shownTable_ = table.get();
    preview_->setTable(table);
    previewView_->resizeColumnsToContents();
    fileLabel_->setText(table ? document_->source().displayName : tr("No data loaded"));
    fileLabel_->setToolTip(document_->source().file);
    outcome_->clear();
    if (table) {
      for (std::size_t c = 0; c < table->header.size(); ++c) {
        outcome_->addItem(QString::fromStdString(table->header[c]));
        // A statistical file's variable label says what the column is.
        if (const auto* info = table->info(c); info && !info->description.empty())
          outcome_->setItemData(int(c), QString::fromStdString(info->description), Qt::ToolTipRole);
      }
    }
  }
  const auto& spec = document_->settings().dataset;
  outcome_->setCurrentIndex(outcome_->findText(QString::fromStdString(spec.outcome)));
  family_->setCurrentIndex(family_->findData(static_cast<int>(spec.family)));
  dropMissing_->setChecked(spec.dropMissing);
  if (sdScale_->value() != document_->settings().run.model.sdScale)
    sdScale_->setValue(document_->settings().run.model.sdScale);
  fillChoosers();
  rendering_ = false;
  showSummary();
}

void DataPanel::fillChoosers() {
  const auto table = document_->table();
  const auto& spec = document_->settings().dataset;
  std::vector<std::string> names;
  if (table) {
    for (const auto& name : table->header)
      if (name != spec.outcome) names.push_back(name);
  }
  const auto ticked = [&spec](const std::string& name) {
    return std::find(spec.covariates.begin(), spec.covariates.end(), name) != spec.covariates.end()
               ? Qt::Checked
               : Qt::Unchecked;
  };
  // The same columns: only the ticks change (an edit from this very list may be under way, so
  // its items must stay).
  bool same = int(names.size()) == covariates_->count();
  for (int i = 0; same && i < covariates_->count(); ++i)
    same = covariates_->item(i)->data(Qt::UserRole).toString().toStdString() == names[i];
  if (same) {
    for (int i = 0; i < covariates_->count(); ++i) {
      auto* item = covariates_->item(i);
      const auto state = ticked(names[std::size_t(i)]);
      if (item->checkState() != state) item->setCheckState(state);
    }
  } else {
    covariates_->clear();
    for (const auto& name : names) {
      const QString column = QString::fromStdString(name);
      auto* item = new QListWidgetItem(column, covariates_);
      item->setData(Qt::UserRole, column);
      item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
      item->setCheckState(ticked(name));
    }
  }
  covariates_->setEnabled(covariates_->count() > 0);
  covariateFilter_->setHidden(covariates_->count() <= 8);
  applyCovariateFilter();
}

void DataPanel::chooseReference(const QString& column, const QString& level) {
  const std::string name = column.toStdString();
  ReferenceLevels levels = document_->settings().dataset.referenceLevels;
  for (const auto& covariate : document_->categoricalLevels()) {
    if (covariate.column != name) continue;
    // The first level is the default: choosing it is choosing nothing, so the session names
    // only the references that differ from the rule.
    if (!covariate.levels.empty() && covariate.levels.front() == level.toStdString())
      levels.erase(name);
    else
      levels[name] = level.toStdString();
  }
  document_->edit({{Field::referenceLevels, levels}},
                  tr("reference level of %1 → %2").arg(column, level));
}

void DataPanel::applyCovariateFilter() {
  const QString text =
      covariateFilter_->isHidden() ? QString() : covariateFilter_->text().trimmed();
  for (int i = 0; i < covariates_->count(); ++i) {
    auto* item = covariates_->item(i);
    item->setHidden(!text.isEmpty() && !item->text().contains(text, Qt::CaseInsensitive));
  }
}

void DataPanel::showScaleHint() {
  const auto& settings = document_->settings();
  const bool normal = settings.dataset.family == models::Family::normal;
  sdScaleHint_->setHidden(!(normal && document_->hasData()));
  sdScaleFromBounds_->setHidden(true);
  if (!normal) return;
  const auto& t = settings.tuning;
  if (t.lower && t.upper && *t.upper > *t.lower) {
    const double suggested = (*t.upper - *t.lower) / 4.0;
    sdScaleHint_->setText(tr("The priors assume values of about ±10·s. From the public PH bounds "
                             "[%1, %2]: s = (upper − lower)/4 = %3.")
                              .arg(*t.lower, 0, 'g', 6)
                              .arg(*t.upper, 0, 'g', 6)
                              .arg(suggested, 0, 'g', 6));
    sdScaleFromBounds_->setText(tr("Use %1").arg(suggested, 0, 'g', 6));
    sdScaleFromBounds_->setHidden(settings.run.model.sdScale == suggested);
  } else {
    sdScaleHint_->setText(
        tr("The priors assume values of about ±10·s: an income needs s near its typical size. "
           "Set s from public knowledge (a published median, or the PH bounds in Tuning, which "
           "then give a suggestion); never from the confidential values."));
  }
}

void DataPanel::showSummary() {
  const QString suggested =
      QString::fromStdString(models::familyName(document_->suggestedFamily()));
  const auto table = document_->table();
  const QString outcome = QString::fromStdString(document_->settings().dataset.outcome);
  const bool noRecords = table && table->rows.empty();
  // Only values suggest a family: none without an outcome, records or a number among them
  // (suggestFamily's normal is then a default, which the panel must not present as the data's).
  const bool fromValues = !noRecords && !outcome.isEmpty() && document_->suggestionFromValues();
  suggestion_->setToolTip({});
  if (!document_->hasData()) {
    suggestion_->setText(tr("suggested: %1").arg(suggested));
  } else if (outcome.isEmpty()) {
    suggestion_->setText(tr("choose the outcome first"));
  } else if (document_->familyDeclared()) {
    suggestion_->setText(fromValues ? tr("suggested: %1").arg(suggested) : tr("declared"));
  } else if (noRecords) {
    suggestion_->setText(tr("no records suggest a family: pick one to declare it"));
  } else if (!fromValues) {
    suggestion_->setText(
        tr("no value of %1 is a number, so none suggests a family: pick one to declare it")
            .arg(outcome));
  } else {
    suggestion_->setText(tr("the data suggest %1: pick a family to declare it").arg(suggested));
    suggestion_->setToolTip(
        tr("The suggestion is computed from the confidential values, so it can change with one "
           "record. A release needs the family declared: pick it in the box (the suggested one "
           "too). Reproducible study runs may use the suggestion."));
  }
  const auto& spec = document_->settings().dataset;
  sdScale_->setEnabled(spec.family == models::Family::normal);
  const QString problem = document_->dataProblem();
  problemLabel_->setVisible(!problem.isEmpty());
  problemLabel_->setText(problem);
  if (const auto table = document_->table()) {
    roles_->setRoles(*table, spec, document_->idLikeColumns());
    roles_->setReferenceLevels(document_->categoricalLevels(), spec.referenceLevels);
  } else {
    roles_->clear();
  }
  if (const auto dataset = document_->dataset()) {
    QString name = QString::fromStdString(dataset->outcomeName);
    if (dataset->droppedRows > 0) name += tr(" (%1 rows dropped)").arg(dataset->droppedRows);
    summary_->setOutcome(name, dataset->y, models::isCountFamily(dataset->family));
  } else {
    summary_->clear(spec.outcome.empty()
                        ? QString()
                        : tr("No summary: these data cannot run as chosen (see the message)."));
  }
}

}  // namespace dpsynth::ui
