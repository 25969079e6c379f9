#pragma once
/// Base of the studio's plots: a QCustomPlot with the behaviour every plot shares — axis
/// labels and legend styling, hover tooltips, Ctrl+wheel zoom and drag pan, a context menu with
/// "Export PNG…/PDF…/SVG…" and "Reset view", and coalesced redraws for live data.
#include <QPointer>
#include <QString>
#include <QTimer>
#include <QWidget>
#include <vector>

#include "ui/plots/plot_export.h"

class QComboBox;
class QCPAxis;
class QCustomPlot;
class QHBoxLayout;
class QLabel;
class QMouseEvent;

namespace dpsynth::ui {

class PlotWidget : public QWidget {
  Q_OBJECT

 public:
  explicit PlotWidget(QWidget* parent = nullptr);
  ~PlotWidget() override;

  QCustomPlot* customPlot() const { return plot_; }
  /// Number of plottables (graphs, bars, violins…) currently drawn, over all axis rects.
  int plottableCount() const;
  /// Number of data points over all plottables (violins count their samples).
  int pointCount() const;
  /// The data behind the picture, written as CSV beside every export.
  virtual PlotTable plotTable() const;
  /// One line per plottable ("name: n points"), for tests and logs.
  virtual QString summary() const;
  /// Exports picture + CSV (see exportPlot); emits exported() or exportFailed().
  bool exportTo(const QString& path, QString* error = nullptr);
  /// Why the export dialog refuses `path`: it, or the CSV written beside it, is a file the
  /// studio reads (filesTheStudioReads); empty when it may be written.
  static QString exportProblem(const QString& path);
  /// Number of replots actually performed (tests check that bursts are coalesced).
  int replotCount() const { return replotCount_; }
  /// Tooltip text for a pixel position inside the plot ("" for none). Public for tests.
  virtual QString toolTipAt(const QPointF& pixel) const;

  /// Which run the plot shows ("run 3, 14:02, nbmix.csv"); empty: no run. The caption above
  /// the plot is this and shownMechanisms().
  void setRunLabel(const QString& run);
  QString runLabel() const { return runLabel_; }
  /// The caption of an empty plot (by default "No results: press Run.").
  void setEmptyText(const QString& text);
  /// While a run is in progress, what an empty plot says instead (empty: the usual caption).
  void setWaitingText(const QString& text);
  /// The caption as shown: "<run> · <mechanisms>", or a note that nothing is shown.
  QString caption() const;
  /// Greys the plot and shows a banner (the results table's stale note) when the settings or
  /// the data changed since the run it shows.
  void setStale(bool stale, const QString& why = {});
  bool isStale() const { return stale_; }
  QString staleText() const;
  /// Where the export dialog opens (ExportActions::defaultFolder; empty: the current folder).
  void setExportFolder(const QString& folder) { exportFolder_ = folder; }
  QString exportFolder() const { return exportFolder_; }
  /// The mechanism(s) the plot shows now ("lw-final", "lw-final, censor-w"; "" for none).
  virtual QString shownMechanisms() const { return {}; }

 public slots:
  /// Forgets any user zoom/pan and rescales to the data.
  void resetView();

 signals:
  void exported(const QString& path);
  void exportFailed(const QString& message);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;
  /// Schedules one replot within ~40 ms; many calls before then cost one replot.
  void requestReplot();
  /// Immediate queued replot (after a one-off data change).
  void replotNow();
  /// Called just before every replot: copy buffered live data into the plottables here.
  virtual void prepareReplot() {}
  /// Fits the axes to the data unless the user has zoomed or panned since the last reset.
  /// Subclasses with several axis rects or fixed ranges override it.
  virtual void rescaleToData();
  bool userMovedView() const { return userMovedView_; }
  /// A row above the plot for selectors (combo boxes), created on first use.
  QHBoxLayout* toolbar();
  /// A combo box sized to its items, after a label, at the end of the toolbar; objectName (if
  /// any) names it for tests. The caller fills and connects it.
  QComboBox* addSelector(const QString& label, const QString& objectName = {});
  /// Default file name stem for the export dialog.
  virtual QString exportBaseName() const { return QStringLiteral("plot"); }
  /// Refreshes the caption; subclasses call it when what they show changes.
  void updateCaption();
  /// Labels `axis` with `full` where its axis rect has room for it, else with `brief` (a left
  /// axis label longer than a short plot's height was cut at both ends).
  void setAxisLabel(QCPAxis* axis, const QString& full, const QString& brief);

 private:
  void showContextMenu(const QPoint& pos);
  void exportWithDialog(const QString& suffix);
  void onMouseMove(QMouseEvent* event);
  void performReplot();
  void fitAxisLabels();

  QCustomPlot* plot_ = nullptr;
  QHBoxLayout* toolbar_ = nullptr;
  QLabel* caption_ = nullptr;
  QLabel* staleBanner_ = nullptr;
  QString runLabel_;
  QString emptyText_;
  QString waitingText_;
  struct AxisLabel {
    QPointer<QCPAxis> axis;
    QString full, brief;
  };
  std::vector<AxisLabel> axisLabels_;
  QString exportFolder_;
  bool stale_ = false;
  QTimer replotTimer_;
  bool userMovedView_ = false;
  int replotCount_ = 0;
};

}  // namespace dpsynth::ui
