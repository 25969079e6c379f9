#pragma once
/// The frontier: ε (log scale) against a utility measure, one line per mechanism through the
/// medians over replicates with the interquartile range as a translucent band. Strict-DP
/// mechanisms are drawn with solid lines and filled markers, aDP ones dashed with hollow
/// markers (no guarantee: dotted, hollow); the legend says which is which. A series is styled by
/// what its mechanism gives when the diagnostics pass; points where some replicate failed them
/// (no guarantee, a refused release) get a red cross. Hover shows a
/// point's numbers; a click on a point emits pointClicked().
#include <optional>
#include <utility>
#include <vector>

#include "core/study/frontier.h"
#include "ui/plots/plot_widget.h"

class QCPGraph;

namespace dpsynth::ui {

class FrontierPlot : public PlotWidget {
  Q_OBJECT

 public:
  explicit FrontierPlot(QWidget* parent = nullptr);

  /// What the horizontal axis measures: ε (the guarantee's bound; log scale), or the empirical
  /// disclosure risk attribute CAP − baseline (what the synthetic file adds to an intruder's
  /// correct attribution of the outcome; linear). Points carry it in FrontierPoint::x.
  enum class XAxis { epsilon, attributeCapGain };
  void setXAxis(XAxis axis);
  XAxis xAxisKind() const { return logX_ ? XAxis::epsilon : XAxis::attributeCapGain; }
  /// Replaces the points (from core::study::frontierPoints of `measure`); redrawn within ~40 ms.
  void setPoints(std::vector<core::study::FrontierPoint> points, const QString& measure);
  const std::vector<core::study::FrontierPoint>& points() const { return points_; }
  QString measure() const { return measure_; }

  /// The graphs of a series (after a replot): the median line and the band's Q1 and Q3 edges.
  struct SeriesGraphs {
    QString series;
    core::pipeline::Guarantee guarantee = core::pipeline::Guarantee::none;
    QCPGraph* median = nullptr;
    QCPGraph* q1 = nullptr;
    QCPGraph* q3 = nullptr;
  };
  const std::vector<SeriesGraphs>& seriesGraphs() const { return graphs_; }
  /// Red crosses at the points where some replicate had no guarantee; null when none.
  QCPGraph* failedGraph() const { return failedGraph_; }
  /// Pixel position of point i in customPlot() coordinates (after a replot).
  QPointF pointPixel(std::size_t index) const;
  /// The point within a few pixels of `pixel`, if any.
  std::optional<std::size_t> pointAt(const QPointF& pixel) const;

  QString toolTipAt(const QPointF& pixel) const override;
  /// series, mechanism, guarantee, epsilon, c, g, downscale, x, measure, n, median, q1, q3,
  /// epsilon_guarantee_median: one row per point.
  PlotTable plotTable() const override;
  QString shownMechanisms() const override;
  /// Draws now (tests; the widget otherwise redraws at a bounded rate).
  void redrawNow() { replotNow(); }

 signals:
  void pointClicked(const dpsynth::core::study::FrontierPoint& point);

 protected:
  QString exportBaseName() const override { return QStringLiteral("frontier"); }
  void prepareReplot() override;
  void rescaleToData() override;

 private:
  std::vector<core::study::FrontierPoint> points_;
  QString measure_;
  bool dirty_ = false;
  std::vector<SeriesGraphs> graphs_;
  QCPGraph* failedGraph_ = nullptr;
  QCPGraph* beyondGraph_ = nullptr;
  bool logX_ = true;
  QPointF pressPixel_;
};

/// The vertical axis of a measure: the medians' range (within the measure's own range, where
/// it has one: ECDF distances and shares in [0, 1], CI overlap in [−1, 1], pMSE in [0, 0.25]),
/// widened by the bands only as far as the medians' spread again, plus some air. Medians
/// outside it are drawn on its edge.
std::pair<double, double> frontierAxisRange(const std::vector<double>& medians,
                                            const std::vector<double>& bandEdges,
                                            const QString& measure);

/// "ε = 2 (c = 1, g = 0, d = auto)" or, for a mechanism whose ε is an outcome,
/// "ε_x ≈ 3.1 (c = 1, g = 0)": the settings of a point in words.
QString frontierSettingsText(const core::study::FrontierPoint& point);

}  // namespace dpsynth::ui

Q_DECLARE_METATYPE(dpsynth::core::study::FrontierPoint)
