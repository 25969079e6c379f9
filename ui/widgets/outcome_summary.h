#pragma once
/// The outcome at a glance: n, mean, sd, min, quartiles, max and a small histogram. It shows
/// the confidential data and so belongs to the analyst's screen only.
#include <Eigen/Dense>
#include <QWidget>

class QCustomPlot;
class QLabel;

namespace dpsynth::ui {

struct OutcomeStatistics {
  std::size_t n = 0;
  double mean = 0, sd = 0, min = 0, q25 = 0, median = 0, q75 = 0, max = 0;
};
/// sd with the n − 1 denominator; quartiles of type 7 (utility::quantile).
OutcomeStatistics outcomeStatistics(const Eigen::VectorXd& y);

class OutcomeSummary : public QWidget {
  Q_OBJECT

 public:
  explicit OutcomeSummary(QWidget* parent = nullptr);

  void setOutcome(const QString& name, const Eigen::VectorXd& y, bool integer);
  /// No summary: `why` says so (empty: no outcome is chosen).
  void clear(const QString& why = {});
  QString text() const;
  const OutcomeStatistics& statistics() const { return stats_; }
  QCustomPlot* histogram() const { return plot_; }

 private:
  QLabel* label_ = nullptr;
  QCustomPlot* plot_ = nullptr;
  OutcomeStatistics stats_;
};

}  // namespace dpsynth::ui
