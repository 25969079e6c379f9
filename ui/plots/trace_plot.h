#pragma once
/// Live trace plots during sampling: one line per chain for the selected parameter. Draws are
/// merged into per-chain min/max decimators as they arrive (cheap, bounded memory) and the plot
/// is redrawn by a single-shot 40 ms timer, never per batch, so the GUI stays responsive however
/// fast the sampler reports.
#include <QStringList>
#include <cstdint>
#include <vector>

#include "ui/plots/plot_widget.h"
#include "ui/plots/trace_decimator.h"

class QComboBox;

namespace dpsynth::ui {

/// The final fit's chains of one mechanism, for the trace plot after a run.
struct MechanismTraces {
  QString mechanism;
  QString stage;  ///< the final stage's label ("lw-final k=0.9500")
  QStringList parameterNames;
  std::vector<std::vector<double>> chains;  ///< per chain: post-warm-up draws, draw-major
};

class TracePlot : public PlotWidget {
  Q_OBJECT

 public:
  static constexpr int kMaxPointsPerChain = 2000;

  explicit TracePlot(QWidget* parent = nullptr);

  /// Starts afresh for a run with these parameters and this many chains.
  void clearTraces(const QStringList& parameterNames, int chains);
  /// Names the live traces: the stage now sampling and the mechanism it belongs to. The
  /// mechanism selector then offers only the live traces.
  void setLiveSource(const QString& mechanism, const QString& stage);
  /// After a run: one entry per mechanism in the mechanism selector; the first (or the one
  /// shown before, if still there) is drawn.
  void setMechanismTraces(const std::vector<MechanismTraces>& traces);
  /// The run ended without results (cancelled, failed): the live chains stay on show, no
  /// longer "sampling now"; with none drawn the plot names no mechanism.
  void endLive();
  void setCurrentMechanism(const QString& mechanism);
  /// The mechanism whose chains are drawn ("" for none).
  QString currentMechanism() const { return mechanism_; }
  QString currentStage() const { return stage_; }
  QComboBox* mechanismSelector() const { return mechanismSelector_; }
  QString shownMechanisms() const override;
  /// Appends draws firstDraw, firstDraw+1, … of `chain`. `draws` is draw-major: with P
  /// parameters, draw j's parameter p is draws[j·P + p]. A batch that does not fit the current
  /// run (unknown chain, size not a multiple of P — e.g. one still queued from a previous run
  /// when clearTraces was called) is dropped and false returned: this runs in slots, where an
  /// exception would end the program.
  bool appendDraws(int chain, std::int64_t firstDraw, const std::vector<double>& draws);
  /// Marks the end of warm-up with a dashed vertical line (≤ 0 hides it).
  void setWarmupEnd(std::int64_t iteration);

  QStringList parameterNames() const { return parameterNames_; }
  int chainCount() const { return chains_; }
  void setCurrentParameter(int index);
  int currentParameter() const { return current_; }
  QComboBox* parameterSelector() const { return selector_; }
  /// Decimated trace of (chain, parameter) as currently held.
  const TraceDecimator& trace(int chain, int parameter) const;

  /// Columns mechanism, parameter, chain, iteration, value.
  PlotTable plotTable() const override;

 protected:
  QString exportBaseName() const override { return QStringLiteral("traces"); }
  void prepareReplot() override { refreshGraphData(); }

 private:
  void rebuildGraphs();
  void refreshGraphData();

  QStringList parameterNames_;
  int chains_ = 0;
  int current_ = 0;
  std::int64_t warmupEnd_ = 0;
  std::vector<TraceDecimator> traces_;     ///< index chain·P + parameter
  std::vector<MechanismTraces> finished_;  ///< of the last finished run
  QString mechanism_, stage_;
  bool live_ = false;
  bool liveDrawn_ = false;  ///< a kept draw has come since the traces were cleared
  QComboBox* selector_ = nullptr;
  QComboBox* mechanismSelector_ = nullptr;
};

}  // namespace dpsynth::ui
