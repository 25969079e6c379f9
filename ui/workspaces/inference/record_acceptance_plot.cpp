#include "ui/workspaces/inference/record_acceptance_plot.h"

#include <qcustomplot.h>

#include <algorithm>

#include "ui/plots/plot_style.h"
#include "ui/plots/plot_values.h"
#include "ui/workspaces/inference/acceptance_plot.h"

namespace dpsynth::ui {

RecordAcceptancePlot::RecordAcceptancePlot(QWidget* parent) : PlotWidget(parent) {
  QCustomPlot* plot = customPlot();
  plot->xAxis->setLabel(tr("Record (sorted by acceptance)"));
  plot->yAxis->setLabel(tr("Mean acceptance probability"));
  plot_style::placeLegendAbove(plot, 4);
  plot->yAxis->setRange(0, 1.02);  // a probability, also before any record
}

void RecordAcceptancePlot::clear() { setRecords({}, 0.0); }

void RecordAcceptancePlot::setRecords(std::vector<double> perRecord, double bound) {
  sorted_ = std::move(perRecord);
  std::sort(sorted_.begin(), sorted_.end());
  bound_ = bound;
  QCustomPlot* plot = customPlot();
  plot->clearPlottables();
  if (!sorted_.empty()) {
    QCPGraph* g = plot->addGraph();
    g->setName(tr("records (%1)").arg(sorted_.size()));
    g->setPen(QPen(plot_style::seriesColor(0), 1.5));
    g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 3));
    QVector<double> x(static_cast<int>(sorted_.size())), y(sorted_.begin(), sorted_.end());
    for (int i = 0; i < x.size(); ++i) x[i] = i + 1;
    g->setData(x, y, true);
    if (bound > 0) {
      QCPGraph* line = plot->addGraph();
      line->setName(tr("e^−ε = %1").arg(bound, 0, 'g', 3));
      line->setPen(QPen(QColor(200, 30, 30), 1.5, Qt::DashLine));
      line->setData({1.0, std::max(2.0, static_cast<double>(sorted_.size()))}, {bound, bound},
                    true);
    }
  }
  resetView();
}

void RecordAcceptancePlot::rescaleToData() {
  PlotWidget::rescaleToData();
  // Also before any record (the empty plot's axis ran 0..5).
  customPlot()->yAxis->setRange(
      acceptanceAxisLower(bound_, sorted_.empty() ? 0.0 : sorted_.front()), 1.02);
}

QString RecordAcceptancePlot::shownMechanisms() const {
  return sorted_.empty() ? QString() : tr("%1 latent records, all chains").arg(sorted_.size());
}

PlotTable RecordAcceptancePlot::plotTable() const {
  PlotTable t;
  t.columns = {QStringLiteral("rank"), QStringLiteral("acceptance_probability"),
               QStringLiteral("bound")};
  for (size_t i = 0; i < sorted_.size(); ++i) {
    t.rows.push_back(
        {QString::number(i + 1), plot_values::number(sorted_[i]), plot_values::number(bound_)});
  }
  return t;
}

}  // namespace dpsynth::ui
