#pragma once
/// A violin plot for QCustomPlot, which has none: at each key position a Gaussian kernel
/// density of one sample (core/utility/kernel_density, Silverman bandwidth) drawn mirrored
/// around the key and filled with a translucent brush, with a thin quartile box, the median as
/// a white dot (or line) and optional whiskers. One plottable holds any number of violins
/// sharing pen, brush and legend entry; use two plottables (keys offset) to compare two groups.
#include <qcustomplot.h>

#include <span>
#include <vector>

namespace dpsynth::ui {

/// Summary of one violin, computed once when the sample is set.
struct ViolinStats {
  double key = 0;
  QString label;  ///< shown in tooltips (e.g. the mechanism's name)
  int count = 0;
  double min = 0, q1 = 0, median = 0, q3 = 0, max = 0;  ///< type-7 quantiles
  double whiskerLow = 0, whiskerHigh = 0;  ///< Tukey: furthest samples within 1.5·IQR of the box
  double bandwidth = 0;
  std::vector<double> grid, density;  ///< KDE outline (empty when count < 2 or no spread)
  double maxDensity = 0;
};

class ViolinPlottable : public QCPAbstractPlottable {
  Q_OBJECT

 public:
  /// SameWidth: every violin's widest point spans width(). SameArea: one density scale for all
  /// violins of this plottable, so that their areas are equal and shapes compare directly.
  enum class ScaleMode { SameWidth, SameArea };
  enum class MedianStyle { Dot, Line };

  ViolinPlottable(QCPAxis* keyAxis, QCPAxis* valueAxis);
  ~ViolinPlottable() override;

  /// Adds a violin at `key`; returns its index. Non-finite values are dropped; an empty sample
  /// gives an empty violin (nothing drawn, count 0).
  int addViolin(double key, std::span<const double> values, const QString& label = {});
  /// Replaces the sample of violin `index` (e.g. when Lipschitz bounds fill in).
  void setViolinData(int index, std::span<const double> values);
  void clearData();

  int violinCount() const { return static_cast<int>(violins_.size()); }
  const ViolinStats& violin(int index) const { return violins_.at(static_cast<size_t>(index)); }
  /// The sorted finite sample of violin `index` (for CSV export).
  const std::vector<double>& samples(int index) const {
    return samples_.at(static_cast<size_t>(index));
  }
  /// Total number of samples over all violins.
  int sampleCount() const;

  /// Full width of a violin in key units (default 0.8).
  void setWidth(double width);
  double width() const { return width_; }
  void setScaleMode(ScaleMode mode);
  ScaleMode scaleMode() const { return scaleMode_; }
  void setMedianStyle(MedianStyle style);
  void setShowBox(bool show);
  void setShowWhiskers(bool show);
  /// Density limited to the sample's range (default true: Δ_i ≥ 0 and weights in [0,1] must
  /// not appear to spill past their bounds).
  void setTrimToRange(bool trim);
  void setGridSize(int points);

  /// Half-width in key units of violin `index` at `value` (0 outside its outline).
  double halfWidthAt(int index, double value) const;
  /// Index of the violin under the pixel position, or -1.
  int violinAt(const QPointF& pixel) const;
  /// Multi-line tooltip text: label, n, median, quartiles, range.
  QString describe(int index) const;

  double selectTest(const QPointF& pos, bool onlySelectable,
                    QVariant* details = nullptr) const override;
  QCPRange getKeyRange(bool& foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth) const override;
  QCPRange getValueRange(bool& foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth,
                         const QCPRange& inKeyRange = QCPRange()) const override;

 protected:
  void draw(QCPPainter* painter) override;
  void drawLegendIcon(QCPPainter* painter, const QRectF& rect) const override;

 private:
  void computeStats(ViolinStats& stats, std::vector<double>& sorted) const;
  double densityScale(int index) const;
  QPolygonF outline(int index) const;
  void drawViolin(QCPPainter* painter, int index, bool selected) const;

  std::vector<ViolinStats> violins_;
  std::vector<std::vector<double>> samples_;
  double width_ = 0.8;
  ScaleMode scaleMode_ = ScaleMode::SameWidth;
  MedianStyle medianStyle_ = MedianStyle::Dot;
  bool showBox_ = true;
  bool showWhiskers_ = true;
  bool trim_ = true;
  int gridSize_ = 256;
};

}  // namespace dpsynth::ui
