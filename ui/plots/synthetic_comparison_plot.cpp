#include "ui/plots/synthetic_comparison_plot.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

#include "core/utility/kernel_density.h"
#include "ui/plots/plot_style.h"
#include "ui/plots/plot_values.h"

namespace dpsynth::ui {
namespace {

/// Histograms of count data use integer-aligned bins, at most this many.
constexpr double kMaxBins = 40;

using plot_values::finite;
using plot_values::number;

}  // namespace

SyntheticComparisonPlot::SyntheticComparisonPlot(QWidget* parent) : PlotWidget(parent) {
  QCustomPlot* plot = customPlot();
  plot_style::placeLegendAbove(plot, 5);
  // Row 1 becomes a nested grid holding the two panels, so the legend row spans both.
  densityRect_ = plot->axisRect();
  plot->plotLayout()->take(densityRect_);
  plot->plotLayout()->simplify();
  auto* panels = new QCPLayoutGrid;
  plot->plotLayout()->addElement(1, 0, panels);
  panels->addElement(0, 0, densityRect_);
  ecdfRect_ = new QCPAxisRect(plot);
  panels->addElement(0, 1, ecdfRect_);
  panels->setColumnSpacing(12);
  plot_style::styleAxisRect(ecdfRect_);
  ecdfRect_->axis(QCPAxis::atBottom)->setLabel(tr("Value"));
  setAxisLabel(ecdfRect_->axis(QCPAxis::atLeft), tr("Empirical CDF"), tr("ECDF"));
  densityRect_->axis(QCPAxis::atBottom)->setLabel(tr("Value"));
  densityRect_->axis(QCPAxis::atLeft)->setLabel(tr("Density"));
  rebuild();
  replotNow();
}

void SyntheticComparisonPlot::setData(const std::vector<double>& confidential, bool countData,
                                      const std::vector<SyntheticSeries>& synthetic, double lower,
                                      double upper) {
  confidential_ = finite(confidential);
  countData_ = countData;
  lower_ = lower < upper ? lower : -std::numeric_limits<double>::infinity();
  upper_ = lower < upper ? upper : std::numeric_limits<double>::infinity();
  synthetic_.clear();
  for (const SyntheticSeries& s : synthetic) synthetic_.push_back({s.name, finite(s.values)});
  rebuild();
  resetView();
}

void SyntheticComparisonPlot::clear() { setData({}, false, {}); }

int SyntheticComparisonPlot::seriesCount() const {
  int n = confidential_.empty() ? 0 : 1;
  for (const auto& s : synthetic_) n += s.values.empty() ? 0 : 1;
  return n;
}

void SyntheticComparisonPlot::ecdfPoints(std::vector<double> values, QVector<double>& x,
                                         QVector<double>& y, int maxPoints) {
  x.clear();
  y.clear();
  if (values.empty()) return;
  std::sort(values.begin(), values.end());
  const auto n = static_cast<double>(values.size());
  // Distinct values with F(v) = #{x ≤ v} / n.
  std::vector<std::pair<double, double>> steps;
  for (size_t i = 0; i < values.size(); ++i) {
    if (i + 1 == values.size() || values[i + 1] != values[i]) {
      steps.emplace_back(values[i], static_cast<double>(i + 1) / n);
    }
  }
  maxPoints = std::max(maxPoints, 2);
  const size_t keep = std::min(steps.size(), static_cast<size_t>(maxPoints));
  for (size_t j = 0; j < keep; ++j) {
    // Evenly spaced over the distinct values, first and last always included.
    const size_t i = keep == 1 ? 0 : j * (steps.size() - 1) / (keep - 1);
    x << steps[i].first;
    y << steps[i].second;
  }
}

void SyntheticComparisonPlot::rebuild() {
  QCustomPlot* plot = customPlot();
  qDeleteAll(plot->findChildren<QCPBarsGroup*>());  // groups are owned by the plot, not the bars
  plot->clearPlottables();
  QCPAxis* dx = densityRect_->axis(QCPAxis::atBottom);
  QCPAxis* dy = densityRect_->axis(QCPAxis::atLeft);
  QCPAxis* ex = ecdfRect_->axis(QCPAxis::atBottom);
  QCPAxis* ey = ecdfRect_->axis(QCPAxis::atLeft);
  dy->setLabel(countData_ ? tr("Proportion of records") : tr("Density"));

  struct Series {
    QString name;
    const std::vector<double>* values;
    QColor color;
    double penWidth;
  };
  std::vector<Series> all;
  if (!confidential_.empty()) {
    all.push_back({tr("confidential"), &confidential_, plot_style::confidentialColor(), 2.4});
  }
  for (size_t i = 0; i < synthetic_.size(); ++i) {
    if (synthetic_[i].values.empty()) continue;
    all.push_back({synthetic_[i].name, &synthetic_[i].values,
                   plot_style::seriesColor(static_cast<int>(i)), 1.6});
  }
  if (all.empty()) return;

  // The x extent both panels share: each ECDF runs from 0 to 1 across it, not only between
  // its own smallest and largest values (a beta sample's ECDF stopped at 0.9, its density
  // at the support's end).
  double extentLo = std::numeric_limits<double>::infinity(), extentHi = -extentLo;
  if (countData_) {
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (const Series& s : all) {
      const auto [a, b] = std::minmax_element(s.values->begin(), s.values->end());
      lo = std::min(lo, *a);
      hi = std::max(hi, *b);
    }
    const double start = std::floor(lo);
    const double binWidth = std::max(1.0, std::ceil((std::floor(hi) - start + 1) / kMaxBins));
    const auto bins = static_cast<size_t>(std::floor((hi - start) / binWidth)) + 1;
    auto* group = new QCPBarsGroup(plot);
    group->setSpacingType(QCPBarsGroup::stAbsolute);
    group->setSpacing(0);
    const double barWidth = 0.85 * binWidth / static_cast<double>(all.size());
    for (const Series& s : all) {
      std::vector<double> counts(bins, 0.0);
      for (double v : *s.values) {
        counts[std::min(bins - 1, static_cast<size_t>(std::floor((v - start) / binWidth)))] += 1;
      }
      QVector<double> keys, shares;
      for (size_t b = 0; b < bins; ++b) {
        // Key: the bin's centre, so a width-1 bin sits on its integer.
        keys << start + binWidth * static_cast<double>(b) + (binWidth - 1) / 2;
        shares << counts[b] / static_cast<double>(s.values->size());
      }
      auto* bars = new QCPBars(dx, dy);
      bars->setName(s.name);
      bars->setWidth(barWidth);
      bars->setPen(Qt::NoPen);
      bars->setBrush(plot_style::translucent(s.color, 200));
      bars->setData(keys, shares, true);
      bars->setBarsGroup(group);
    }
    extentLo = start - 0.5;
    extentHi = start + binWidth * static_cast<double>(bins) - 0.5;
  } else {
    for (const Series& s : all) {
      QCPGraph* graph = plot->addGraph(dx, dy);
      graph->setName(s.name);
      graph->setPen(QPen(s.color, s.penWidth));
      if (s.values->size() >= 2) {
        const auto est = core::utility::kernelDensityWithin(*s.values, lower_, upper_, 512);
        graph->setData(QVector<double>(est.grid.begin(), est.grid.end()),
                       QVector<double>(est.density.begin(), est.density.end()), true);
        extentLo = std::min(extentLo, est.grid.front());
        extentHi = std::max(extentHi, est.grid.back());
      }
    }
  }

  for (const Series& s : all) {
    QCPGraph* graph = plot->addGraph(ex, ey);
    graph->setName(s.name);
    graph->removeFromLegend();  // the density panel's entry names it already
    graph->setPen(QPen(s.color, s.penWidth));
    graph->setLineStyle(QCPGraph::lsStepLeft);
    QVector<double> x, y;
    ecdfPoints(*s.values, x, y);
    if (!x.isEmpty() && extentLo < x.front()) {
      x.prepend(extentLo);
      y.prepend(0.0);
    }
    if (!x.isEmpty() && extentHi > x.back()) {
      x.append(extentHi);
      y.append(1.0);
    }
    graph->setData(x, y, true);
  }
}

void SyntheticComparisonPlot::rescaleToData() {
  PlotWidget::rescaleToData();
  QCPAxis* dy = densityRect_->axis(QCPAxis::atLeft);
  dy->setRangeLower(0);
  ecdfRect_->axis(QCPAxis::atLeft)->setRange(-0.02, 1.04);
  if (countData_) {
    // Bars are drawn around their keys; make room for the outermost half bins.
    QCPAxis* dx = densityRect_->axis(QCPAxis::atBottom);
    dx->setRange(dx->range().lower - 0.5, dx->range().upper + 0.5);
  }
}

QString SyntheticComparisonPlot::shownMechanisms() const {
  QStringList names;
  for (const auto& s : synthetic_) names << s.name;
  return names.join(QStringLiteral(", "));
}

PlotTable SyntheticComparisonPlot::plotTable() const {
  PlotTable table;
  table.columns = {QStringLiteral("panel"), QStringLiteral("series"), QStringLiteral("x"),
                   QStringLiteral("y")};
  QCustomPlot* plot = customPlot();
  for (int i = 0; i < plot->plottableCount(); ++i) {
    QCPAbstractPlottable* p = plot->plottable(i);
    const bool ecdf = p->keyAxis()->axisRect() == ecdfRect_;
    const QString panel =
        ecdf ? QStringLiteral("ecdf")
             : (countData_ ? QStringLiteral("histogram") : QStringLiteral("density"));
    QCPPlottableInterface1D* data = p->interface1D();
    if (!data) continue;
    for (int k = 0; k < data->dataCount(); ++k) {
      table.rows.push_back(
          {panel, p->name(), number(data->dataMainKey(k)), number(data->dataMainValue(k))});
    }
  }
  return table;
}

}  // namespace dpsynth::ui
