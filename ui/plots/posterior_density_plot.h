#pragma once
/// Posterior densities of one parameter (chosen in a combo box), one curve per mechanism, so
/// the cost of each privacy mechanism in posterior spread and bias is visible at a glance.
#include <vector>

#include "ui/plots/plot_widget.h"

class QComboBox;

namespace dpsynth::ui {

struct PosteriorSeries {
  QString mechanism;
  std::vector<QString> parameterNames;
  std::vector<std::vector<double>> draws;  ///< draws[p][s]: parameter p, pooled draw s
};

class PosteriorDensityPlot : public PlotWidget {
  Q_OBJECT

 public:
  explicit PosteriorDensityPlot(QWidget* parent = nullptr);

  /// Throws std::invalid_argument when draws and parameterNames differ in length.
  void setSeries(const std::vector<PosteriorSeries>& series);
  void clear();
  /// Union of the parameter names over mechanisms, in first-seen order.
  QStringList parameterNames() const;
  void setCurrentParameter(const QString& name);
  QString currentParameter() const;
  QComboBox* parameterSelector() const { return selector_; }
  /// "all mechanisms" (index 0) or one mechanism's curve only.
  QComboBox* mechanismSelector() const { return mechanismSelector_; }
  /// Shows one mechanism ("" for all).
  void setCurrentMechanism(const QString& name);
  QString currentMechanism() const;
  QString shownMechanisms() const override;

  /// Columns mechanism, parameter, draw: the pooled draws of every parameter (the densities
  /// are recomputed from them with the documented bandwidth rule).
  PlotTable plotTable() const override;

 protected:
  QString exportBaseName() const override { return QStringLiteral("posterior"); }
  void rescaleToData() override;

 private:
  void rebuild();

  std::vector<PosteriorSeries> series_;
  QComboBox* selector_ = nullptr;
  QComboBox* mechanismSelector_ = nullptr;
};

}  // namespace dpsynth::ui
