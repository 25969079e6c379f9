#include "ui/workspaces/inference/acceptance_plot.h"

#include <qcustomplot.h>

#include <algorithm>

#include "ui/plots/plot_style.h"
#include "ui/plots/plot_values.h"

namespace dpsynth::ui {

double acceptanceAxisLower(double bound, double lowest) {
  const double lower = std::max(0.0, std::min(bound > 0 ? bound : 1.0, lowest));
  return std::max(-0.02, lower - 0.05);
}

AcceptancePlot::AcceptancePlot(QWidget* parent) : PlotWidget(parent) {
  QCustomPlot* plot = customPlot();
  plot->xAxis->setLabel(tr("Sweep"));
  plot->yAxis->setLabel(tr("Mean acceptance probability"));
  plot_style::placeLegendAbove(plot, 6);
  plot->yAxis->setRange(0, 1.02);  // a probability, also before any sweep (it spanned −1..1)
}

void AcceptancePlot::reset(int chains, double bound, int warmup) {
  sweeps_.assign(static_cast<size_t>(std::max(0, chains)), {});
  bound_ = bound;
  warmup_ = warmup;
  QCustomPlot* plot = customPlot();
  plot->clearPlottables();
  plot->clearItems();
  for (int c = 0; c < chains; ++c) {
    QCPGraph* g = plot->addGraph();
    g->setName(tr("chain %1").arg(c + 1));
    g->setPen(QPen(plot_style::translucent(plot_style::seriesColor(c), 200), 1.0));
  }
  if (bound > 0) {
    // A graph rather than an item, so that the bound has a legend entry and a CSV column.
    QCPGraph* line = plot->addGraph();
    line->setName(tr("e^−ε = %1").arg(bound, 0, 'g', 3));
    line->setPen(QPen(QColor(200, 30, 30), 1.5, Qt::DashLine));
  }
  if (warmup > 0) {
    auto* end = new QCPItemStraightLine(plot);
    end->point1->setCoords(warmup, 0);
    end->point2->setCoords(warmup, 1);
    end->setPen(QPen(QColor(90, 90, 90), 1, Qt::DotLine));
  }
  resetView();
  replotNow();
}

bool AcceptancePlot::appendSweeps(int chain, int firstSweep,
                                  const std::vector<double>& probability) {
  if (chain < 0 || chain >= chainCount()) return false;
  auto& s = sweeps_[static_cast<size_t>(chain)];
  if (firstSweep != static_cast<int>(s.size())) return false;
  s.insert(s.end(), probability.begin(), probability.end());
  return true;
}

void AcceptancePlot::refresh() { requestReplot(); }

void AcceptancePlot::prepareReplot() {
  QCustomPlot* plot = customPlot();
  int longest = 0;
  for (int c = 0; c < chainCount() && c < plot->graphCount(); ++c) {
    const auto& s = sweeps_[static_cast<size_t>(c)];
    QVector<double> x(static_cast<int>(s.size())), y(s.begin(), s.end());
    for (int i = 0; i < x.size(); ++i) x[i] = i;
    plot->graph(c)->setData(x, y, true);
    longest = std::max(longest, static_cast<int>(s.size()));
  }
  if (bound_ > 0 && plot->graphCount() > chainCount()) {
    plot->graph(chainCount())->setData({0.0, std::max(1.0, longest - 1.0)}, {bound_, bound_}, true);
  }
}

void AcceptancePlot::rescaleToData() {
  QCustomPlot* plot = customPlot();
  plot->rescaleAxes();
  // An empty plot's default range spanned −1..1.
  plot->yAxis->setRange(acceptanceAxisLower(bound_, plot->yAxis->range().lower), 1.02);
}

QString AcceptancePlot::shownMechanisms() const {
  if (chainCount() == 0) return {};
  return chainCount() == 1 ? tr("1 chain of the release")
                           : tr("%1 chains of the release").arg(chainCount());
}

PlotTable AcceptancePlot::plotTable() const {
  PlotTable t;
  t.columns = {QStringLiteral("chain"), QStringLiteral("sweep"),
               QStringLiteral("acceptance_probability"), QStringLiteral("bound")};
  for (int c = 0; c < chainCount(); ++c) {
    const auto& s = sweeps_[static_cast<size_t>(c)];
    for (size_t i = 0; i < s.size(); ++i) {
      t.rows.push_back({QString::number(c + 1), QString::number(i), plot_values::number(s[i]),
                        plot_values::number(bound_)});
    }
  }
  return t;
}

}  // namespace dpsynth::ui
