#pragma once
/// Violins over replicates, one per study cell, with an optional reference value per cell drawn
/// dashed across its violin: the ε/2 bound for the Lipschitz view, the generating
/// distribution's analytic value for the utility view.
#include <optional>
#include <vector>

#include "ui/plots/plot_widget.h"

class QCPGraph;

namespace dpsynth::ui {

class ViolinPlottable;

struct StudyViolinGroup {
  QString label;  ///< tick text (may hold a line break)
  std::vector<double> values;
  std::optional<double> reference;
};

class StudyViolinPlot : public PlotWidget {
  Q_OBJECT

 public:
  /// `referenceName`: legend text of the dashed lines ("ε/2 (strict DP)").
  StudyViolinPlot(const QString& valueLabel, const QString& referenceName,
                  const QString& exportName, QWidget* parent = nullptr);

  /// Replaces the groups; the replot is coalesced (PlotWidget).
  void setGroups(std::vector<StudyViolinGroup> groups);
  void setValueLabel(const QString& label);
  void setReferenceName(const QString& name);
  void setTitle(const QString& title);

  const std::vector<StudyViolinGroup>& groups() const { return groups_; }
  const ViolinPlottable* violins() const { return violins_; }
  /// The dashed reference line (null when no group has a reference).
  const QCPGraph* referenceGraph() const { return reference_; }
  QString shownMechanisms() const override { return title_; }

  /// Columns group, kind, value: one `value` row per replicate and one `reference` row per
  /// group that has one.
  PlotTable plotTable() const override;

 protected:
  QString exportBaseName() const override { return exportName_; }
  void prepareReplot() override;
  void rescaleToData() override;

 private:
  void rebuild();

  std::vector<StudyViolinGroup> groups_;
  QString referenceName_, exportName_, title_;
  ViolinPlottable* violins_ = nullptr;
  QCPGraph* reference_ = nullptr;
  bool dirty_ = false;
};

}  // namespace dpsynth::ui
