#include "ui/panels/warnings_panel.h"

#include <QApplication>
#include <QHeaderView>
#include <QLabel>
#include <QStyle>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>

#include "core/report/results_table.h"
#include "ui/field_names.h"

namespace dpsynth::ui {

namespace {

enum Column { kMechanism, kStage, kWarning };

}  // namespace

WarningsPanel::WarningsPanel(QWidget* parent) : QWidget(parent) {
  note_ = new QLabel(tr("No run yet."), this);
  note_->setObjectName(QStringLiteral("warningsNote"));
  list_ = new QTableWidget(0, 3, this);
  list_->setObjectName(QStringLiteral("warningsList"));
  list_->setHorizontalHeaderLabels({tr("Mechanism"), tr("Stage"), tr("Warning")});
  list_->verticalHeader()->hide();
  list_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  list_->setSelectionBehavior(QAbstractItemView::SelectRows);
  // Warnings are sentences: wrapped in full beside narrow mechanism and stage columns.
  list_->setWordWrap(true);
  list_->setTextElideMode(Qt::ElideNone);
  QHeaderView* header = list_->horizontalHeader();
  header->setSectionResizeMode(kMechanism, QHeaderView::ResizeToContents);
  header->setSectionResizeMode(kStage, QHeaderView::Interactive);
  header->resizeSection(kStage,
                        list_->fontMetrics().horizontalAdvance(QStringLiteral("weighted-e ")));
  header->setSectionResizeMode(kWarning, QHeaderView::Stretch);
  connect(header, &QHeaderView::sectionResized, list_, &QTableWidget::resizeRowsToContents);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(note_);
  layout->addWidget(list_, 1);
}

void WarningsPanel::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  list_->resizeRowsToContents();
}

void WarningsPanel::add(const QString& mechanism, const QString& stage, const QString& text,
                        bool severe) {
  const int row = list_->rowCount();
  list_->insertRow(row);
  auto* who = new QTableWidgetItem(mechanism);
  who->setIcon(QApplication::style()->standardIcon(severe ? QStyle::SP_MessageBoxCritical
                                                          : QStyle::SP_MessageBoxWarning));
  list_->setItem(row, kMechanism, who);
  auto* where = new QTableWidgetItem(stage);
  where->setToolTip(stage);
  list_->setItem(row, kStage, where);
  // Core's warnings may name command-line flags (--sd-scale): show the studio's fields.
  const QString shown = withFieldNames(text);
  auto* what = new QTableWidgetItem(shown);
  what->setToolTip(shown);
  list_->setItem(row, kWarning, what);
}

void WarningsPanel::setRun(const RunOutput& output) {
  list_->setRowCount(0);
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
  list_->resizeRowsToContents();
  note_->setText(count() == 0 ? tr("No warnings in the last run.")
                              : tr("%n warning(s) in the last run.", nullptr, count()));
  setStale(false);
  emit countChanged(count());
}

void WarningsPanel::setStored(const core::session::SessionResults& results) {
  list_->setRowCount(0);
  for (std::size_t j = 0; j < results.mechanisms.size(); ++j) {
    const auto& m = results.mechanisms[j];
    const QString who = QString::fromStdString(m.mechanism);
    // rows[0] is the "confidential" row; then one row per mechanism, in the same order.
    if (j + 1 < results.rows.size() && !results.rows[j + 1].usable) {
      for (const auto& reason : results.rows[j + 1].verdictReasons)
        add(who, tr("verdict"), tr("unusable: %1").arg(QString::fromStdString(reason)), true);
    }
    for (const auto& w : m.warnings) add(who, tr("mechanism"), QString::fromStdString(w), false);
  }
  list_->resizeRowsToContents();
  note_->setText(count() == 0 ? tr("No warnings in the session's run.")
                              : tr("%n warning(s) in the session's run.", nullptr, count()));
  setStale(false);
  emit countChanged(count());
}

void WarningsPanel::clear() {
  list_->setRowCount(0);
  note_->setText(tr("No run yet."));
  setStale(false);
  emit countChanged(0);
}

void WarningsPanel::setStale(bool stale) {
  list_->setEnabled(!stale);
  const QString prefix = tr("Stale: ");
  if (stale && count() > 0 && !note_->text().startsWith(prefix))
    note_->setText(prefix + note_->text());
  else if (!stale && note_->text().startsWith(prefix))
    note_->setText(note_->text().mid(prefix.size()));
}

int WarningsPanel::count() const { return list_->rowCount(); }

QStringList WarningsPanel::lines() const {
  QStringList out;
  for (int i = 0; i < count(); ++i) {
    out << QStringLiteral("%1 | %2 | %3")
               .arg(list_->item(i, kMechanism)->text(), list_->item(i, kStage)->text(),
                    list_->item(i, kWarning)->text());
  }
  return out;
}

}  // namespace dpsynth::ui
