#include "ui/plots/posterior_density_plot.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QHBoxLayout>
#include <cmath>
#include <stdexcept>

#include "core/utility/kernel_density.h"
#include "ui/plots/plot_style.h"
#include "ui/plots/plot_values.h"

namespace dpsynth::ui {
namespace {

using plot_values::finite;
using plot_values::number;

}  // namespace

PosteriorDensityPlot::PosteriorDensityPlot(QWidget* parent) : PlotWidget(parent) {
  QCustomPlot* plot = customPlot();
  setAxisLabel(plot->yAxis, tr("Posterior density"), tr("Density"));
  plot_style::placeLegendAbove(plot, 4);

  mechanismSelector_ = addSelector(tr("Mechanism:"), QStringLiteral("posteriorMechanism"));
  selector_ = addSelector(tr("Parameter:"));
  toolbar()->addStretch(1);
  connect(selector_, &QComboBox::currentTextChanged, this,
          &PosteriorDensityPlot::setCurrentParameter);
  connect(mechanismSelector_, &QComboBox::currentIndexChanged, this, [this] {
    rebuild();
    resetView();
  });
}

void PosteriorDensityPlot::setCurrentMechanism(const QString& name) {
  const int index = name.isEmpty() ? 0 : mechanismSelector_->findText(name);
  if (index >= 0) mechanismSelector_->setCurrentIndex(index);
}

QString PosteriorDensityPlot::currentMechanism() const {
  return mechanismSelector_->currentIndex() > 0 ? mechanismSelector_->currentText() : QString();
}

QString PosteriorDensityPlot::shownMechanisms() const {
  if (!currentMechanism().isEmpty()) return currentMechanism();
  QStringList names;
  for (const auto& s : series_) names << s.mechanism;
  return names.join(QStringLiteral(", "));
}

void PosteriorDensityPlot::setSeries(const std::vector<PosteriorSeries>& series) {
  for (const auto& s : series) {
    if (s.draws.size() != s.parameterNames.size()) {
      throw std::invalid_argument(
          "PosteriorDensityPlot: one draw vector per parameter name expected");
    }
  }
  const QString previous = currentParameter();
  const QString previousMechanism = currentMechanism();
  series_ = series;
  {
    const QSignalBlocker block(mechanismSelector_);
    mechanismSelector_->clear();
    mechanismSelector_->addItem(tr("all mechanisms"));
    for (const auto& s : series_) mechanismSelector_->addItem(s.mechanism);
    const int keep = mechanismSelector_->findText(previousMechanism);
    mechanismSelector_->setCurrentIndex(previousMechanism.isEmpty() || keep < 0 ? 0 : keep);
  }
  const QStringList names = parameterNames();
  {
    const QSignalBlocker block(selector_);
    selector_->clear();
    selector_->addItems(names);
    selector_->setCurrentIndex(names.contains(previous) ? names.indexOf(previous) : 0);
  }
  rebuild();
  resetView();
}

void PosteriorDensityPlot::clear() { setSeries({}); }

QStringList PosteriorDensityPlot::parameterNames() const {
  QStringList names;
  for (const auto& s : series_) {
    for (const QString& name : s.parameterNames) {
      if (!names.contains(name)) names << name;
    }
  }
  return names;
}

void PosteriorDensityPlot::setCurrentParameter(const QString& name) {
  const int index = selector_->findText(name);
  if (index < 0) return;
  if (selector_->currentIndex() != index) {
    const QSignalBlocker block(selector_);
    selector_->setCurrentIndex(index);
  }
  rebuild();
  resetView();
}

QString PosteriorDensityPlot::currentParameter() const { return selector_->currentText(); }

void PosteriorDensityPlot::rebuild() {
  QCustomPlot* plot = customPlot();
  plot->clearPlottables();
  const QString parameter = currentParameter();
  plot->xAxis->setLabel(parameter.isEmpty() ? tr("Parameter value") : parameter);
  if (parameter.isEmpty()) return;
  for (size_t i = 0; i < series_.size(); ++i) {
    const PosteriorSeries& s = series_[i];
    if (!currentMechanism().isEmpty() && s.mechanism != currentMechanism()) continue;
    const auto it = std::find(s.parameterNames.begin(), s.parameterNames.end(), parameter);
    if (it == s.parameterNames.end()) continue;
    const std::vector<double> draws =
        finite(s.draws[static_cast<size_t>(it - s.parameterNames.begin())]);
    if (draws.size() < 2) continue;
    const auto est = core::utility::kernelDensity(draws, 512);
    const QColor color = plot_style::seriesColor(static_cast<int>(i));
    QCPGraph* graph = plot->addGraph();
    graph->setName(s.mechanism);
    graph->setPen(QPen(color, 1.8));
    graph->setBrush(plot_style::translucent(color, 30));
    graph->setData(QVector<double>(est.grid.begin(), est.grid.end()),
                   QVector<double>(est.density.begin(), est.density.end()), true);
  }
}

void PosteriorDensityPlot::rescaleToData() {
  PlotWidget::rescaleToData();
  customPlot()->yAxis->setRangeLower(0);
}

PlotTable PosteriorDensityPlot::plotTable() const {
  PlotTable table;
  table.columns = {QStringLiteral("mechanism"), QStringLiteral("parameter"),
                   QStringLiteral("draw")};
  for (const PosteriorSeries& s : series_) {
    for (size_t p = 0; p < s.parameterNames.size(); ++p) {
      for (double d : s.draws[p]) {
        if (std::isfinite(d)) table.rows.push_back({s.mechanism, s.parameterNames[p], number(d)});
      }
    }
  }
  return table;
}

}  // namespace dpsynth::ui
