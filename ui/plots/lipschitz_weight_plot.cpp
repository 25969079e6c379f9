#include "ui/plots/lipschitz_weight_plot.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QHBoxLayout>
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "ui/plots/plot_style.h"
#include "ui/plots/plot_values.h"

namespace dpsynth::ui {
namespace {

using plot_values::number;

double finiteMax(const std::vector<double>& values) {
  double max = -std::numeric_limits<double>::infinity();
  for (double v : values) {
    if (std::isfinite(v)) max = std::max(max, v);
  }
  return max;
}

}  // namespace

LipschitzWeightPlot::LipschitzWeightPlot(QWidget* parent) : PlotWidget(parent) {
  QCustomPlot* plot = customPlot();
  plot->xAxis->setLabel(tr("Record weight αᵢ"));
  setAxisLabel(plot->yAxis, tr("By-record Lipschitz bound Δᵢ"), tr("Δᵢ"));
  plot_style::placeLegendAbove(plot, 2);

  selector_ = addSelector(tr("Mechanism:"));
  toolbar()->addStretch(1);
  connect(selector_, &QComboBox::currentIndexChanged, this,
          &LipschitzWeightPlot::setCurrentMechanism);
}

void LipschitzWeightPlot::setSeries(const std::vector<LipschitzWeightSeries>& series) {
  for (const auto& s : series) {
    if (s.weightsBefore.size() != s.deltaBefore.size() ||
        s.weightsAfter.size() != s.deltaAfter.size()) {
      throw std::invalid_argument(
          "LipschitzWeightPlot: weights and Lipschitz bounds differ in length");
    }
  }
  const QString previous = current_ >= 0 && current_ < seriesCount()
                               ? series_[static_cast<size_t>(current_)].mechanism
                               : QString();
  series_ = series;
  int index = series_.empty() ? -1 : 0;
  {
    const QSignalBlocker block(selector_);
    selector_->clear();
    for (size_t i = 0; i < series_.size(); ++i) {
      selector_->addItem(series_[i].mechanism);
      if (series_[i].mechanism == previous) index = static_cast<int>(i);  // keep the user's choice
    }
    selector_->setCurrentIndex(index);
  }
  current_ = index;
  rebuild();
  resetView();
}

void LipschitzWeightPlot::clear() { setSeries({}); }

void LipschitzWeightPlot::setCurrentMechanism(int index) {
  if (index < 0 || index >= seriesCount()) return;
  current_ = index;
  if (selector_->currentIndex() != index) {
    const QSignalBlocker block(selector_);
    selector_->setCurrentIndex(index);
  }
  rebuild();
  resetView();
}

void LipschitzWeightPlot::rebuild() {
  QCustomPlot* plot = customPlot();
  plot->clearPlottables();
  if (current_ < 0 || current_ >= seriesCount()) return;
  const LipschitzWeightSeries& s = series_[static_cast<size_t>(current_)];

  auto addStage = [&](const QString& name, const QColor& color, const std::vector<double>& weights,
                      const std::vector<double>& deltas) {
    if (weights.empty()) return;
    QCPGraph* scatter = plot->addGraph();
    scatter->setName(name);
    scatter->setLineStyle(QCPGraph::lsNone);
    scatter->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc,
                                             plot_style::translucent(color, 140),
                                             plot_style::translucent(color, 140), 5));
    scatter->setPen(QPen(color));
    QVector<double> x(weights.begin(), weights.end()), y(deltas.begin(), deltas.end());
    scatter->setData(x, y);  // sorts by weight

    const double max = finiteMax(deltas);
    if (!std::isfinite(max)) return;
    const auto [lo, hi] = std::minmax_element(weights.begin(), weights.end());
    QCPGraph* line = plot->addGraph();
    line->setName(tr("max Δ %1 = %2")
                      .arg(name.section(QLatin1Char(' '), 0, 0), QString::number(max, 'g', 4)));
    line->setPen(QPen(color, 1.6, Qt::DashLine));
    line->setData(QVector<double>{std::min(0.0, *lo), std::max(1.0, *hi)},
                  QVector<double>{max, max}, true);
  };
  addStage(tr("before re-weighting"), plot_style::seriesColor(5), s.weightsBefore, s.deltaBefore);
  addStage(tr("after re-weighting"), plot_style::seriesColor(1), s.weightsAfter, s.deltaAfter);
  if (s.weightsBefore.empty() && plot->graphCount() > 0) {
    // No re-weighting stage: there is only one set of weights, say so plainly.
    plot->graph(0)->setName(tr("final weights"));
    if (plot->graphCount() > 1) {
      plot->graph(1)->setName(
          tr("max Δ = %1").arg(QString::number(finiteMax(s.deltaAfter), 'g', 4)));
    }
  }
}

QString LipschitzWeightPlot::shownMechanisms() const {
  return current_ >= 0 && current_ < seriesCount()
             ? series_[static_cast<size_t>(current_)].mechanism
             : QString();
}

PlotTable LipschitzWeightPlot::plotTable() const {
  PlotTable table;
  table.columns = {QStringLiteral("mechanism"), QStringLiteral("stage"), QStringLiteral("weight"),
                   QStringLiteral("delta")};
  for (const LipschitzWeightSeries& s : series_) {
    for (size_t i = 0; i < s.weightsBefore.size(); ++i) {
      table.rows.push_back({s.mechanism, QStringLiteral("before"), number(s.weightsBefore[i]),
                            number(s.deltaBefore[i])});
    }
    for (size_t i = 0; i < s.weightsAfter.size(); ++i) {
      table.rows.push_back({s.mechanism, QStringLiteral("after"), number(s.weightsAfter[i]),
                            number(s.deltaAfter[i])});
    }
  }
  return table;
}

}  // namespace dpsynth::ui
