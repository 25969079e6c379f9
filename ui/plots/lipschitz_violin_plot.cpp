#include "ui/plots/lipschitz_violin_plot.h"

#include <qcustomplot.h>

#include <QFontMetrics>
#include <algorithm>
#include <cmath>

#include "ui/plots/plot_style.h"
#include "ui/plots/plot_values.h"
#include "ui/plots/violin_plottable.h"

namespace dpsynth::ui {
namespace {

/// Half-length of a bound line in key units: a little wider than the violin (0.8).
constexpr double kLineHalfWidth = 0.46;

using plot_values::number;

}  // namespace

LipschitzViolinPlot::LipschitzViolinPlot(QWidget* parent) : PlotWidget(parent) {
  QCustomPlot* plot = customPlot();
  plot->xAxis->setLabel(tr("Mechanism"));
  setAxisLabel(plot->yAxis, tr("By-record Lipschitz bound Δᵢ"), tr("Δᵢ"));
  plot->xAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
  plot->xAxis->grid()->setVisible(false);
  plot_style::placeLegendAbove(plot, 3);
  rebuild();
  replotNow();
}

double LipschitzViolinPlot::boundFor(const LipschitzSeries& series) {
  if (series.strictDp) return series.strictBound > 0 ? series.strictBound : series.epsilon / 2;
  if (series.lipschitzMax > 0) return series.lipschitzMax;
  double max = 0;
  for (double d : series.deltaPerRecord) {
    if (std::isfinite(d)) max = std::max(max, d);
  }
  return max;
}

void LipschitzViolinPlot::setSeries(const std::vector<LipschitzSeries>& series) {
  series_ = series;
  rebuild();
  replotNow();
}

void LipschitzViolinPlot::updateSeries(const LipschitzSeries& series) {
  auto it = std::find_if(series_.begin(), series_.end(),
                         [&](const LipschitzSeries& s) { return s.mechanism == series.mechanism; });
  if (it == series_.end()) {
    series_.push_back(series);
  } else {
    *it = series;
  }
  dirty_ = true;
  requestReplot();
}

void LipschitzViolinPlot::clear() { setSeries({}); }

void LipschitzViolinPlot::prepareReplot() {
  if (dirty_) rebuild();
}

void LipschitzViolinPlot::rebuild() {
  dirty_ = false;
  QCustomPlot* plot = customPlot();
  plot->clearPlottables();
  violins_ = new ViolinPlottable(plot->xAxis, plot->yAxis);
  violins_->setName(tr("Δᵢ over records"));
  violins_->setPen(QPen(plot_style::seriesColor(0).darker(130), 1.2));
  violins_->setBrush(plot_style::translucent(plot_style::seriesColor(0), 110));

  relabelTicks();
  QVector<double> dpKeys, dpValues, adpKeys, adpValues;
  const double gap = std::nan("");
  for (size_t i = 0; i < series_.size(); ++i) {
    const LipschitzSeries& s = series_[i];
    const double key = static_cast<double>(i + 1);
    violins_->addViolin(key, s.deltaPerRecord, labelOf(s));
    const double bound = boundFor(s);
    auto& keys = s.strictDp ? dpKeys : adpKeys;
    auto& values = s.strictDp ? dpValues : adpValues;
    keys << key - kLineHalfWidth << key + kLineHalfWidth << key + kLineHalfWidth + 0.01;
    values << bound << bound << gap;  // NaN breaks the line between mechanisms
  }
  auto addBoundGraph = [&](const QString& name, const QColor& color, const QVector<double>& keys,
                           const QVector<double>& values) {
    if (keys.isEmpty()) return;
    QCPGraph* graph = plot->addGraph(plot->xAxis, plot->yAxis);
    graph->setName(name);
    graph->setPen(QPen(color, 1.8, Qt::DashLine));
    graph->setData(keys, values, true);
  };
  addBoundGraph(tr("clamp max(|L|, |U|) (strict DP)"), plot_style::seriesColor(1), dpKeys,
                dpValues);
  addBoundGraph(tr("Δ = maxᵢ Δᵢ (approximate DP)"), QColor(40, 40, 40), adpKeys, adpValues);
  updateCaption();
}

void LipschitzViolinPlot::relabelTicks() {
  QCustomPlot* plot = customPlot();
  auto ticker = plot->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
  ticker->clear();
  if (series_.empty()) return;
  // The widget's width less the y axis's labels: the axis rect's own is stale during a resize.
  const int room = std::max(24, (width() - 80) / static_cast<int>(series_.size()) - 8);
  const QFontMetrics metrics(plot->xAxis->tickLabelFont());
  for (size_t i = 0; i < series_.size(); ++i) {
    const LipschitzSeries& s = series_[i];
    QString label = metrics.elidedText(s.mechanism, Qt::ElideRight, room);
    if (!s.stage.isEmpty() && s.stage != s.mechanism) {
      label += QStringLiteral("\n") +
               metrics.elidedText(tr("(%1 stage)").arg(s.stage), Qt::ElideMiddle, room);
    }
    ticker->addTick(static_cast<double>(i + 1), label);
  }
}

void LipschitzViolinPlot::resizeEvent(QResizeEvent* event) {
  PlotWidget::resizeEvent(event);
  relabelTicks();
  requestReplot();
}

QString LipschitzViolinPlot::labelOf(const LipschitzSeries& series) {
  return series.stage.isEmpty() || series.stage == series.mechanism
             ? series.mechanism
             : tr("%1 (%2 stage)").arg(series.mechanism, series.stage);
}

QString LipschitzViolinPlot::shownMechanisms() const {
  QStringList names;
  for (const auto& s : series_) names << labelOf(s);
  return names.join(QStringLiteral(", "));
}

void LipschitzViolinPlot::rescaleToData() {
  PlotWidget::rescaleToData();
  QCustomPlot* plot = customPlot();
  plot->xAxis->setRange(0.4, std::max<double>(1, static_cast<double>(series_.size())) + 0.6);
  // Δᵢ ≥ 0: show the floor unless the values sit far above it.
  const QCPRange y = plot->yAxis->range();
  if (y.lower > 0 && y.lower < 0.5 * y.upper) plot->yAxis->setRangeLower(0);
  // Room above the top: a censored violin ends flat on its clamp line, which was the axis's
  // maximum, and read as cut off by the frame.
  if (pointCount() > 0) plot->yAxis->setRangeUpper(y.upper + 0.05 * plot->yAxis->range().size());
}

PlotTable LipschitzViolinPlot::plotTable() const {
  PlotTable table;
  table.columns = {QStringLiteral("mechanism"), QStringLiteral("kind"), QStringLiteral("value")};
  for (const LipschitzSeries& s : series_) {
    table.rows.push_back(
        {s.mechanism, s.strictDp ? QStringLiteral("bound_eps_half") : QStringLiteral("bound_delta"),
         number(boundFor(s))});
    for (double d : s.deltaPerRecord) {
      if (std::isfinite(d)) table.rows.push_back({s.mechanism, QStringLiteral("delta"), number(d)});
    }
  }
  return table;
}

}  // namespace dpsynth::ui
