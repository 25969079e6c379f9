#pragma once
/// The posterior summary of a release analysis: one row per parameter with mean, sd, 5/50/95%
/// quantiles, R-hat and ESS (core::infer::summarize, unrounded in the item data), and a line
/// above with the mean and minimum acceptance against e^{−ε}.
#include <QWidget>
#include <vector>

#include "core/infer/da_sampler.h"

class QLabel;
class QTableWidget;

namespace dpsynth::ui {

class InferenceSummaryTable : public QWidget {
  Q_OBJECT

 public:
  /// Columns of the table, in order.
  enum Column { Parameter, Mean, Sd, Q05, Q50, Q95, Rhat, Ess, ColumnCount };

  explicit InferenceSummaryTable(QWidget* parent = nullptr);

  void setSummary(const std::vector<core::infer::DaParameterSummary>& rows, double meanAcceptance,
                  double minAcceptance, double bound);
  void clear();

  QTableWidget* table() const { return table_; }
  QLabel* acceptanceLabel() const { return acceptance_; }
  /// The value in (row, column) as computed (Qt::UserRole), NaN when absent.
  double value(int row, Column column) const;

 private:
  QLabel* acceptance_ = nullptr;
  QTableWidget* table_ = nullptr;
};

}  // namespace dpsynth::ui
