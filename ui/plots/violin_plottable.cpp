#include "ui/plots/violin_plottable.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/utility/kernel_density.h"

namespace dpsynth::ui {
namespace {

double quantile(const std::vector<double>& sorted, double p) {
  const double h = (static_cast<double>(sorted.size()) - 1) * p;
  const auto lo = static_cast<size_t>(std::floor(h));
  const size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (h - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

double segmentDistance(const QPointF& p, const QPointF& a, const QPointF& b) {
  const QPointF ab = b - a;
  const double len2 = QPointF::dotProduct(ab, ab);
  const double t = len2 > 0 ? std::clamp(QPointF::dotProduct(p - a, ab) / len2, 0.0, 1.0) : 0.0;
  const QPointF d = p - (a + t * ab);
  return std::sqrt(QPointF::dotProduct(d, d));
}

bool inDomain(double v, QCP::SignDomain domain) {
  return domain == QCP::sdBoth || (domain == QCP::sdPositive && v > 0) ||
         (domain == QCP::sdNegative && v < 0);
}

QString violinNumber(double v) { return QString::number(v, 'g', 4); }

}  // namespace

ViolinPlottable::ViolinPlottable(QCPAxis* keyAxis, QCPAxis* valueAxis)
    : QCPAbstractPlottable(keyAxis, valueAxis) {
  setPen(QPen(QColor(40, 40, 40), 1.2));
  setBrush(QColor(0, 114, 178, 90));
  setSelectable(QCP::stSingleData);
}

ViolinPlottable::~ViolinPlottable() = default;

int ViolinPlottable::addViolin(double key, std::span<const double> values, const QString& label) {
  ViolinStats stats;
  stats.key = key;
  stats.label = label;
  violins_.push_back(std::move(stats));
  samples_.emplace_back();
  const int index = violinCount() - 1;
  setViolinData(index, values);
  return index;
}

void ViolinPlottable::setViolinData(int index, std::span<const double> values) {
  auto& sorted = samples_.at(static_cast<size_t>(index));
  sorted.clear();
  sorted.reserve(values.size());
  for (double v : values) {
    if (std::isfinite(v)) sorted.push_back(v);
  }
  std::sort(sorted.begin(), sorted.end());
  computeStats(violins_.at(static_cast<size_t>(index)), sorted);
}

void ViolinPlottable::computeStats(ViolinStats& s, std::vector<double>& sorted) const {
  s.count = static_cast<int>(sorted.size());
  s.grid.clear();
  s.density.clear();
  s.maxDensity = 0;
  s.bandwidth = 0;
  if (sorted.empty()) return;
  s.min = sorted.front();
  s.max = sorted.back();
  s.q1 = quantile(sorted, 0.25);
  s.median = quantile(sorted, 0.5);
  s.q3 = quantile(sorted, 0.75);
  const double fence = 1.5 * (s.q3 - s.q1);
  s.whiskerLow = *std::lower_bound(sorted.begin(), sorted.end(), s.q1 - fence);
  s.whiskerHigh = *(std::upper_bound(sorted.begin(), sorted.end(), s.q3 + fence) - 1);
  if (s.count < 2 || !(s.max > s.min)) return;  // no spread: drawn as a bar at the value
  const auto est = trim_ ? core::utility::kernelDensityOn(sorted, s.min, s.max, gridSize_)
                         : core::utility::kernelDensity(sorted, gridSize_);
  s.grid = est.grid;
  s.density = est.density;
  s.bandwidth = est.bandwidth;
  s.maxDensity = *std::max_element(s.density.begin(), s.density.end());
}

void ViolinPlottable::clearData() {
  violins_.clear();
  samples_.clear();
}

int ViolinPlottable::sampleCount() const {
  int n = 0;
  for (const auto& v : violins_) n += v.count;
  return n;
}

void ViolinPlottable::setWidth(double width) { width_ = width > 0 ? width : width_; }
void ViolinPlottable::setScaleMode(ScaleMode mode) { scaleMode_ = mode; }
void ViolinPlottable::setMedianStyle(MedianStyle style) { medianStyle_ = style; }
void ViolinPlottable::setShowBox(bool show) { showBox_ = show; }
void ViolinPlottable::setShowWhiskers(bool show) { showWhiskers_ = show; }

void ViolinPlottable::setTrimToRange(bool trim) {
  if (trim == trim_) return;
  trim_ = trim;
  for (size_t i = 0; i < violins_.size(); ++i) computeStats(violins_[i], samples_[i]);
}

void ViolinPlottable::setGridSize(int points) {
  points = std::max(points, 16);
  if (points == gridSize_) return;
  gridSize_ = points;
  for (size_t i = 0; i < violins_.size(); ++i) computeStats(violins_[i], samples_[i]);
}

double ViolinPlottable::densityScale(int index) const {
  double reference = violin(index).maxDensity;
  if (scaleMode_ == ScaleMode::SameArea) {
    for (const auto& v : violins_) reference = std::max(reference, v.maxDensity);
  }
  return reference > 0 ? 0.5 * width_ / reference : 0;
}

double ViolinPlottable::halfWidthAt(int index, double value) const {
  const ViolinStats& s = violin(index);
  if (s.grid.size() < 2 || value < s.grid.front() || value > s.grid.back()) return 0;
  const double step = (s.grid.back() - s.grid.front()) / static_cast<double>(s.grid.size() - 1);
  const double t = (value - s.grid.front()) / step;
  const auto k = std::min(static_cast<size_t>(t), s.grid.size() - 2);
  const double frac = t - static_cast<double>(k);
  return ((1 - frac) * s.density[k] + frac * s.density[k + 1]) * densityScale(index);
}

QPolygonF ViolinPlottable::outline(int index) const {
  const ViolinStats& s = violin(index);
  QPolygonF polygon;
  if (s.grid.empty()) return polygon;
  const double scale = densityScale(index);
  polygon.reserve(static_cast<qsizetype>(2 * s.grid.size()));
  for (size_t k = 0; k < s.grid.size(); ++k) {
    polygon << coordsToPixels(s.key + s.density[k] * scale, s.grid[k]);
  }
  for (size_t k = s.grid.size(); k-- > 0;) {
    polygon << coordsToPixels(s.key - s.density[k] * scale, s.grid[k]);
  }
  return polygon;
}

int ViolinPlottable::violinAt(const QPointF& pixel) const {
  QVariant details;
  if (selectTest(pixel, false, &details) < 0) return -1;
  const auto selection = details.value<QCPDataSelection>();
  return selection.isEmpty() ? -1 : selection.dataRange(0).begin();
}

QString ViolinPlottable::describe(int index) const {
  const ViolinStats& s = violin(index);
  QString text = s.label.isEmpty() ? name() : s.label;
  if (!s.label.isEmpty() && !name().isEmpty()) text += QStringLiteral(" (%1)").arg(name());
  if (s.count == 0) return text + tr("\nno data");
  text += tr("\nn = %1\nmedian = %2\nquartiles = %3 – %4\nrange = %5 – %6")
              .arg(s.count)
              .arg(violinNumber(s.median), violinNumber(s.q1), violinNumber(s.q3),
                   violinNumber(s.min), violinNumber(s.max));
  return text;
}

double ViolinPlottable::selectTest(const QPointF& pos, bool onlySelectable,
                                   QVariant* details) const {
  if ((onlySelectable && mSelectable == QCP::stNone) || violins_.empty()) return -1;
  if (!mKeyAxis || !mValueAxis) return -1;
  if (!mKeyAxis->axisRect()->rect().contains(pos.toPoint())) return -1;
  const double tolerance = mParentPlot->selectionTolerance();
  double best = std::numeric_limits<double>::max();
  int bestIndex = -1;
  for (int i = 0; i < violinCount(); ++i) {
    const ViolinStats& s = violin(i);
    if (s.count == 0) continue;
    double distance;
    const QPolygonF polygon = outline(i);
    if (polygon.size() >= 3 && polygon.containsPoint(pos, Qt::OddEvenFill)) {
      distance = 0.99 * tolerance;  // like QCPBars: inside counts as a hit but lets items win
    } else if (polygon.size() >= 3) {
      distance = std::numeric_limits<double>::max();
      for (qsizetype k = 0; k < polygon.size(); ++k) {
        distance =
            std::min(distance, segmentDistance(pos, polygon[k], polygon[(k + 1) % polygon.size()]));
      }
    } else {  // degenerate violin: the bar across the key at its value
      distance = segmentDistance(pos, coordsToPixels(s.key - width_ / 2, s.median),
                                 coordsToPixels(s.key + width_ / 2, s.median));
    }
    if (distance < best) {
      best = distance;
      bestIndex = i;
    }
  }
  if (bestIndex < 0 || best > tolerance) return -1;
  if (details) details->setValue(QCPDataSelection(QCPDataRange(bestIndex, bestIndex + 1)));
  return best;
}

QCPRange ViolinPlottable::getKeyRange(bool& foundRange, QCP::SignDomain inSignDomain) const {
  QCPRange range;
  foundRange = false;
  for (const auto& s : violins_) {
    if (s.count == 0) continue;
    for (double k : {s.key - width_ / 2, s.key + width_ / 2}) {
      if (!inDomain(k, inSignDomain)) continue;
      if (!foundRange) {
        range = QCPRange(k, k);
        foundRange = true;
      } else {
        range.expand(k);
      }
    }
  }
  return range;
}

QCPRange ViolinPlottable::getValueRange(bool& foundRange, QCP::SignDomain inSignDomain,
                                        const QCPRange& inKeyRange) const {
  QCPRange range;
  foundRange = false;
  const bool restrictKeys = inKeyRange != QCPRange();
  for (const auto& s : violins_) {
    if (s.count == 0 || (restrictKeys && !inKeyRange.contains(s.key))) continue;
    const double lo = s.grid.empty() ? s.min : std::min(s.grid.front(), s.min);
    const double hi = s.grid.empty() ? s.max : std::max(s.grid.back(), s.max);
    for (double v : {lo, hi}) {
      if (!inDomain(v, inSignDomain)) continue;
      if (!foundRange) {
        range = QCPRange(v, v);
        foundRange = true;
      } else {
        range.expand(v);
      }
    }
  }
  return range;
}

void ViolinPlottable::draw(QCPPainter* painter) {
  if (!mKeyAxis || !mValueAxis) return;
  for (int i = 0; i < violinCount(); ++i) {
    if (violin(i).count == 0) continue;
    const bool selected = mSelection.contains(QCPDataSelection(QCPDataRange(i, i + 1)));
    drawViolin(painter, i, selected);
  }
}

void ViolinPlottable::drawViolin(QCPPainter* painter, int index, bool selected) const {
  const ViolinStats& s = violin(index);
  QPen pen = mPen;
  QBrush brush = mBrush;
  if (selected && mSelectionDecorator) {
    pen = mSelectionDecorator->pen();
    if (mSelectionDecorator->brush().style() != Qt::NoBrush) brush = mSelectionDecorator->brush();
  }

  // Outline, or a bar across the key when the sample has no spread.
  const QPolygonF polygon = outline(index);
  if (polygon.size() >= 3) {
    applyFillAntialiasingHint(painter);
    painter->setPen(pen);
    painter->setBrush(brush);
    painter->drawPolygon(polygon);
  } else {
    applyDefaultAntialiasingHint(painter);
    painter->setPen(QPen(pen.color(), 2 * pen.widthF()));
    painter->drawLine(coordsToPixels(s.key - 0.3 * width_, s.median),
                      coordsToPixels(s.key + 0.3 * width_, s.median));
  }

  // Box and whiskers are sized in pixels so they stay thin whatever the zoom.
  const double violinPixels =
      std::abs(mKeyAxis->coordToPixel(s.key + width_ / 2) - mKeyAxis->coordToPixel(s.key));
  const double boxHalf = std::clamp(0.06 * violinPixels, 1.5, 3.0);
  const bool keyHorizontal = mKeyAxis->orientation() == Qt::Horizontal;
  auto across = [&](const QPointF& centre, double offset) {
    return keyHorizontal ? centre + QPointF(offset, 0) : centre + QPointF(0, offset);
  };
  const QColor ink(35, 35, 35);
  applyDefaultAntialiasingHint(painter);
  if (showWhiskers_) {
    painter->setPen(QPen(ink, 1));
    painter->drawLine(coordsToPixels(s.key, s.whiskerLow), coordsToPixels(s.key, s.q1));
    painter->drawLine(coordsToPixels(s.key, s.q3), coordsToPixels(s.key, s.whiskerHigh));
  }
  if (showBox_) {
    const QPointF q1 = coordsToPixels(s.key, s.q1);
    const QPointF q3 = coordsToPixels(s.key, s.q3);
    painter->setPen(Qt::NoPen);
    painter->setBrush(ink);
    painter->drawRect(QRectF(across(q1, -boxHalf), across(q3, boxHalf)).normalized());
  }
  const QPointF median = coordsToPixels(s.key, s.median);
  if (medianStyle_ == MedianStyle::Dot) {
    painter->setPen(QPen(ink, 1));
    painter->setBrush(Qt::white);
    const double r = std::max(boxHalf + 1.0, 3.0);
    painter->drawEllipse(median, r, r);
  } else {
    painter->setPen(QPen(Qt::white, 2));
    painter->drawLine(across(median, -2.5 * boxHalf), across(median, 2.5 * boxHalf));
  }
}

void ViolinPlottable::drawLegendIcon(QCPPainter* painter, const QRectF& rect) const {
  // A small violin lying on its side: two mirrored bumps.
  applyDefaultAntialiasingHint(painter);
  const double cy = rect.center().y();
  const double h = 0.45 * rect.height();
  QPainterPath path(QPointF(rect.left(), cy));
  path.cubicTo(QPointF(rect.left() + 0.3 * rect.width(), cy - 1.2 * h),
               QPointF(rect.left() + 0.6 * rect.width(), cy - 0.6 * h), QPointF(rect.right(), cy));
  path.cubicTo(QPointF(rect.left() + 0.6 * rect.width(), cy + 0.6 * h),
               QPointF(rect.left() + 0.3 * rect.width(), cy + 1.2 * h), QPointF(rect.left(), cy));
  painter->setPen(mPen);
  painter->setBrush(mBrush);
  painter->drawPath(path);
  painter->setPen(QPen(QColor(35, 35, 35), 1));
  painter->setBrush(Qt::white);
  painter->drawEllipse(QPointF(rect.left() + 0.4 * rect.width(), cy), 2.0, 2.0);
}

}  // namespace dpsynth::ui
