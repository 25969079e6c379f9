#include "ui/workspaces/study/study_violin_plot.h"

#include <qcustomplot.h>

#include <cmath>

#include "ui/plots/plot_style.h"
#include "ui/plots/plot_values.h"
#include "ui/plots/violin_plottable.h"

namespace dpsynth::ui {
namespace {
constexpr double kStudyLineHalfWidth = 0.46;  // a little wider than a violin (0.8)
}  // namespace

StudyViolinPlot::StudyViolinPlot(const QString& valueLabel, const QString& referenceName,
                                 const QString& exportName, QWidget* parent)
    : PlotWidget(parent), referenceName_(referenceName), exportName_(exportName) {
  QCustomPlot* plot = customPlot();
  plot->yAxis->setLabel(valueLabel);
  plot->xAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
  plot->xAxis->grid()->setVisible(false);
  plot_style::placeLegendAbove(plot, 3);
  rebuild();
  replotNow();
}

void StudyViolinPlot::setGroups(std::vector<StudyViolinGroup> groups) {
  // Rebuilt at once (the workspace calls this at most 5 times a second); painting is coalesced.
  groups_ = std::move(groups);
  rebuild();
  requestReplot();
}

void StudyViolinPlot::setValueLabel(const QString& label) {
  customPlot()->yAxis->setLabel(label);
  dirty_ = true;
  requestReplot();
}

void StudyViolinPlot::setReferenceName(const QString& name) {
  referenceName_ = name;
  dirty_ = true;
  requestReplot();
}

void StudyViolinPlot::setTitle(const QString& title) {
  title_ = title;
  updateCaption();
}

void StudyViolinPlot::prepareReplot() {
  if (dirty_) rebuild();
}

void StudyViolinPlot::rebuild() {
  dirty_ = false;
  QCustomPlot* plot = customPlot();
  plot->clearPlottables();
  reference_ = nullptr;
  violins_ = new ViolinPlottable(plot->xAxis, plot->yAxis);
  const QString measure = plot->yAxis->label();
  violins_->setName(measure.isEmpty() ? tr("over replicates")
                                      : tr("%1 over replicates").arg(measure));
  violins_->setPen(QPen(plot_style::seriesColor(0).darker(130), 1.2));
  violins_->setBrush(plot_style::translucent(plot_style::seriesColor(0), 110));
  auto ticker = plot->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
  ticker->clear();
  // Many cells (the 002 design has 17 with Δ): one-line labels turned aside, so they never
  // overlap; a few cells keep their two-line labels upright.
  const bool crowded = groups_.size() > 8;
  plot->xAxis->setTickLabelRotation(crowded ? -45 : 0);
  QVector<double> keys, values;
  for (std::size_t i = 0; i < groups_.size(); ++i) {
    const auto& group = groups_[i];
    const double key = static_cast<double>(i + 1);
    const QString oneLine = QString(group.label).replace(QLatin1Char('\n'), ' ');
    violins_->addViolin(key, group.values, oneLine);
    ticker->addTick(key, crowded ? oneLine : group.label);
    if (group.reference && std::isfinite(*group.reference)) {
      keys << key - kStudyLineHalfWidth << key + kStudyLineHalfWidth
           << key + kStudyLineHalfWidth + 0.01;
      values << *group.reference << *group.reference << std::nan("");  // NaN: a gap
    }
  }
  if (!keys.isEmpty()) {
    reference_ = plot->addGraph(plot->xAxis, plot->yAxis);
    reference_->setName(referenceName_);
    reference_->setPen(QPen(plot_style::seriesColor(1), 1.8, Qt::DashLine));
    reference_->setData(keys, values, true);
  }
  updateCaption();
}

void StudyViolinPlot::rescaleToData() {
  PlotWidget::rescaleToData();
  customPlot()->xAxis->setRange(0.4,
                                std::max<double>(1, static_cast<double>(groups_.size())) + 0.6);
}

PlotTable StudyViolinPlot::plotTable() const {
  PlotTable table;
  table.columns = {QStringLiteral("group"), QStringLiteral("kind"), QStringLiteral("value")};
  for (const auto& group : groups_) {
    const QString name = QString(group.label).replace(QLatin1Char('\n'), ' ');
    if (group.reference)
      table.rows.push_back(
          {name, QStringLiteral("reference"), plot_values::number(*group.reference)});
    for (double v : group.values)
      if (std::isfinite(v))
        table.rows.push_back({name, QStringLiteral("value"), plot_values::number(v)});
  }
  return table;
}

}  // namespace dpsynth::ui
