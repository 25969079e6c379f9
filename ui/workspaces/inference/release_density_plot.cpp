#include "ui/workspaces/inference/release_density_plot.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

#include "core/utility/kernel_density.h"
#include "ui/plots/plot_style.h"
#include "ui/plots/plot_values.h"

namespace dpsynth::ui {

ReleaseDensityPlot::ReleaseDensityPlot(QWidget* parent) : PlotWidget(parent) {
  QCustomPlot* plot = customPlot();
  plot->xAxis->setLabel(tr("Value"));
  plot->yAxis->setLabel(tr("Density"));
  plot_style::placeLegendAbove(plot, 1);  // one curve a row: the names are long
}

void ReleaseDensityPlot::setReferences(ParameterDensity prior, ParameterDensity confidential,
                                       const QString& confidentialSource, double lower,
                                       double upper) {
  prior_ = std::move(prior);
  confidential_ = std::move(confidential);
  confidentialSource_ = confidentialSource;
  lower_ = lower;
  upper_ = upper;
  rebuild();
}

void ReleaseDensityPlot::setDraws(const QStringList& names,
                                  std::vector<std::vector<double>> draws) {
  names_ = names;
  draws_ = std::move(draws);
  if (current_ >= names_.size()) current_ = 0;
  rebuild();
}

void ReleaseDensityPlot::setCurrentParameter(int index) {
  if (index < 0 || index >= names_.size()) return;
  current_ = index;
  rebuild();
}

QStringList ReleaseDensityPlot::curveNames() const {
  QStringList out;
  const QCustomPlot* plot = customPlot();
  for (int g = 0; g < plot->graphCount(); ++g) out << plot->graph(g)->name();
  return out;
}

void ReleaseDensityPlot::rebuild() {
  QCustomPlot* plot = customPlot();
  plot->clearPlottables();
  if (names_.isEmpty()) {
    resetView();
    return;
  }
  plot->xAxis->setLabel(names_.value(current_));
  const size_t p = static_cast<size_t>(current_);
  const std::vector<double> values =
      p < draws_.size() ? plot_values::finite(draws_[p]) : std::vector<double>{};
  // An unbounded parameter (non-finite range) is drawn over its draws, a tenth wider each side.
  double lower = lower_, upper = upper_;
  if (!std::isfinite(lower) || !std::isfinite(upper)) {
    if (values.empty()) {
      resetView();
      return;
    }
    const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
    const double margin = std::max(0.1 * (*hi - *lo), 1e-9 * std::max(1.0, std::abs(*lo)));
    lower = *lo - margin;
    upper = *hi + margin;
  }
  QVector<double> grid(kGridPoints);
  for (int i = 0; i < kGridPoints; ++i) {
    grid[i] = lower + (upper - lower) * i / (kGridPoints - 1);
  }
  const auto addCurve = [&](const QString& name, const QVector<double>& y, const QPen& pen) {
    QCPGraph* g = plot->addGraph();
    g->setName(name);
    g->setPen(pen);
    g->setData(grid, y, true);
  };
  if (!values.empty()) {
    const core::utility::DensityEstimate kde =
        core::utility::kernelDensityOn(values, lower, upper, kGridPoints);
    QCPGraph* g = plot->addGraph();
    g->setName(tr("posterior from the release (%1 draws)").arg(values.size()));
    g->setPen(QPen(plot_style::seriesColor(0), 2.0));
    g->setBrush(plot_style::translucent(plot_style::seriesColor(0), 50));
    g->setData(grid, QVector<double>(kde.density.begin(), kde.density.end()), true);
  }
  const auto evaluate = [&](const ParameterDensity& f) {
    QVector<double> y(kGridPoints);
    for (int i = 0; i < kGridPoints; ++i) y[i] = f(current_, grid[i]);
    return y;
  };
  if (confidential_) {
    addCurve(tr("confidential-data posterior (%1)").arg(confidentialSource_),
             evaluate(confidential_), QPen(plot_style::confidentialColor(), 2.0));
  }
  if (prior_) addCurve(tr("prior"), evaluate(prior_), QPen(QColor(90, 90, 90), 1.5, Qt::DashLine));
  resetView();
}

QString ReleaseDensityPlot::shownMechanisms() const {
  return names_.isEmpty() ? QString() : tr("%1 from the release").arg(names_.value(current_));
}

PlotTable ReleaseDensityPlot::plotTable() const {
  PlotTable t;
  t.columns = {QStringLiteral("parameter"), QStringLiteral("curve"), QStringLiteral("x"),
               QStringLiteral("density")};
  const QCustomPlot* plot = customPlot();
  for (int g = 0; g < plot->graphCount(); ++g) {
    const QCPGraph* graph = plot->graph(g);
    for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it) {
      t.rows.push_back({names_.value(current_), graph->name(), plot_values::number(it->key),
                        plot_values::number(it->value)});
    }
  }
  return t;
}

}  // namespace dpsynth::ui
