#include "ui/workspaces/frontier/frontier_plot.h"

#include <qcustomplot.h>

#include <QMouseEvent>
#include <cmath>
#include <limits>

#include "core/data/csv_writer.h"
#include "ui/plots/plot_style.h"
#include "ui/workspaces/frontier/frontier_form.h"

namespace dpsynth::ui {
namespace {

namespace study = core::study;
using core::pipeline::Guarantee;

/// A click or hover this close to a point (in pixels) is on the point.
constexpr double kPickRadius = 8.0;

QString frontierNum(double v) { return QString::number(v, 'g', 4); }

QString guaranteeWords(Guarantee g) {
  return QString::fromStdString(study::frontierGuaranteeLabel(g));
}

Qt::PenStyle lineFor(Guarantee g) {
  switch (g) {
    case Guarantee::DP:
      return Qt::SolidLine;
    case Guarantee::aDP:
      return Qt::DashLine;
    case Guarantee::none:
      return Qt::DotLine;
  }
  return Qt::DotLine;
}

/// The range a measure can take where it has one, so that one wild replicate (a CI overlap of
/// −8000 when a fit diverges) does not squash every other point into a line.
std::optional<std::pair<double, double>> measureBounds(const QString& measure) {
  if (measure == QLatin1String("max_ecdf") || measure == QLatin1String("avg_ecdf") ||
      measure == QLatin1String("replicated_uniques") || measure == QLatin1String("attribute_cap") ||
      measure == QLatin1String("attribute_cap_baseline") || measure == QLatin1String("dcr_share"))
    return std::pair{0.0, 1.0};
  if (measure == QLatin1String("ci_overlap")) return std::pair{-1.0, 1.0};
  if (measure == QLatin1String("pmse")) return std::pair{0.0, 0.25};
  return std::nullopt;
}

}  // namespace

std::pair<double, double> frontierAxisRange(const std::vector<double>& medians,
                                            const std::vector<double>& bandEdges,
                                            const QString& measure) {
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  const auto bounds = measureBounds(measure);
  const auto inBounds = [&bounds](double v) {
    return std::isfinite(v) && (!bounds || (v >= bounds->first && v <= bounds->second));
  };
  for (double m : medians) {
    if (!inBounds(m)) continue;
    lo = std::min(lo, m);
    hi = std::max(hi, m);
  }
  if (!std::isfinite(lo)) {  // every median outside the measure's range (or none)
    return bounds ? *bounds : std::pair{0.0, 1.0};
  }
  // The bands widen the axis only as far as the medians' own spread again: an interquartile
  // range reaching −8000 is clipped, its band runs off the plot.
  const double span = std::max(hi - lo, std::max(0.05 * std::abs(hi), 1e-3));
  double bandLo = lo, bandHi = hi;
  for (double e : bandEdges) {
    if (!inBounds(e)) continue;
    if (e >= lo - span) bandLo = std::min(bandLo, e);
    if (e <= hi + span) bandHi = std::max(bandHi, e);
  }
  const double pad = 0.08 * (bandHi - bandLo > 0 ? bandHi - bandLo : span);
  lo = bandLo - pad;
  hi = bandHi + pad;
  if (bounds) {
    lo = std::max(lo, bounds->first - 0.02 * (bounds->second - bounds->first));
    hi = std::min(hi, bounds->second + 0.02 * (bounds->second - bounds->first));
  }
  return {lo, hi};
}

QString frontierSettingsText(const study::FrontierPoint& p) {
  QStringList tuning;
  if (p.c) tuning << QStringLiteral("c = %1").arg(QString::fromStdString(p.cText()));
  if (p.g) tuning << QStringLiteral("g = %1").arg(QString::fromStdString(p.gText()));
  if (p.hasDownscale)
    tuning << QStringLiteral("d = %1").arg(QString::fromStdString(p.downscaleText()));
  const QString eps = p.epsilon ? QStringLiteral("ε = %1").arg(frontierNum(*p.epsilon))
                                : QStringLiteral("ε_x ≈ %1").arg(frontierNum(p.x));
  return tuning.isEmpty() ? eps : QStringLiteral("%1 (%2)").arg(eps, tuning.join(", "));
}

FrontierPlot::FrontierPlot(QWidget* parent) : PlotWidget(parent) {
  QCustomPlot* plot = customPlot();
  plot->xAxis->setScaleType(QCPAxis::stLogarithmic);
  plot->xAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
  plot->xAxis->setNumberFormat(QStringLiteral("gb"));
  plot->xAxis->setLabel(tr("risk: ε (log scale; ε_x for mechanisms without an ε target)"));
  plot->legend->setVisible(true);
  plot_style::placeLegendAbove(plot, 3);
  connect(plot, &QCustomPlot::mousePress, this,
          [this](QMouseEvent* e) { pressPixel_ = e->position(); });
  connect(plot, &QCustomPlot::mouseRelease, this, [this](QMouseEvent* e) {
    if (e->button() != Qt::LeftButton) return;
    if (QLineF(pressPixel_, e->position()).length() > 4) return;  // a drag, not a click
    if (const auto i = pointAt(e->position())) emit pointClicked(points_[*i]);
  });
}

void FrontierPlot::setXAxis(XAxis axis) {
  QCustomPlot* plot = customPlot();
  logX_ = axis == XAxis::epsilon;
  if (logX_) {
    plot->xAxis->setScaleType(QCPAxis::stLogarithmic);
    plot->xAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    plot->xAxis->setLabel(tr("risk: ε (log scale; ε_x for mechanisms without an ε target)"));
  } else {
    plot->xAxis->setScaleType(QCPAxis::stLinear);
    plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    plot->xAxis->setLabel(
        tr("risk: attribute CAP − baseline (median; what the synthetic file "
           "adds to correct attribution; internal)"));
  }
  dirty_ = true;
  requestReplot();
}

void FrontierPlot::setPoints(std::vector<study::FrontierPoint> points, const QString& measure) {
  points_ = std::move(points);
  measure_ = measure;
  dirty_ = true;
  requestReplot();
}

void FrontierPlot::prepareReplot() {
  if (!dirty_) return;
  dirty_ = false;
  QCustomPlot* plot = customPlot();
  plot->clearGraphs();
  graphs_.clear();
  failedGraph_ = nullptr;
  plot->yAxis->setLabel(tr("%1 (median, IQR band)").arg(FrontierForm::measureTitle(measure_)));
  // Points of a series are consecutive (frontierPoints sorts them).
  for (std::size_t i = 0; i < points_.size();) {
    std::size_t end = i;
    while (end < points_.size() && points_[end].series == points_[i].series) ++end;
    const QColor color = plot_style::seriesColor(static_cast<int>(graphs_.size()));
    // The series is styled by what the mechanism gives when its diagnostics pass (the
    // strongest guarantee over its runs); runs that failed them are marked per point below.
    Guarantee g = Guarantee::none;
    for (std::size_t k = i; k < end; ++k)
      if (points_[k].bestGuarantee == Guarantee::DP ||
          (points_[k].bestGuarantee == Guarantee::aDP && g == Guarantee::none))
        g = points_[k].bestGuarantee;
    SeriesGraphs s;
    s.series = QString::fromStdString(points_[i].series);
    s.guarantee = g;
    s.q1 = plot->addGraph();
    s.q3 = plot->addGraph();
    s.median = plot->addGraph();
    for (QCPGraph* edge : {s.q1, s.q3}) {
      edge->setPen(QPen(plot_style::translucent(color, 90), 1));
      edge->removeFromLegend();
      edge->setSelectable(QCP::stNone);
    }
    s.q1->setName(s.series + QStringLiteral(" Q1"));
    s.q3->setName(s.series + QStringLiteral(" Q3"));
    s.q3->setBrush(plot_style::translucent(color, 55));
    s.q3->setChannelFillGraph(s.q1);
    QPen pen(color, 2);
    pen.setStyle(lineFor(g));
    s.median->setPen(pen);
    const QBrush marker = g == Guarantee::DP ? QBrush(color) : QBrush(Qt::white);
    s.median->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(color, 1.6), marker, 8));
    bool marginalOnly = false;
    for (std::size_t k = i; k < end; ++k) marginalOnly = marginalOnly || points_[k].marginalOnly;
    // Said where it is read, not only on hover: such a mechanism ignores the covariates.
    s.median->setName(
        QStringLiteral("%1 — %2%3")
            .arg(s.series, guaranteeWords(g),
                 marginalOnly ? tr(" · marginal only (ignores the covariates)") : QString()));
    for (std::size_t k = i; k < end; ++k) {
      const auto& p = points_[k];
      s.median->addData(p.x, p.value.median);
      s.q1->addData(p.x, p.value.q1);
      s.q3->addData(p.x, p.value.q3);
    }
    graphs_.push_back(s);
    i = end;
  }
  // Points where some replicate had no guarantee (its DP stage failed the diagnostics, so the
  // report would refuse that release): a red cross over the marker.
  QCPGraph* failed = nullptr;
  for (const auto& p : points_) {
    if (p.withoutGuarantee == 0) continue;
    if (!failed) {
      failed = plot->addGraph();
      failed->setLineStyle(QCPGraph::lsNone);
      failed->setScatterStyle(
          QCPScatterStyle(QCPScatterStyle::ssCross, QPen(QColor(200, 30, 30), 2), Qt::NoBrush, 13));
      failed->setName(tr("no guarantee in some replicates (diagnostics failed)"));
    }
    failed->addData(p.x, p.value.median);
  }
  failedGraph_ = failed;
  beyondGraph_ = plot->addGraph();
  beyondGraph_->setLineStyle(QCPGraph::lsNone);
  beyondGraph_->setScatterStyle(
      QCPScatterStyle(QCPScatterStyle::ssTriangle, QPen(QColor(90, 90, 90), 1.5), Qt::NoBrush, 11));
  beyondGraph_->setName(tr("median beyond the axis (hover for its value)"));
}

void FrontierPlot::rescaleToData() {
  QCustomPlot* plot = customPlot();
  if (points_.empty()) {
    plot->xAxis->setRange(0.25, 16);
    plot->yAxis->setRange(0, 1);
    return;
  }
  double xlo = std::numeric_limits<double>::infinity(), xhi = -xlo;
  std::vector<double> medians, edges;
  for (const auto& p : points_) {
    if (p.x > 0 || !logX_) {
      xlo = std::min(xlo, p.x);
      xhi = std::max(xhi, p.x);
    }
    medians.push_back(p.value.median);
    edges.push_back(p.value.q1);
    edges.push_back(p.value.q3);
  }
  if (!std::isfinite(xlo)) xlo = 0.25, xhi = 16;
  if (logX_) {
    plot->xAxis->setRange(xlo / 1.4, xhi * 1.4);  // air on a log axis is a factor
  } else {
    const double pad = xhi > xlo ? 0.08 * (xhi - xlo) : 0.05;
    plot->xAxis->setRange(xlo - pad, xhi + pad);
  }
  const auto [ylo, yhi] = frontierAxisRange(medians, edges, measure_);
  plot->yAxis->setRange(ylo, yhi);
  // Medians beyond the axis: an arrow at its edge (hover and click work there too).
  QCPGraph* beyond = beyondGraph_;
  if (beyond) {
    beyond->data()->clear();
    for (const auto& p : points_) {
      if (p.value.median < ylo) beyond->addData(p.x, ylo);
      if (p.value.median > yhi) beyond->addData(p.x, yhi);
    }
    beyond->setVisible(!beyond->data()->isEmpty());
    if (beyond->data()->isEmpty()) beyond->removeFromLegend();
  }
}

QPointF FrontierPlot::pointPixel(std::size_t index) const {
  const auto& p = points_.at(index);
  // A median beyond the axis sits on its edge, where its arrow is drawn.
  const QCPRange range = customPlot()->yAxis->range();
  const double y = std::clamp(p.value.median, range.lower, range.upper);
  return {customPlot()->xAxis->coordToPixel(p.x), customPlot()->yAxis->coordToPixel(y)};
}

std::optional<std::size_t> FrontierPlot::pointAt(const QPointF& pixel) const {
  std::optional<std::size_t> best;
  double bestDistance = kPickRadius;
  for (std::size_t i = 0; i < points_.size(); ++i) {
    if (logX_ && !(points_[i].x > 0)) continue;
    const double d = QLineF(pointPixel(i), pixel).length();
    if (d <= bestDistance) {
      bestDistance = d;
      best = i;
    }
  }
  return best;
}

QString FrontierPlot::toolTipAt(const QPointF& pixel) const {
  const auto i = pointAt(pixel);
  if (!i) return PlotWidget::toolTipAt(pixel);
  const auto& p = points_[*i];
  QString text = QStringLiteral("%1 — %2\n%3\n%4: median %5, Q1 %6, Q3 %7 (n = %8)")
                     .arg(QString::fromStdString(p.mechanism), guaranteeWords(p.bestGuarantee),
                          frontierSettingsText(p), measure_, frontierNum(p.value.median),
                          frontierNum(p.value.q1), frontierNum(p.value.q3))
                     .arg(p.value.n);
  if (p.epsilon && p.bestGuarantee != Guarantee::DP && p.guaranteeEpsilon.n > 0)
    text += tr("\nε_x (the guarantee's ε): median %1").arg(frontierNum(p.guaranteeEpsilon.median));
  if (p.withoutGuarantee > 0)
    text += tr("\nno guarantee in %1 of %2 replicates: the DP stage failed its diagnostics "
               "(such a release is refused)")
                .arg(p.withoutGuarantee)
                .arg(p.value.n);
  if (p.marginalOnly) text += tr("\nmarginal only: ignores the covariates");
  const QCPRange range = customPlot()->yAxis->range();
  if (p.value.median < range.lower || p.value.median > range.upper)
    text += tr("\nbeyond the axis (shown at its edge)");
  return text + tr("\nClick to load these settings into Synthesis");
}

PlotTable FrontierPlot::plotTable() const {
  PlotTable t;
  t.columns = {"series",
               "mechanism",
               "guarantee",
               "epsilon",
               "c",
               "g",
               "downscale",
               "x",
               "measure",
               "n",
               "median",
               "q1",
               "q3",
               "epsilon_guarantee_median",
               "replicates_without_guarantee"};
  const auto num = [](double v) { return QString::fromStdString(core::data::formatNumber(v)); };
  for (const auto& p : points_) {
    t.rows.push_back({QString::fromStdString(p.series), QString::fromStdString(p.mechanism),
                      QString::fromStdString(core::pipeline::guaranteeName(p.bestGuarantee)),
                      QString::fromStdString(p.epsilonText()), QString::fromStdString(p.cText()),
                      QString::fromStdString(p.gText()), QString::fromStdString(p.downscaleText()),
                      num(p.x), measure_, QString::number(p.value.n), num(p.value.median),
                      num(p.value.q1), num(p.value.q3),
                      p.guaranteeEpsilon.n > 0 ? num(p.guaranteeEpsilon.median) : QString(),
                      QString::number(p.withoutGuarantee)});
  }
  return t;
}

QString FrontierPlot::shownMechanisms() const {
  QStringList names;
  for (const auto& p : points_) {
    const QString m = QString::fromStdString(p.mechanism);
    if (!names.contains(m)) names << m;
  }
  return names.join(QStringLiteral(", "));
}

}  // namespace dpsynth::ui
