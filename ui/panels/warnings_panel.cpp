#include "ui/panels/warnings_panel.h"

#include <QApplication>
#include <QHeaderView>
#include <QLabel>
#include <QStyle>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>

#include "core/report/results_table.h"

namespace dpsynth::ui {

namespace {

enum Column { kMechanism, kStage, kWarning };

}  // namespace

WarningsPanel::WarningsPanel(QWidget* parent) : QWidget(parent) {
  note_ = new QLabel(tr("No run yet."), this);
  note_->setObjectName(QStringLiteral("warningsNote"));
  list_ = new QTreeWidget(this);
  list_->setObjectName(QStringLiteral("warningsList"));
  list_->setRootIsDecorated(false);
  list_->setUniformRowHeights(false);
  list_->setWordWrap(true);
  list_->setHeaderLabels({tr("Mechanism"), tr("Stage"), tr("Warning")});
  list_->header()->setSectionResizeMode(kMechanism, QHeaderView::ResizeToContents);
  list_->header()->setSectionResizeMode(kStage, QHeaderView::ResizeToContents);
  list_->header()->setStretchLastSection(true);
  list_->setSortingEnabled(true);
  list_->sortByColumn(-1, Qt::AscendingOrder);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(note_);
  layout->addWidget(list_, 1);
}

void WarningsPanel::add(const QString& mechanism, const QString& stage, const QString& text,
                        bool severe) {
  auto* item = new QTreeWidgetItem(list_, {mechanism, stage, text});
  item->setIcon(kMechanism,
                QApplication::style()->standardIcon(severe ? QStyle::SP_MessageBoxCritical
                                                           : QStyle::SP_MessageBoxWarning));
  item->setToolTip(kWarning, text);
}

void WarningsPanel::setRun(const RunOutput& output) {
  list_->clear();
  const auto labels = core::report::mechanismLabels(*output.result);
  const auto& mechanisms = output.result->mechanisms;
  for (std::size_t j = 0; j < mechanisms.size(); ++j) {
    const auto& m = mechanisms[j];
    const QString who = QString::fromStdString(labels[j]);
    // The verdict first: an unusable result matters more than any diagnostic.
    if (j + 1 < output.table.size() && !output.table[j + 1].usable) {
      for (const auto& reason : output.table[j + 1].verdictReasons)
        add(who, tr("verdict"), tr("unusable: %1").arg(QString::fromStdString(reason)), true);
    }
    std::vector<std::string> seen;
    for (const auto& stage : m.stages) {
      for (const auto& w : stage->warnings) {
        add(who, QString::fromStdString(stage->name), QString::fromStdString(w), false);
        seen.push_back(w);
      }
    }
    for (const auto& refusal : m.refusals)
      add(who, tr("release"), QString::fromStdString(refusal), true);
    for (const auto& w : m.warnings) {
      if (std::find(seen.begin(), seen.end(), w) != seen.end()) continue;
      add(who, tr("mechanism"), QString::fromStdString(w), false);
    }
  }
  note_->setText(count() == 0 ? tr("No warnings in the last run.")
                              : tr("%n warning(s) in the last run.", nullptr, count()));
  setStale(false);
  emit countChanged(count());
}

void WarningsPanel::clear() {
  list_->clear();
  note_->setText(tr("No run yet."));
  setStale(false);
  emit countChanged(0);
}

void WarningsPanel::setStale(bool stale) {
  list_->setEnabled(!stale);
  if (stale && count() > 0 && !note_->text().startsWith(tr("Stale")))
    note_->setText(tr("Stale: %1").arg(note_->text()));
}

int WarningsPanel::count() const { return list_->topLevelItemCount(); }

QStringList WarningsPanel::lines() const {
  QStringList out;
  for (int i = 0; i < count(); ++i) {
    const auto* item = list_->topLevelItem(i);
    out << QStringLiteral("%1 | %2 | %3")
               .arg(item->text(kMechanism), item->text(kStage), item->text(kWarning));
  }
  return out;
}

}  // namespace dpsynth::ui
