#pragma once
/// Violins of the record weights α_i per mechanism, before and after re-weighting side by side.
#include <vector>

#include "ui/plots/plot_widget.h"

namespace dpsynth::ui {

class ViolinPlottable;

struct WeightSeries {
  QString mechanism;
  std::vector<double> before;  ///< may be empty (mechanism without a re-weighting stage)
  std::vector<double> after;   ///< final weights
};

class WeightViolinPlot : public PlotWidget {
  Q_OBJECT

 public:
  explicit WeightViolinPlot(QWidget* parent = nullptr);

  void setSeries(const std::vector<WeightSeries>& series);
  void clear();
  int seriesCount() const { return static_cast<int>(series_.size()); }
  const ViolinPlottable* beforeViolins() const { return before_; }
  const ViolinPlottable* afterViolins() const { return after_; }

  PlotTable plotTable() const override;
  QString shownMechanisms() const override;

 protected:
  QString exportBaseName() const override { return QStringLiteral("weights"); }
  void rescaleToData() override;

 private:
  void rebuild();

  std::vector<WeightSeries> series_;
  ViolinPlottable* before_ = nullptr;
  ViolinPlottable* after_ = nullptr;
};

}  // namespace dpsynth::ui
