#include "ui/plots/plot_export.h"

#include <qcustomplot.h>

#include <QBuffer>
#include <QFileInfo>
#include <QPageLayout>
#include <QPageSize>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSvgGenerator>

#include "ui/plots/plot_values.h"
#include "ui/plots/violin_plottable.h"

namespace dpsynth::ui {
namespace {

constexpr double kPngScale = 2.0;
constexpr int kMinWidth = 640;
constexpr int kMinHeight = 400;

void setError(QString* error, const QString& message) {
  if (error) *error = message;
}

using plot_values::number;

QByteArray csvField(const QString& field) {
  QByteArray bytes = field.toUtf8();
  if (bytes.contains(',') || bytes.contains('"') || bytes.contains('\n') || bytes.contains('\r')) {
    bytes.replace("\"", "\"\"");
    return '"' + bytes + '"';
  }
  return bytes;
}

/// Renders the picture into memory: QSaveFile must not be handed to paint devices, which may
/// close() it (forbidden on a QSaveFile) before we decide to commit.
bool renderPicture(QCustomPlot* plot, ExportFormat format, int width, int height, QByteArray& out,
                   QString* error) {
  QBuffer buffer(&out);
  buffer.open(QIODevice::WriteOnly);
  switch (format) {
    case ExportFormat::Png: {
      const QPixmap pixmap = plot->toPixmap(width, height, kPngScale);
      if (pixmap.isNull() || !pixmap.save(&buffer, "PNG")) {
        setError(error, QObject::tr("Could not render the PNG image."));
        return false;
      }
      return true;
    }
    case ExportFormat::Pdf: {
      // Like QCustomPlot::savePdf: one page of width × height points at screen resolution, so
      // text keeps the proportions it has on screen.
      QPdfWriter writer(&buffer);
      writer.setResolution(96);
      writer.setCreator(QStringLiteral("dpsynth"));
      QPageLayout layout(
          QPageSize(QSizeF(width, height), QPageSize::Point, QString(), QPageSize::ExactMatch),
          QPageLayout::Portrait, QMarginsF(0, 0, 0, 0));
      layout.setMode(QPageLayout::FullPageMode);
      writer.setPageLayout(layout);
      QCPPainter painter;
      if (!painter.begin(&writer)) {
        setError(error, QObject::tr("Could not start the PDF writer."));
        return false;
      }
      painter.setMode(QCPPainter::pmVectorized);
      painter.setWindow(0, 0, width, height);
      plot->toPainter(&painter, width, height);
      painter.end();
      return true;
    }
    case ExportFormat::Svg: {
      QSvgGenerator generator;
      generator.setOutputDevice(&buffer);
      generator.setSize(QSize(width, height));
      generator.setViewBox(QRect(0, 0, width, height));
      generator.setResolution(96);
      generator.setTitle(QStringLiteral("dpsynth plot"));
      QCPPainter painter;
      if (!painter.begin(&generator)) {
        setError(error, QObject::tr("Could not start the SVG generator."));
        return false;
      }
      painter.setMode(QCPPainter::pmVectorized);
      plot->toPainter(&painter, width, height);
      painter.end();
      return true;
    }
  }
  return false;
}

/// Opens and fills a QSaveFile (a temporary file beside `path`); nothing is visible at `path`
/// until commit().
bool stage(QSaveFile& file, const QByteArray& bytes, QString* error) {
  if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size()) {
    setError(error, QObject::tr("Cannot write %1: %2").arg(file.fileName(), file.errorString()));
    file.cancelWriting();
    return false;
  }
  return true;
}

}  // namespace

std::optional<ExportFormat> exportFormatForPath(const QString& path) {
  const QString suffix = QFileInfo(path).suffix().toLower();
  if (suffix == QLatin1String("png")) return ExportFormat::Png;
  if (suffix == QLatin1String("pdf")) return ExportFormat::Pdf;
  if (suffix == QLatin1String("svg")) return ExportFormat::Svg;
  return std::nullopt;
}

QString csvPathFor(const QString& picturePath) {
  const QFileInfo info(picturePath);
  const QString dir = info.path();
  const QString name = info.completeBaseName() + QStringLiteral(".csv");
  return dir == QLatin1String(".") && !picturePath.startsWith(QLatin1String("./"))
             ? name
             : dir + QLatin1Char('/') + name;
}

QByteArray toCsv(const PlotTable& table) {
  QByteArray out;
  auto appendRow = [&out](const QStringList& row) {
    for (qsizetype i = 0; i < row.size(); ++i) {
      if (i > 0) out += ',';
      out += csvField(row[i]);
    }
    out += '\n';
  };
  appendRow(table.columns);
  for (const QStringList& row : table.rows) appendRow(row);
  return out;
}

PlotTable tableFromPlottables(const QCustomPlot* plot) {
  PlotTable table;
  table.columns = {QStringLiteral("series"), QStringLiteral("x"), QStringLiteral("y")};
  auto* mutablePlot = const_cast<QCustomPlot*>(plot);  // plottable(int) is not const in 2.1
  for (int i = 0; i < plot->plottableCount(); ++i) {
    QCPAbstractPlottable* plottable = mutablePlot->plottable(i);
    const QString name = plottable->name();
    auto addPoint = [&](double x, double y) {
      if (std::isfinite(x) && std::isfinite(y)) table.rows.push_back({name, number(x), number(y)});
    };
    if (auto* graph = qobject_cast<QCPGraph*>(plottable)) {
      for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it) {
        addPoint(it->key, it->value);
      }
    } else if (auto* curve = qobject_cast<QCPCurve*>(plottable)) {
      for (auto it = curve->data()->constBegin(); it != curve->data()->constEnd(); ++it) {
        addPoint(it->key, it->value);
      }
    } else if (auto* bars = qobject_cast<QCPBars*>(plottable)) {
      for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it) {
        addPoint(it->key, it->value);
      }
    } else if (auto* violins = qobject_cast<ViolinPlottable*>(plottable)) {
      for (int v = 0; v < violins->violinCount(); ++v) {
        const QString label = violins->violin(v).label.isEmpty() ? name : violins->violin(v).label;
        for (double sample : violins->samples(v)) {
          table.rows.push_back({label, number(violins->violin(v).key), number(sample)});
        }
      }
    }
  }
  return table;
}

bool exportPlot(QCustomPlot* plot, const QString& path, const PlotTable& data, QString* error,
                int width, int height) {
  if (!plot) {
    setError(error, QObject::tr("No plot to export."));
    return false;
  }
  const auto format = exportFormatForPath(path);
  if (!format) {
    setError(error,
             QObject::tr("Unknown picture format for %1 (use .png, .pdf or .svg).").arg(path));
    return false;
  }
  if (width <= 0) width = std::max(plot->width(), kMinWidth);
  if (height <= 0) height = std::max(plot->height(), kMinHeight);

  QByteArray picture;
  if (!renderPicture(plot, *format, width, height, picture, error)) return false;
  const QByteArray csv = toCsv(data);

  QSaveFile pictureFile(path);
  QSaveFile csvFile(csvPathFor(path));
  if (!stage(pictureFile, picture, error) || !stage(csvFile, csv, error)) return false;
  if (!pictureFile.commit()) {
    setError(error, QObject::tr("Cannot write %1: %2").arg(path, pictureFile.errorString()));
    return false;  // csvFile's destructor discards its temporary file
  }
  if (!csvFile.commit()) {
    // A picture without its data would be half an export; take it back.
    QFile::remove(path);
    setError(error,
             QObject::tr("Cannot write %1: %2").arg(csvFile.fileName(), csvFile.errorString()));
    return false;
  }
  return true;
}

bool exportPlot(QCustomPlot* plot, const QString& path, QString* error) {
  return exportPlot(plot, path, plot ? tableFromPlottables(plot) : PlotTable{}, error);
}

}  // namespace dpsynth::ui
