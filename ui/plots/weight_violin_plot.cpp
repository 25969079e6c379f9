#include "ui/plots/weight_violin_plot.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

#include "ui/plots/plot_style.h"
#include "ui/plots/plot_values.h"
#include "ui/plots/violin_plottable.h"

namespace dpsynth::ui {
namespace {

/// Before/after violins sit this far either side of the mechanism's tick.
constexpr double kDodge = 0.21;

using plot_values::number;

}  // namespace

WeightViolinPlot::WeightViolinPlot(QWidget* parent) : PlotWidget(parent) {
  QCustomPlot* plot = customPlot();
  plot->xAxis->setLabel(tr("Mechanism"));
  setAxisLabel(plot->yAxis, tr("Record weight αᵢ"), tr("αᵢ"));
  plot->xAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
  plot->xAxis->grid()->setVisible(false);
  plot_style::placeLegendAbove(plot, 2);
  rebuild();
  replotNow();
}

void WeightViolinPlot::setSeries(const std::vector<WeightSeries>& series) {
  series_ = series;
  rebuild();
  resetView();
}

void WeightViolinPlot::clear() { setSeries({}); }

void WeightViolinPlot::rebuild() {
  QCustomPlot* plot = customPlot();
  plot->clearPlottables();
  before_ = after_ = nullptr;
  const bool anyBefore = std::any_of(series_.begin(), series_.end(),
                                     [](const WeightSeries& s) { return !s.before.empty(); });
  auto makeViolins = [&](const QString& name, const QColor& color, double width) {
    auto* violins = new ViolinPlottable(plot->xAxis, plot->yAxis);
    violins->setName(name);
    violins->setWidth(width);
    violins->setPen(QPen(color.darker(130), 1.2));
    violins->setBrush(plot_style::translucent(color, 110));
    return violins;
  };
  if (anyBefore) before_ = makeViolins(tr("before re-weighting"), plot_style::seriesColor(5), 0.4);
  after_ = makeViolins(anyBefore ? tr("after re-weighting") : tr("weights"),
                       plot_style::seriesColor(1), anyBefore ? 0.4 : 0.75);

  auto ticker = plot->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
  ticker->clear();
  for (size_t i = 0; i < series_.size(); ++i) {
    const WeightSeries& s = series_[i];
    const double key = static_cast<double>(i + 1);
    ticker->addTick(key, s.mechanism);
    if (before_) before_->addViolin(key - kDodge, s.before, s.mechanism);
    after_->addViolin(anyBefore ? key + kDodge : key, s.after, s.mechanism);
  }
}

void WeightViolinPlot::rescaleToData() {
  PlotWidget::rescaleToData();
  QCustomPlot* plot = customPlot();
  plot->xAxis->setRange(0.4, std::max<double>(1, static_cast<double>(series_.size())) + 0.6);
  // Weights live in [0, 1]; always show the whole interval.
  const QCPRange y = plot->yAxis->range();
  plot->yAxis->setRange(std::min(y.lower, -0.04), std::max(y.upper, 1.04));
}

QString WeightViolinPlot::shownMechanisms() const {
  QStringList names;
  for (const auto& s : series_) names << s.mechanism;
  return names.join(QStringLiteral(", "));
}

PlotTable WeightViolinPlot::plotTable() const {
  PlotTable table;
  table.columns = {QStringLiteral("mechanism"), QStringLiteral("stage"), QStringLiteral("value")};
  for (const WeightSeries& s : series_) {
    for (double w : s.before) {
      if (std::isfinite(w))
        table.rows.push_back({s.mechanism, QStringLiteral("before"), number(w)});
    }
    for (double w : s.after) {
      if (std::isfinite(w)) table.rows.push_back({s.mechanism, QStringLiteral("after"), number(w)});
    }
  }
  return table;
}

}  // namespace dpsynth::ui
