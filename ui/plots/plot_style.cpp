#include "ui/plots/plot_style.h"

#include <qcustomplot.h>

#include <array>

namespace dpsynth::ui::plot_style {
namespace {

/// Okabe & Ito (2008), yellow dropped: too pale for lines on white.
constexpr std::array<QRgb, 7> kPalette = {0x0072B2, 0xD55E00, 0x009E73, 0xCC79A7,
                                          0xE69F00, 0x56B4E9, 0x000000};

QFont scaledFont(const QFont& base, double factor, bool bold = false) {
  QFont font = base;
  if (font.pointSizeF() > 0) font.setPointSizeF(font.pointSizeF() * factor);
  font.setBold(bold);
  return font;
}

void styleAxis(QCPAxis* axis, const QFont& base) {
  axis->setTickLabelFont(base);
  axis->setLabelFont(scaledFont(base, 1.05));
  axis->setLabelPadding(6);
  axis->grid()->setPen(QPen(QColor(0, 0, 0, 28), 1, Qt::SolidLine));
  axis->grid()->setSubGridVisible(false);
  axis->setBasePen(QPen(QColor(90, 90, 90), 1));
  axis->setTickPen(QPen(QColor(90, 90, 90), 1));
  axis->setSubTickPen(QPen(QColor(120, 120, 120), 1));
}

}  // namespace

QColor seriesColor(int index) {
  const auto n = static_cast<int>(kPalette.size());
  return QColor(kPalette[static_cast<size_t>(((index % n) + n) % n)]);
}

QColor confidentialColor() { return QColor(110, 110, 110); }

QColor translucent(const QColor& color, int alpha) {
  QColor out = color;
  out.setAlpha(alpha);
  return out;
}

void applyStyle(QCustomPlot* plot) {
  plot->setBackground(Qt::white);
  plot->setAntialiasedElements(QCP::aePlottables | QCP::aeItems | QCP::aeLegendItems);
  plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom | QCP::iSelectPlottables);
  plot->setNoAntialiasingOnDrag(true);
  plot->legend->setFont(plot->font());
  plot->legend->setSelectedFont(plot->font());
  plot->legend->setBorderPen(Qt::NoPen);
  plot->legend->setBrush(QColor(255, 255, 255, 230));
  plot->legend->setIconSize(22, 12);
  styleAxisRect(plot->axisRect());
}

void styleAxisRect(QCPAxisRect* rect) {
  const QFont base = rect->parentPlot()->font();
  for (QCPAxis* axis : rect->axes()) styleAxis(axis, base);
  rect->setRangeDrag(Qt::Horizontal | Qt::Vertical);
  rect->setRangeZoom(Qt::Horizontal | Qt::Vertical);
}

void placeLegendAbove(QCustomPlot* plot, int columns) {
  QCPLegend* legend = plot->legend;
  // Freshly constructed, the legend sits in the first axis rect's inset layout.
  if (plot->axisRect()->insetLayout()->take(legend)) plot->axisRect()->insetLayout()->simplify();
  // Row 0: [stretch][legend][stretch], so the legend is centred above the plot.
  auto* row = new QCPLayoutGrid;
  plot->plotLayout()->insertRow(0);
  plot->plotLayout()->addElement(0, 0, row);
  plot->plotLayout()->setRowStretchFactor(0, 0.001);
  row->addElement(0, 1, legend);
  row->expandTo(1, 3);
  legend->setFillOrder(QCPLegend::foColumnsFirst);
  legend->setWrap(columns);
  legend->setMargins(QMargins(6, 4, 6, 4));
  legend->setSizeConstraintRect(QCPLayoutElement::scrOuterRect);
  legend->setVisible(true);
  fitLegend(plot);
}

/// The bottom margin of a legend entry, in pixels: room for its text's descenders.
constexpr int kLegendItemBottom = 5;

void fitLegend(QCustomPlot* plot) {
  QCPLegend* legend = plot->legend;
  if (legend->layout() == plot->axisRect()->insetLayout()) return;
  // Room below each entry's text: an entry is drawn clipped to its own rectangle, and with the
  // default bottom margin the descenders ("re-weighting") were cut off.
  for (int i = 0; i < legend->itemCount(); ++i) {
    QCPAbstractLegendItem* item = legend->item(i);
    if (!item) continue;  // an empty cell of the legend's grid (the Frontier's legend has them)
    const QMargins m = item->margins();
    if (m.bottom() < kLegendItemBottom)
      item->setMargins(QMargins(m.left(), m.top(), m.right(), kLegendItemBottom));
  }
  // Only as wide as its entries: otherwise the grid spreads them over the whole row.
  legend->setMaximumSize(legend->minimumOuterSizeHint());
}

}  // namespace dpsynth::ui::plot_style
