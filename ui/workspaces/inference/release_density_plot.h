#pragma once
/// Posterior density of one parameter from a release: a kernel density of the pooled draws of
/// the data-augmentation sampler, against the prior density and, when the confidential data of
/// the same layout is loaded, the posterior the confidential data would give (both closed form,
/// from AnalysisRelease). The gap between the last two is the information the noise took.
#include <QStringList>
#include <vector>

#include "ui/plots/plot_widget.h"
#include "ui/workspaces/inference/analysis_release.h"

namespace dpsynth::ui {

class ReleaseDensityPlot : public PlotWidget {
  Q_OBJECT

 public:
  static constexpr int kGridPoints = 256;

  explicit ReleaseDensityPlot(QWidget* parent = nullptr);

  /// The reference curves (empty functions: not drawn) over [lower, upper].
  void setReferences(ParameterDensity prior, ParameterDensity confidential,
                     const QString& confidentialSource, double lower, double upper);
  /// Pooled draws per parameter (draws[p]); empty: only the references are drawn.
  void setDraws(const QStringList& names, std::vector<std::vector<double>> draws);
  void setCurrentParameter(int index);
  int currentParameter() const { return current_; }
  /// Names of the curves drawn now ("posterior (release)", "prior", …).
  QStringList curveNames() const;
  /// Columns parameter, curve, x, density: the curves of the parameter shown.
  PlotTable plotTable() const override;
  QString shownMechanisms() const override;

 protected:
  QString exportBaseName() const override { return QStringLiteral("release-posterior"); }

 private:
  void rebuild();

  QStringList names_;
  std::vector<std::vector<double>> draws_;
  ParameterDensity prior_, confidential_;
  QString confidentialSource_;
  double lower_ = 0.0, upper_ = 1.0;
  int current_ = 0;
};

}  // namespace dpsynth::ui
