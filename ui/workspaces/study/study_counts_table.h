#pragma once
/// The study's counts table: per cell, the number of censored and of truncated records over
/// the replicates as Min, Q1, Median, Mean, Q3, Max, sd and IQR (002 Table 1's layout, the
/// same numbers as summary.md: core/study/study_summary).
#include <QTableWidget>
#include <string>
#include <vector>

#include "core/study/study_row.h"
#include "ui/plots/plot_export.h"

namespace dpsynth::ui {

class StudyCountsTable : public QTableWidget {
  Q_OBJECT

 public:
  explicit StudyCountsTable(QWidget* parent = nullptr);

  /// Rebuilds from every row so far; cells without counts (unweighted, lw, ph...) are left out.
  void setRows(const std::vector<core::study::StudyRow>& rows);
  /// The table as CSV columns and rows (for export).
  PlotTable table() const;

  /// Column indices.
  enum Column { Mechanism, Epsilon, Tuning, Count, N, Min, Q1, Median, Mean, Q3, Max, Sd, Iqr };
};

}  // namespace dpsynth::ui
