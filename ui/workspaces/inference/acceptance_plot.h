#pragma once
/// Acceptance per sweep of the data-augmentation sampler, one line per chain: the mean
/// acceptance probability min(1, η*/η) of the sweep's proposals, with the e^{−ε} bound of a
/// pure ε-DP release drawn as a dashed line (no point may lie below it). Live sweeps are
/// appended as they arrive; the owner decides when to replot (the workspace's 5 Hz timer).
#include <vector>

#include "ui/plots/plot_widget.h"

namespace dpsynth::ui {

/// The lower end of an acceptance plot's y axis: a probability's, never below 0, and low
/// enough to show the bound e^−ε (0: none) and the lowest value plotted.
double acceptanceAxisLower(double bound, double lowest);

class AcceptancePlot : public PlotWidget {
  Q_OBJECT

 public:
  explicit AcceptancePlot(QWidget* parent = nullptr);

  /// Starts afresh: `chains` lines, the bound e^{−ε} (≤ 0 hides it), warm-up end marked.
  void reset(int chains, double bound, int warmup);
  /// Appends sweeps firstSweep, … of `chain`; false (nothing changed) for an unknown chain or
  /// a gap.
  bool appendSweeps(int chain, int firstSweep, const std::vector<double>& probability);
  /// Redraws with what has arrived (at most once per timer tick of the caller).
  void refresh();

  int chainCount() const { return static_cast<int>(sweeps_.size()); }
  /// Sweeps held for `chain` (one point per sweep).
  const std::vector<double>& sweeps(int chain) const {
    return sweeps_.at(static_cast<size_t>(chain));
  }
  double bound() const { return bound_; }
  /// Columns chain, sweep, acceptance_probability, bound.
  PlotTable plotTable() const override;
  QString shownMechanisms() const override;

 protected:
  QString exportBaseName() const override { return QStringLiteral("acceptance"); }
  void prepareReplot() override;
  void rescaleToData() override;

 private:
  std::vector<std::vector<double>> sweeps_;
  double bound_ = 0.0;
  int warmup_ = 0;
};

}  // namespace dpsynth::ui
