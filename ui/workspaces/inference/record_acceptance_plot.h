#pragma once
/// Per-record acceptance after a run: each latent record's mean acceptance probability
/// (averaged over sweeps and chains), sorted from lowest to highest, with the e^{−ε} bound.
/// Records the sampler rarely moves show at the left.
#include <vector>

#include "ui/plots/plot_widget.h"

namespace dpsynth::ui {

class RecordAcceptancePlot : public PlotWidget {
  Q_OBJECT

 public:
  explicit RecordAcceptancePlot(QWidget* parent = nullptr);

  /// perRecord: one value per record (any order); bound ≤ 0 hides the line.
  void setRecords(std::vector<double> perRecord, double bound);
  void clear();
  /// The values as drawn (sorted ascending).
  const std::vector<double>& sortedRecords() const { return sorted_; }
  /// Columns rank, acceptance_probability, bound.
  PlotTable plotTable() const override;
  QString shownMechanisms() const override;

 protected:
  QString exportBaseName() const override { return QStringLiteral("record-acceptance"); }
  void rescaleToData() override;

 private:
  std::vector<double> sorted_;
  double bound_ = 0.0;
};

}  // namespace dpsynth::ui
