#pragma once
/// The look shared by the studio's plots: a colour-blind-safe palette (Okabe–Ito), readable
/// fonts, and legends in a row above the axes so they never hide data.
#include <QColor>
#include <QString>

class QCustomPlot;
class QCPAxisRect;
class QCPLegend;

namespace dpsynth::ui::plot_style {

/// Series colour `index` (cycles through 7 colours that stay distinct for colour-blind readers).
QColor seriesColor(int index);
/// Grey used for the confidential data, so the synthetic series keep the palette.
QColor confidentialColor();
/// Same colour with the given alpha (0–255), for translucent fills.
QColor translucent(const QColor& color, int alpha);

/// Fonts, grid, background and interactions (drag, wheel zoom, select) of a fresh plot.
void applyStyle(QCustomPlot* plot);
/// Axis fonts and grid of an axis rect created after applyStyle (e.g. a second panel).
void styleAxisRect(QCPAxisRect* rect);
/// Moves the legend out of the axis rect into a new top row of the plot layout, laid out
/// horizontally and wrapping after `columns` entries.
void placeLegendAbove(QCustomPlot* plot, int columns = 4);
/// Shrinks a legend placed above to the size of its entries; call after entries change
/// (PlotWidget does before every replot).
void fitLegend(QCustomPlot* plot);

}  // namespace dpsynth::ui::plot_style
