#pragma once
/// Saving a plot as PNG, PDF or SVG together with the data behind it as CSV, so that an analyst
/// can redraw any figure elsewhere (e.g. in R) without re-running the synthesis.
#include <QByteArray>
#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

class QCustomPlot;

namespace dpsynth::ui {

/// Long-format data behind a plot: a header row plus one row per plotted point or sample
/// (e.g. `series,x,y` for curves, `mechanism,value` for violins).
struct PlotTable {
  QStringList columns;
  std::vector<QStringList> rows;
};

enum class ExportFormat { Png, Pdf, Svg };

/// Format from the file suffix (case-insensitive: png, pdf, svg); nullopt for anything else.
std::optional<ExportFormat> exportFormatForPath(const QString& path);
/// "plots/lipschitz.png" → "plots/lipschitz.csv".
QString csvPathFor(const QString& picturePath);
/// RFC 4180 CSV (fields with commas, quotes or line breaks are quoted), '\n' line ends.
QByteArray toCsv(const PlotTable& table);
/// Generic long-format table `series,x,y` from the graphs, curves and bars of a plot
/// (used when a widget has nothing more specific to say).
PlotTable tableFromPlottables(const QCustomPlot* plot);

/// Writes the picture at `path` (format from the suffix; PNG at 2x scale, PDF and SVG as vector
/// graphics) and `csvPathFor(path)` with `data`. Each file goes through a temporary file in the
/// target folder that is renamed only when complete (QSaveFile); if any step fails, no new file
/// is left behind, `error` (if given) says why and false is returned. Existing files are
/// replaced only on success. `width`/`height` ≤ 0 use the plot's size (at least 640×400).
bool exportPlot(QCustomPlot* plot, const QString& path, const PlotTable& data,
                QString* error = nullptr, int width = 0, int height = 0);
/// As above with tableFromPlottables(plot).
bool exportPlot(QCustomPlot* plot, const QString& path, QString* error = nullptr);

}  // namespace dpsynth::ui
