#include "ui/workspaces/study/study_counts_table.h"

#include <QHeaderView>

#include "core/study/study_summary.h"

namespace dpsynth::ui {
namespace {

QString countText(double v) { return QString::number(v, 'g', 4); }

}  // namespace

StudyCountsTable::StudyCountsTable(QWidget* parent) : QTableWidget(parent) {
  setColumnCount(Iqr + 1);
  setHorizontalHeaderLabels({tr("Mechanism"), tr("ε"), tr("c, g, d"), tr("Count"), tr("n"),
                             tr("Min"), tr("Q1"), tr("Median"), tr("Mean"), tr("Q3"), tr("Max"),
                             tr("sd"), tr("IQR")});
  setEditTriggers(QAbstractItemView::NoEditTriggers);
  setTabKeyNavigation(false);  // Tab leaves the table; arrows move within it
  setSelectionBehavior(QAbstractItemView::SelectRows);
  verticalHeader()->setVisible(false);
  horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  setAlternatingRowColors(true);
}

void StudyCountsTable::setRows(const std::vector<core::study::StudyRow>& rows) {
  setRowCount(0);
  if (rows.empty()) return;
  const auto cells = core::study::summarizeStudy(rows);
  for (const auto& cell : cells) {
    if (cell.cell.empty()) continue;  // the confidential rows have no counts
    QStringList tuning;
    const char* names[] = {"c", "g", "d"};
    for (int k = 0; k < 3; ++k) {
      const auto& key = cell.keys.at(static_cast<std::size_t>(2 + k));
      if (!key.empty())
        tuning << QStringLiteral("%1=%2").arg(names[k], QString::fromStdString(key));
    }
    for (const auto& column : cell.columns) {
      if (column.column != "censored" && column.column != "truncated") continue;
      const int row = rowCount();
      insertRow(row);
      const QStringList fields{QString::fromStdString(cell.keys.at(0)),
                               QString::fromStdString(cell.keys.at(1)),
                               tuning.join(QLatin1Char(' ')),
                               column.column == "censored" ? tr("#censored") : tr("#truncated"),
                               QString::number(column.n),
                               countText(column.min),
                               countText(column.q1),
                               countText(column.median),
                               countText(column.mean),
                               countText(column.q3),
                               countText(column.max),
                               column.n > 1 ? countText(column.sd) : "–",
                               countText(column.q3 - column.q1)};
      for (int c = 0; c < fields.size(); ++c) {
        auto* item = new QTableWidgetItem(fields[c]);
        if (c >= N) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        setItem(row, c, item);
      }
    }
  }
}

PlotTable StudyCountsTable::table() const {
  PlotTable out;
  for (int c = 0; c < columnCount(); ++c) out.columns << horizontalHeaderItem(c)->text();
  for (int r = 0; r < rowCount(); ++r) {
    QStringList row;
    for (int c = 0; c < columnCount(); ++c) row << (item(r, c) ? item(r, c)->text() : QString());
    out.rows.push_back(row);
  }
  return out;
}

}  // namespace dpsynth::ui
