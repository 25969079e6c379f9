#pragma once
/// The plots' input for one mechanism, a plain struct (no widgets): what a finished run hands to
/// PlotsView, kept apart so that run snapshots can carry it without the plots' headers.
#include <QString>
#include <vector>

namespace dpsynth::ui {

/// What the plots need from one mechanism's result. Confidential (Δ_i and α_i are functions of
/// the data): for on-screen plots and internal exports only.
struct MechanismPlotData {
  QString name;
  bool strictDp = false;  ///< the dashed line is at the clamp's bound when true, at Δ otherwise
  double epsilon = 0;
  double strictBound = 0;   ///< strictDp: max(|L|, |U|) of the clamp (≤ 0: ε/2)
  double lipschitzMax = 0;  ///< Δ = max_i Δ_i of the final stage (≤ 0: computed from deltas)
  std::vector<double> deltaPerRecord, weights;     ///< final stage, one per record
  std::vector<double> deltaBefore, weightsBefore;  ///< before re-weighting (may be empty)
  std::vector<double> synthetic;                   ///< one synthetic dataset (may be empty)
  std::vector<QString> parameterNames;  ///< design names ("intercept", "gender=M"), not beta[j]
  std::vector<std::vector<double>> parameterDraws;  ///< [parameter][pooled draw]
  QString finalStage;                               ///< the final fit's stage label
  std::vector<std::vector<double>> chainDraws;      ///< [chain]: draw-major constrained draws
};

}  // namespace dpsynth::ui
