#pragma once
/// Scatter of the by-record Lipschitz bound Δ_i (y) against the record's weight α_i (x), before
/// and after re-weighting in two colours, each with its maximum Δ dashed. One mechanism at a
/// time, chosen in a combo box above the plot.
#include <vector>

#include "ui/plots/plot_widget.h"

class QComboBox;

namespace dpsynth::ui {

struct LipschitzWeightSeries {
  QString mechanism;
  std::vector<double> weightsBefore, deltaBefore;  ///< may be empty (no re-weighting stage)
  std::vector<double> weightsAfter, deltaAfter;    ///< final stage; same length as each other
};

class LipschitzWeightPlot : public PlotWidget {
  Q_OBJECT

 public:
  explicit LipschitzWeightPlot(QWidget* parent = nullptr);

  /// Throws std::invalid_argument when weights and deltas of a stage differ in length.
  void setSeries(const std::vector<LipschitzWeightSeries>& series);
  void clear();
  int seriesCount() const { return static_cast<int>(series_.size()); }
  void setCurrentMechanism(int index);
  int currentMechanism() const { return current_; }
  QComboBox* mechanismSelector() const { return selector_; }
  QString shownMechanisms() const override;

  PlotTable plotTable() const override;

 protected:
  QString exportBaseName() const override { return QStringLiteral("lipschitz_vs_weight"); }

 private:
  void rebuild();

  std::vector<LipschitzWeightSeries> series_;
  QComboBox* selector_ = nullptr;
  int current_ = -1;
};

}  // namespace dpsynth::ui
