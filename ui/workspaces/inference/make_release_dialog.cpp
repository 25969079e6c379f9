#include "ui/workspaces/inference/make_release_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>
#include <algorithm>

namespace dpsynth::ui {

MakeReleaseDialog::MakeReleaseDialog(std::vector<CategoricalColumn> columns,
                                     const QString& dataName, QWidget* parent)
    : QDialog(parent), columns_(std::move(columns)) {
  setWindowTitle(tr("Make a naive-Bayes release"));
  auto* layout = new QVBoxLayout(this);
  auto* intro = new QLabel(
      tr("Counts of every class × feature level in <b>%1</b>, with discrete Laplace noise "
         "(paper 004 §4). Only categorical columns (2–%2 levels) are offered.")
          .arg(dataName.toHtmlEscaped())
          .arg(kMaxLevels),
      this);
  intro->setWordWrap(true);
  layout->addWidget(intro);

  auto* form = new QFormLayout;
  class_ = new QComboBox(this);
  class_->setObjectName(QStringLiteral("releaseClass"));
  for (const auto& c : columns_) class_->addItem(QString::fromStdString(c.name));
  form->addRow(tr("Class column:"), class_);
  features_ = new QListWidget(this);
  features_->setObjectName(QStringLiteral("releaseFeatures"));
  features_->setMaximumHeight(120);
  form->addRow(tr("Feature columns:"), features_);
  epsilon_ = new QDoubleSpinBox(this);
  epsilon_->setObjectName(QStringLiteral("releaseEpsilon"));
  epsilon_->setDecimals(3);
  epsilon_->setRange(0.001, 1000.0);
  epsilon_->setValue(1.0);
  form->addRow(tr("ε:"), epsilon_);
  layout->addLayout(form);

  auto* levelsNote = new QLabel(
      tr("Public levels, one column a line (column=level1|level2|…). They are published in the "
         "release and a value outside them is refused. They are prefilled from the data, and "
         "which values occur in the data is itself confidential: keep them only if they are "
         "public (a codebook), as the command line requires."),
      this);
  levelsNote->setWordWrap(true);
  layout->addWidget(levelsNote);
  levels_ = new QPlainTextEdit(this);
  levels_->setObjectName(QStringLiteral("releaseLevels"));
  levels_->setMaximumHeight(90);
  layout->addWidget(levels_);
  levelsPublic_ = new QCheckBox(
      tr("These levels are public (a codebook), not learnt from the data"), this);
  levelsPublic_->setObjectName(QStringLiteral("releaseLevelsPublic"));
  layout->addWidget(levelsPublic_);
  budget_ = new QLabel(this);
  budget_->setObjectName(QStringLiteral("releaseBudget"));
  budget_->setWordWrap(true);
  budget_->setStyleSheet(QStringLiteral("QLabel { color: #8a3b00; }"));
  layout->addWidget(budget_);

  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  ok_ = buttons->button(QDialogButtonBox::Ok);
  ok_->setText(tr("Make and save release…"));
  layout->addWidget(buttons);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(class_, &QComboBox::currentIndexChanged, this, [this] {
    // The class cannot be a feature: rebuild the feature list without it.
    features_->clear();
    for (const auto& c : columns_) {
      if (QString::fromStdString(c.name) == class_->currentText()) continue;
      auto* item = new QListWidgetItem(
          QStringLiteral("%1 (%2 levels)").arg(QString::fromStdString(c.name)).arg(c.levels.size()),
          features_);
      item->setData(Qt::UserRole, QString::fromStdString(c.name));
      item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
      item->setCheckState(Qt::Checked);
    }
    updateChoices();
  });
  connect(features_, &QListWidget::itemChanged, this, &MakeReleaseDialog::updateChoices);
  connect(levels_, &QPlainTextEdit::textChanged, this, &MakeReleaseDialog::updateOk);
  connect(levelsPublic_, &QCheckBox::toggled, this, &MakeReleaseDialog::updateOk);
  connect(epsilon_, &QDoubleSpinBox::valueChanged, this, &MakeReleaseDialog::updateBudget);
  emit class_->currentIndexChanged(class_->currentIndex());
}

std::string MakeReleaseDialog::classColumn() const { return class_->currentText().toStdString(); }

std::vector<std::string> MakeReleaseDialog::features() const {
  std::vector<std::string> out;
  for (int i = 0; i < features_->count(); ++i) {
    const QListWidgetItem* item = features_->item(i);
    if (item->checkState() == Qt::Checked) {
      out.push_back(item->data(Qt::UserRole).toString().toStdString());
    }
  }
  return out;
}

double MakeReleaseDialog::epsilon() const { return epsilon_->value(); }

DeclaredLevels MakeReleaseDialog::declaredLevels() const {
  return parseDeclaredLevels(levels_->toPlainText().toStdString());
}

void MakeReleaseDialog::updateChoices() {
  const std::vector<std::string> chosen = features();
  std::vector<CategoricalColumn> used;
  for (const auto& c : columns_) {
    if (QString::fromStdString(c.name) == class_->currentText() ||
        std::find(chosen.begin(), chosen.end(), c.name) != chosen.end()) {
      used.push_back(c);
    }
  }
  {
    const QSignalBlocker block(levels_);
    levels_->setPlainText(QString::fromStdString(formatDeclaredLevels(used)));
  }
  updateBudget();
  updateOk();
}

void MakeReleaseDialog::updateOk() {
  bool parsed = true;
  try {
    declaredLevels();
  } catch (const std::invalid_argument&) {
    parsed = false;
  }
  // The levels are published: the analyst must declare them public before anything is spent.
  ok_->setEnabled(parsed && levelsPublic_->isChecked() && class_->count() > 0 &&
                  !features().empty());
}

void MakeReleaseDialog::updateBudget() {
  budget_->setText(
      tr("This is a real release: it spends ε = %1 of the data's privacy budget. The noise "
         "comes from the operating system's randomness and cannot be reproduced; you will be "
         "asked where to save the release file.")
          .arg(epsilon_->value()));
}

}  // namespace dpsynth::ui
