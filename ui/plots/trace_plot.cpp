#include "ui/plots/trace_plot.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QHBoxLayout>
#include <stdexcept>

#include "ui/plots/plot_style.h"

namespace dpsynth::ui {

TracePlot::TracePlot(QWidget* parent) : PlotWidget(parent) {
  QCustomPlot* plot = customPlot();
  plot->xAxis->setLabel(tr("Iteration"));
  plot->yAxis->setLabel(tr("Value"));
  plot_style::placeLegendAbove(plot, 8);

  mechanismSelector_ = addSelector(tr("Mechanism:"), QStringLiteral("traceMechanism"));
  selector_ = addSelector(tr("Parameter:"));
  toolbar()->addStretch(1);
  connect(selector_, &QComboBox::currentIndexChanged, this, &TracePlot::setCurrentParameter);
  connect(mechanismSelector_, &QComboBox::currentTextChanged, this, [this](const QString& name) {
    if (!live_) setCurrentMechanism(name);
  });
}

void TracePlot::setLiveSource(const QString& mechanism, const QString& stage) {
  live_ = true;
  mechanism_ = mechanism;
  stage_ = stage;
  finished_.clear();
  const QSignalBlocker block(mechanismSelector_);
  mechanismSelector_->clear();
  mechanismSelector_->addItem(tr("%1 (sampling now)").arg(mechanism));
  updateCaption();
}

void TracePlot::endLive() {
  if (!live_) return;
  live_ = false;
  if (pointCount() == 0) {
    mechanism_.clear();
    stage_.clear();
    clearTraces({}, 0);  // no parameter chooser nor axis label of a stage that drew nothing
  }
  const QSignalBlocker block(mechanismSelector_);
  mechanismSelector_->clear();
  if (!mechanism_.isEmpty()) mechanismSelector_->addItem(mechanism_);
  updateCaption();
}

void TracePlot::setMechanismTraces(const std::vector<MechanismTraces>& traces) {
  const QString previous = mechanism_;
  live_ = false;
  finished_ = traces;
  {
    const QSignalBlocker block(mechanismSelector_);
    mechanismSelector_->clear();
    for (const auto& t : finished_) mechanismSelector_->addItem(t.mechanism);
  }
  mechanism_.clear();
  stage_.clear();
  const bool keep = std::any_of(finished_.begin(), finished_.end(),
                                [&](const MechanismTraces& t) { return t.mechanism == previous; });
  if (keep) {
    setCurrentMechanism(previous);
  } else if (!finished_.empty()) {
    setCurrentMechanism(finished_.front().mechanism);
  } else {
    clearTraces({}, 0);
  }
}

void TracePlot::setCurrentMechanism(const QString& mechanism) {
  const auto it = std::find_if(finished_.begin(), finished_.end(),
                               [&](const MechanismTraces& t) { return t.mechanism == mechanism; });
  if (it == finished_.end()) return;
  const int parameter = current_;
  const MechanismTraces chosen = *it;  // clearTraces below must not see a moving target
  clearTraces(chosen.parameterNames, static_cast<int>(chosen.chains.size()));
  for (size_t c = 0; c < chosen.chains.size(); ++c)
    appendDraws(static_cast<int>(c), 0, chosen.chains[c]);
  mechanism_ = chosen.mechanism;
  stage_ = chosen.stage;
  {
    const QSignalBlocker block(mechanismSelector_);
    mechanismSelector_->setCurrentIndex(mechanismSelector_->findText(chosen.mechanism));
  }
  if (parameter < parameterNames_.size()) setCurrentParameter(parameter);
  replotNow();
}

QString TracePlot::shownMechanisms() const {
  if (mechanism_.isEmpty() || chains_ == 0) return {};
  // Kept draws stream in after warm-up: until the first of them the plot says it waits.
  const QString what = !live_       ? tr("chains of %1")
                       : liveDrawn_ ? tr("chains of %1, sampling now")
                                    : tr("chains of %1 in warm-up: draws appear after it");
  return stage_.isEmpty() || stage_ == mechanism_
             ? what.arg(mechanism_)
             : what.arg(mechanism_) + tr(" (stage %1)").arg(stage_);
}

void TracePlot::clearTraces(const QStringList& parameterNames, int chains) {
  if (chains < 0) throw std::invalid_argument("TracePlot: negative chain count");
  parameterNames_ = parameterNames;
  chains_ = chains;
  current_ = 0;
  warmupEnd_ = 0;
  liveDrawn_ = false;
  traces_.assign(static_cast<size_t>(chains) * static_cast<size_t>(parameterNames.size()),
                 TraceDecimator(kMaxPointsPerChain));
  {
    const QSignalBlocker block(selector_);
    selector_->clear();
    selector_->addItems(parameterNames);
  }
  rebuildGraphs();
  resetView();
}

bool TracePlot::appendDraws(int chain, std::int64_t firstDraw, const std::vector<double>& draws) {
  const auto p = static_cast<size_t>(parameterNames_.size());
  if (chain < 0 || chain >= chains_ || p == 0 || draws.size() % p != 0 || firstDraw < 0) {
    return false;
  }
  const size_t count = draws.size() / p;
  for (size_t j = 0; j < count; ++j) {
    for (size_t k = 0; k < p; ++k) {
      traces_[static_cast<size_t>(chain) * p + k].append(firstDraw + static_cast<std::int64_t>(j),
                                                         draws[j * p + k]);
    }
  }
  requestReplot();  // graphs are refreshed from the decimators in the coalesced replot
  if (count > 0 && !liveDrawn_) {
    liveDrawn_ = true;
    updateCaption();
  }
  return true;
}

void TracePlot::setWarmupEnd(std::int64_t iteration) {
  warmupEnd_ = iteration;
  rebuildGraphs();
  requestReplot();
}

void TracePlot::setCurrentParameter(int index) {
  if (index < 0 || index >= parameterNames_.size()) return;
  current_ = index;
  if (selector_->currentIndex() != index) selector_->setCurrentIndex(index);
  rebuildGraphs();
  resetView();
}

const TraceDecimator& TracePlot::trace(int chain, int parameter) const {
  return traces_.at(static_cast<size_t>(chain) * static_cast<size_t>(parameterNames_.size()) +
                    static_cast<size_t>(parameter));
}

void TracePlot::rebuildGraphs() {
  QCustomPlot* plot = customPlot();
  plot->clearPlottables();
  plot->clearItems();
  for (int c = 0; c < chains_; ++c) {
    QCPGraph* graph = plot->addGraph();
    graph->setName(tr("chain %1").arg(c + 1));
    graph->setPen(QPen(plot_style::translucent(plot_style::seriesColor(c), 200), 1.0));
    graph->setAdaptiveSampling(false);  // already decimated; keep the spikes we kept
  }
  if (warmupEnd_ > 0) {
    auto* line = new QCPItemStraightLine(plot);
    line->point1->setCoords(static_cast<double>(warmupEnd_), 0);
    line->point2->setCoords(static_cast<double>(warmupEnd_), 1);
    line->setPen(QPen(QColor(90, 90, 90), 1, Qt::DashLine));
  }
  refreshGraphData();
}

void TracePlot::refreshGraphData() {
  QCustomPlot* plot = customPlot();
  if (parameterNames_.isEmpty()) {
    plot->yAxis->setLabel(tr("Value"));  // not the last run's parameter
    return;
  }
  std::vector<double> x, y;
  for (int c = 0; c < chains_ && c < plot->graphCount(); ++c) {
    trace(c, current_).points(x, y);
    plot->graph(c)->setData(QVector<double>(x.begin(), x.end()),
                            QVector<double>(y.begin(), y.end()), true);
  }
  plot->yAxis->setLabel(parameterNames_.value(current_));
}

PlotTable TracePlot::plotTable() const {
  PlotTable table;
  table.columns = {QStringLiteral("mechanism"), QStringLiteral("parameter"),
                   QStringLiteral("chain"), QStringLiteral("iteration"), QStringLiteral("value")};
  std::vector<double> x, y;
  for (int k = 0; k < parameterNames_.size(); ++k) {
    for (int c = 0; c < chains_; ++c) {
      trace(c, k).points(x, y);
      for (size_t i = 0; i < x.size(); ++i) {
        table.rows.push_back({mechanism_, parameterNames_[k], QString::number(c + 1),
                              QString::number(static_cast<qint64>(x[i])),
                              QString::number(y[i], 'g', 12)});
      }
    }
  }
  return table;
}

}  // namespace dpsynth::ui
