#include "ui/workspaces/inference/inference_summary_table.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>
#include <cmath>

namespace dpsynth::ui {

InferenceSummaryTable::InferenceSummaryTable(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  acceptance_ = new QLabel(this);
  acceptance_->setObjectName(QStringLiteral("inferenceAcceptance"));
  layout->addWidget(acceptance_);
  table_ = new QTableWidget(0, ColumnCount, this);
  table_->setObjectName(QStringLiteral("inferenceSummary"));
  table_->setHorizontalHeaderLabels({tr("Parameter"), tr("Mean"), tr("SD"), tr("5%"), tr("50%"),
                                     tr("95%"), tr("R-hat"), tr("ESS")});
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setTabKeyNavigation(false);  // Tab leaves the table; arrows move within it
  table_->verticalHeader()->setVisible(false);
  table_->horizontalHeader()->setSectionResizeMode(Parameter, QHeaderView::ResizeToContents);
  layout->addWidget(table_);
  clear();
}

void InferenceSummaryTable::clear() {
  table_->setRowCount(0);
  acceptance_->setText(tr("No run yet."));
}

void InferenceSummaryTable::setSummary(const std::vector<core::infer::DaParameterSummary>& rows,
                                       double meanAcceptance, double minAcceptance, double bound) {
  acceptance_->setText(tr("Acceptance: mean %1, minimum %2 (bound e^−ε = %3)")
                           .arg(meanAcceptance, 0, 'f', 3)
                           .arg(minAcceptance, 0, 'f', 3)
                           .arg(bound, 0, 'f', 3));
  table_->setRowCount(static_cast<int>(rows.size()));
  for (int r = 0; r < static_cast<int>(rows.size()); ++r) {
    const auto& s = rows[static_cast<size_t>(r)];
    table_->setItem(r, Parameter, new QTableWidgetItem(QString::fromStdString(s.name)));
    const double values[] = {s.mean, s.sd, s.q05, s.q50, s.q95, s.rhat, s.ess};
    for (int c = Mean; c < ColumnCount; ++c) {
      const double v = values[c - Mean];
      auto* item = new QTableWidgetItem(
          std::isfinite(v) ? QString::number(v, 'f', c == Ess ? 0 : (c == Rhat ? 3 : 4))
                           : QStringLiteral("–"));
      item->setData(Qt::UserRole, v);
      item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
      table_->setItem(r, c, item);
    }
  }
}

double InferenceSummaryTable::value(int row, Column column) const {
  const QTableWidgetItem* item = table_->item(row, column);
  return item ? item->data(Qt::UserRole).toDouble() : std::nan("");
}

}  // namespace dpsynth::ui
