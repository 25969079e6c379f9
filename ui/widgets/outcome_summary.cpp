#include "ui/widgets/outcome_summary.h"

#include <qcustomplot.h>

#include <QLabel>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <vector>

namespace dpsynth::ui {

namespace {

/// The type-7 quantile utility::quantileSorted gives, from a partial sort of `v`: the order
/// statistic at floor(h) by nth_element and the next one as the least above it. O(n) instead
/// of a full sort per quantile, which on 10^6 records kept the GUI thread busy for most of a
/// second after every load.
double partialQuantile(std::vector<double>& v, double p) {
  const double h = static_cast<double>(v.size() - 1) * p;
  const auto lo = static_cast<std::size_t>(std::floor(h));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(lo), v.end());
  const double below = v[lo];
  if (lo + 1 >= v.size()) return below;
  const double above = *std::min_element(v.begin() + static_cast<std::ptrdiff_t>(lo) + 1, v.end());
  const double frac = h - static_cast<double>(lo);
  return below + frac * (above - below);
}

}  // namespace

OutcomeStatistics outcomeStatistics(const Eigen::VectorXd& y) {
  OutcomeStatistics s;
  s.n = static_cast<std::size_t>(y.size());
  if (y.size() == 0) return s;
  s.mean = y.mean();
  s.sd = y.size() > 1 ? std::sqrt((y.array() - s.mean).square().sum() / double(y.size() - 1)) : 0;
  s.min = y.minCoeff();
  s.max = y.maxCoeff();
  std::vector<double> values(y.data(), y.data() + y.size());
  s.q25 = partialQuantile(values, 0.25);
  s.median = partialQuantile(values, 0.5);
  s.q75 = partialQuantile(values, 0.75);
  return s;
}

OutcomeSummary::OutcomeSummary(QWidget* parent) : QWidget(parent) {
  label_ = new QLabel(this);
  label_->setObjectName(QStringLiteral("outcomeSummaryText"));
  label_->setWordWrap(true);
  label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  plot_ = new QCustomPlot(this);
  plot_->setObjectName(QStringLiteral("outcomeHistogram"));
  plot_->setMinimumHeight(90);
  plot_->setMaximumHeight(120);
  // A picture without interactions: the wheel over it scrolls the data pane (QCustomPlot took
  // every wheel event, so the pane stopped scrolling under the pointer).
  plot_->setAttribute(Qt::WA_TransparentForMouseEvents);
  plot_->axisRect()->setAutoMargins(QCP::msLeft | QCP::msBottom);
  plot_->axisRect()->setMargins(QMargins(0, 4, 4, 0));
  plot_->yAxis->setTickLabels(false);
  QFont small = font();
  small.setPointSizeF(small.pointSizeF() * 0.8);
  plot_->xAxis->setTickLabelFont(small);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(label_);
  layout->addWidget(plot_);
  clear();
}

void OutcomeSummary::clear(const QString& why) {
  stats_ = {};
  label_->setText(why.isEmpty() ? tr("No outcome chosen.") : why);
  plot_->clearPlottables();
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

QString OutcomeSummary::text() const { return label_->text(); }

void OutcomeSummary::setOutcome(const QString& name, const Eigen::VectorXd& y, bool integer) {
  stats_ = outcomeStatistics(y);
  const auto f = [](double v) { return QString::number(v, 'g', 5); };
  label_->setText(tr("<b>%1</b>: n = %2, mean %3, sd %4<br>min %5 · q25 %6 · median %7 · "
                     "q75 %8 · max %9")
                      .arg(name.toHtmlEscaped())
                      .arg(stats_.n)
                      .arg(f(stats_.mean), f(stats_.sd), f(stats_.min), f(stats_.q25),
                           f(stats_.median), f(stats_.q75), f(stats_.max)));

  plot_->clearPlottables();
  if (stats_.n == 0) return;
  // About √n bins, at most 40; count data gets whole-number bin widths.
  int bins = std::clamp(static_cast<int>(std::ceil(std::sqrt(double(stats_.n)))), 1, 40);
  double lo = stats_.min, hi = stats_.max;
  double width = (hi - lo) / bins;
  if (integer) {
    width = std::max(1.0, std::ceil(width));
    lo -= 0.5;
    bins = static_cast<int>(std::ceil((hi + 0.5 - lo) / width));
  }
  if (!(width > 0)) width = 1;
  QVector<double> centres(bins), counts(bins, 0.0);
  for (int b = 0; b < bins; ++b) centres[b] = lo + (b + 0.5) * width;
  for (Eigen::Index i = 0; i < y.size(); ++i) {
    const int b = std::clamp(static_cast<int>((y[i] - lo) / width), 0, bins - 1);
    counts[b] += 1;
  }
  auto* bars = new QCPBars(plot_->xAxis, plot_->yAxis);
  bars->setWidth(width);
  bars->setData(centres, counts, true);
  bars->setPen(QPen(QColor(40, 90, 160)));
  bars->setBrush(QColor(70, 130, 200, 160));
  plot_->rescaleAxes();
  plot_->yAxis->setRangeLower(0);
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace dpsynth::ui
