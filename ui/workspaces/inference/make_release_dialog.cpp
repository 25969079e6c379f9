#include "ui/workspaces/inference/make_release_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
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
         "release and a value outside them is refused. Type them from a codebook or load them "
         "from a public file; they are never taken from the data being released, because which "
         "values occur in it is itself confidential."),
      this);
  levelsNote->setWordWrap(true);
  layout->addWidget(levelsNote);
  levels_ = new QPlainTextEdit(this);
  levels_->setObjectName(QStringLiteral("releaseLevels"));
  levels_->setMaximumHeight(90);
  levels_->setPlaceholderText(tr("class=yes|no\nregion=north|south|east|west"));
  layout->addWidget(levels_);
  auto* levelsRow = new QHBoxLayout;
  auto* loadLevels = new QPushButton(tr("Load levels from a public file…"), this);
  loadLevels->setObjectName(QStringLiteral("releaseLoadLevels"));
  loadLevels->setToolTip(
      tr("A codebook (column=level1|level2 lines), an earlier naive-Bayes release, or a public "
         "CSV such as the reference dataset"));
  levelsRow->addWidget(loadLevels);
  levelsRow->addStretch(1);
  layout->addLayout(levelsRow);
  levelsSource_ = new QLabel(this);
  levelsSource_->setObjectName(QStringLiteral("releaseLevelsSource"));
  levelsSource_->setWordWrap(true);
  layout->addWidget(levelsSource_);
  levelsPublic_ = new QCheckBox(
      tr("These levels are public (a codebook, public data or an earlier release), not learnt "
         "from the data being released"),
      this);
  levelsPublic_->setObjectName(QStringLiteral("releaseLevelsPublic"));
  layout->addWidget(levelsPublic_);
  connect(loadLevels, &QPushButton::clicked, this, [this] {
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Load public levels"), {},
        tr("Codebooks, releases and public data (*.txt *.json *.csv);;All files (*)"));
    if (!path.isEmpty()) loadLevelsFrom(path);
  });
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

bool MakeReleaseDialog::loadLevelsFrom(const QString& path) {
  DeclaredLevels loaded;
  try {
    loaded = declaredLevelsFromFile(path.toStdString(), classColumn());
  } catch (const std::exception& e) {
    levelsSource_->setText(tr("Could not load levels: %1").arg(QString::fromStdString(e.what())));
    return false;
  }
  // Only the chosen columns: a public file may describe many more.
  DeclaredLevels used;
  std::vector<std::string> wanted = features();
  wanted.push_back(classColumn());
  QStringList missing;
  for (const std::string& column : wanted) {
    const auto it = loaded.find(column);
    if (it != loaded.end()) {
      used[column] = it->second;
    } else {
      missing << QString::fromStdString(column);
    }
  }
  levels_->setPlainText(QString::fromStdString(formatDeclaredLevels(used)));
  QString note = tr("Levels loaded from %1.").arg(QFileInfo(path).fileName());
  if (!missing.isEmpty())
    note += QLatin1Char(' ') +
            tr("It declares none for %1: type them.").arg(missing.join(QStringLiteral(", ")));
  levelsSource_->setText(note);
  return true;
}

void MakeReleaseDialog::updateChoices() {
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
