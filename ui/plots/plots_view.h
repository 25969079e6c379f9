#pragma once
/// All of the studio's plots in one tabbed view, fed from plain structs so the window does the
/// conversion from core results once and the plots stay testable on their own.
#include <QStringList>
#include <QTabWidget>
#include <cstdint>
#include <limits>
#include <vector>

#include "ui/plots/mechanism_plot_data.h"

namespace dpsynth::ui {

class LipschitzViolinPlot;
class LipschitzWeightPlot;
class WeightViolinPlot;
class SyntheticComparisonPlot;
class PosteriorDensityPlot;
class TracePlot;
class PlotWidget;

class PlotsView : public QTabWidget {
  Q_OBJECT

 public:
  enum Tab {
    kLipschitz,
    kLipschitzVsWeight,
    kWeights,
    kSynthetic,
    kPosteriors,
    kTraces,
    kTabCount
  };

  explicit PlotsView(QWidget* parent = nullptr);

  /// Replaces the data of the five result plots (the traces are left alone).
  /// lower and upper: the outcome's support (see SyntheticComparisonPlot::setData).
  void setResults(const std::vector<double>& confidential, bool countData,
                  const std::vector<MechanismPlotData>& mechanisms,
                  double lower = -std::numeric_limits<double>::infinity(),
                  double upper = std::numeric_limits<double>::infinity());
  /// Updates one mechanism's Lipschitz violin while a run is in progress (coalesced redraw),
  /// labelled with the stage the values come from.
  void updateLipschitz(const QString& mechanism, const QString& stage,
                       const std::vector<double>& deltaPerRecord, bool strictDp, double epsilon,
                       double lipschitzMax, double strictBound = 0);
  /// Empties every plot, traces included, and forgets the run they showed (new data).
  void clearAll();
  /// A run starts: the live Lipschitz violins start empty (no violin of an earlier run or
  /// dataset among the new ones); the other plots keep the previous run, marked stale.
  void beginRun(const QString& previousRunNote);
  /// The run ended (results, a cancel or a failure): empty plots stop saying they are waiting.
  void endRun();
  /// Every plot names this run in its caption.
  void setRunLabel(const QString& run);
  /// What every empty plot says (empty: "No results: press Run.").
  void setEmptyText(const QString& text);
  /// Greys every plot with a banner (settings or data changed since the run they show).
  void setStale(bool stale, const QString& why = {});
  bool isStale() const { return stale_; }
  /// Where every plot's export dialog opens.
  void setExportFolder(const QString& folder);
  /// Names the live traces (the stage now sampling).
  void setLiveTraceSource(const QString& mechanism, const QString& stage);

  void clearTraces(const QStringList& parameterNames, int chains);
  /// See TracePlot::appendDraws (draw-major, P values per draw; mismatched batches are dropped
  /// and false returned).
  bool appendDraws(int chain, std::int64_t firstDraw, const std::vector<double>& draws);
  void setWarmupEnd(std::int64_t iteration);

  /// Exports every tab as `<folder>/<name>.<suffix>` plus its CSV; suffix is png, pdf or svg.
  /// Stops at the first failure (files already written stay; each one is complete).
  bool exportAll(const QString& folder, const QString& suffix, QString* error = nullptr);
  /// Every file exportAll writes into `folder`, pictures and their CSVs: what a caller asks
  /// about before they replace anything.
  static QStringList exportPaths(const QString& folder, const QString& suffix);

  PlotWidget* plot(Tab tab) const;
  LipschitzViolinPlot* lipschitzPlot() const { return lipschitz_; }
  LipschitzWeightPlot* lipschitzWeightPlot() const { return lipschitzWeight_; }
  WeightViolinPlot* weightPlot() const { return weights_; }
  SyntheticComparisonPlot* syntheticPlot() const { return synthetic_; }
  PosteriorDensityPlot* posteriorPlot() const { return posterior_; }
  TracePlot* tracePlot() const { return traces_; }
  /// One line per tab: "<tab title>: <plottables> plottables, <points> points".
  QString plotSummary() const;

 private:
  LipschitzViolinPlot* lipschitz_ = nullptr;
  LipschitzWeightPlot* lipschitzWeight_ = nullptr;
  WeightViolinPlot* weights_ = nullptr;
  SyntheticComparisonPlot* synthetic_ = nullptr;
  PosteriorDensityPlot* posterior_ = nullptr;
  TracePlot* traces_ = nullptr;
  bool stale_ = false;
};

}  // namespace dpsynth::ui
