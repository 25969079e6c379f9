#pragma once
/// Violins of the by-record Lipschitz bounds Δ_i, one per mechanism, with the bound the
/// mechanism promises drawn dashed across its violin: ε/2 for strict-DP mechanisms, the
/// overall Δ = max_i Δ_i for approximate (aDP) ones.
#include <vector>

#include "ui/plots/plot_widget.h"

namespace dpsynth::ui {

class ViolinPlottable;

struct LipschitzSeries {
  QString mechanism;
  std::vector<double> deltaPerRecord;  ///< Δ_i, one per record
  bool strictDp = false;
  double epsilon = 0;       ///< total ε
  double lipschitzMax = 0;  ///< Δ; ≤ 0 means "max of deltaPerRecord"
  /// While a run is in progress: the stage the values come from ("unweighted" while lw-final
  /// is still at its first fit). Empty: the mechanism's final stage.
  QString stage{};
  /// strictDp: the clamp's max(|L|, |U|), where every Δ_i lies and the line is drawn (ε/4 for
  /// beta and normal under replace-one, ε/2 otherwise); ≤ 0: ε/2.
  double strictBound = 0;
};

class LipschitzViolinPlot : public PlotWidget {
  Q_OBJECT

 public:
  explicit LipschitzViolinPlot(QWidget* parent = nullptr);

  void setSeries(const std::vector<LipschitzSeries>& series);
  /// Replaces the series with the same mechanism name, or appends it; redraws within ~40 ms
  /// (so bounds can fill in while draws arrive). The violin is labelled with its stage.
  void updateSeries(const LipschitzSeries& series);
  void clear();

  int seriesCount() const { return static_cast<int>(series_.size()); }
  const ViolinPlottable* violins() const { return violins_; }
  /// "lw-final" or, for a stage on the way to it, "lw-final (unweighted stage)".
  static QString labelOf(const LipschitzSeries& series);
  QString shownMechanisms() const override;
  /// Height of the series' dashed line: ε/2 (strict DP) or Δ.
  static double boundFor(const LipschitzSeries& series);

  /// Columns mechanism, kind, value: one `delta` row per record and one bound row per mechanism
  /// (`bound_eps_half` or `bound_delta`).
  PlotTable plotTable() const override;

 protected:
  QString exportBaseName() const override { return QStringLiteral("lipschitz"); }
  void prepareReplot() override;
  void rescaleToData() override;
  void resizeEvent(QResizeEvent* event) override;

 private:
  void rebuild();
  /// The x axis's labels, a stage's line elided to the room each violin has, so that the
  /// labels of a long run's stages never overlap.
  void relabelTicks();

  std::vector<LipschitzSeries> series_;
  ViolinPlottable* violins_ = nullptr;
  bool dirty_ = false;
};

}  // namespace dpsynth::ui
