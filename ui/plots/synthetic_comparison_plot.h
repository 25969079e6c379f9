#pragma once
/// Confidential vs synthetic data: overlaid kernel densities (or, for count data, histograms
/// with integer-aligned bins) on the left and empirical CDFs on the right, in one QCustomPlot
/// with two axis rects.
#include <limits>
#include <vector>

#include "ui/plots/plot_widget.h"

class QCPAxisRect;

namespace dpsynth::ui {

struct SyntheticSeries {
  QString name;  ///< usually the mechanism
  std::vector<double> values;
};

class SyntheticComparisonPlot : public PlotWidget {
  Q_OBJECT

 public:
  explicit SyntheticComparisonPlot(QWidget* parent = nullptr);

  /// The outcome's values lie in [lower, upper] (the family's support, e.g. (0, 1) for beta):
  /// the densities stop there and are reflected in each finite bound.
  void setData(const std::vector<double>& confidential, bool countData,
               const std::vector<SyntheticSeries>& synthetic,
               double lower = -std::numeric_limits<double>::infinity(),
               double upper = std::numeric_limits<double>::infinity());
  void clear();
  bool countData() const { return countData_; }
  /// Number of series drawn (confidential + synthetic) in each panel.
  int seriesCount() const;
  QCPAxisRect* densityRect() const { return densityRect_; }
  QCPAxisRect* ecdfRect() const { return ecdfRect_; }

  /// Columns: panel (density|histogram|ecdf), series, x, y.
  PlotTable plotTable() const override;
  QString shownMechanisms() const override;

  /// Points of the step ECDF of `values` (sorted distinct values and F at each). At most
  /// `maxPoints` points; larger samples keep evenly spaced order statistics plus the extremes.
  static void ecdfPoints(std::vector<double> values, QVector<double>& x, QVector<double>& y,
                         int maxPoints = 2000);

 protected:
  QString exportBaseName() const override { return QStringLiteral("synthetic_vs_confidential"); }
  void rescaleToData() override;

 private:
  void rebuild();

  std::vector<double> confidential_;
  std::vector<SyntheticSeries> synthetic_;
  bool countData_ = false;
  double lower_ = -std::numeric_limits<double>::infinity();
  double upper_ = std::numeric_limits<double>::infinity();
  QCPAxisRect* densityRect_ = nullptr;
  QCPAxisRect* ecdfRect_ = nullptr;
};

}  // namespace dpsynth::ui
