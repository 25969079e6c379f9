#pragma once
/// What the frontier sweeps: mechanisms (check boxes), an ε grid (eight log-spaced values from
/// 0.25 to 16 by default, editable), optional c / g / downscale sweeps, replicates R, the
/// utility measure shown, and the sampler settings of each replicate (taken from the synthesis
/// panel when the workspace is shown). Builds the study's config; no widgets beyond the form.
#include <QWidget>
#include <map>
#include <vector>

#include "core/mcmc/nuts_config.h"
#include "core/pipeline/mechanism.h"
#include "core/study/study_config.h"

class QCheckBox;
class QComboBox;
class QLineEdit;
class QSpinBox;

namespace dpsynth::ui {

class FrontierForm : public QWidget {
  Q_OBJECT

 public:
  explicit FrontierForm(QWidget* parent = nullptr);

  /// n values from lo to hi, equally spaced on a log scale, to 2 decimals (as the
  /// synthesis panel's ε field, so a point loads exactly).
  static std::vector<double> logGrid(double lo, double hi, int n);
  /// "0.25, 0.5 1;2" → {0.25, 0.5, 1, 2}; nullopt when a field is not a positive number.
  /// "auto" is accepted when allowAuto (downscale) and gives nullopt in the list.
  static std::optional<std::vector<std::optional<double>>> parseList(const QString& text,
                                                                    bool allowAuto = false);

  std::vector<core::pipeline::Mechanism> mechanisms() const;
  void setMechanisms(const std::vector<core::pipeline::Mechanism>& mechanisms);
  QString measure() const;
  void setMeasure(const QString& measure);
  /// Sampler settings (chains, warm-up, draws) as the synthesis panel has them.
  void setSampler(const core::mcmc::NutsConfig& nuts);
  /// The tuning the sweeps default to when left empty (the synthesis panel's c, g, downscale
  /// and PH bounds).
  void setTuning(const core::pipeline::MechanismConfig& tuning);

  /// The study for `bootstrap` (the loaded data); problems (in words) go to `problems`.
  core::study::StudyConfig config(const core::study::Bootstrap& bootstrap,
                                  core::privacy::Neighbours neighbours,
                                  std::vector<std::string>* problems) const;

  QLineEdit* epsilonEdit() const { return epsilon_; }
  QLineEdit* cEdit() const { return c_; }
  QLineEdit* gEdit() const { return g_; }
  QLineEdit* downscaleEdit() const { return downscale_; }
  QSpinBox* replicatesBox() const { return replicates_; }
  QSpinBox* chainsBox() const { return chains_; }
  QSpinBox* warmupBox() const { return warmup_; }
  QSpinBox* drawsBox() const { return draws_; }
  QComboBox* measureBox() const { return measure_; }
  QCheckBox* mechanismBox(core::pipeline::Mechanism m) const { return boxes_.at(m); }

 signals:
  void measureChanged(const QString& measure);

 private:
  std::map<core::pipeline::Mechanism, QCheckBox*> boxes_;
  QLineEdit* epsilon_ = nullptr;
  QLineEdit* c_ = nullptr;
  QLineEdit* g_ = nullptr;
  QLineEdit* downscale_ = nullptr;
  QSpinBox* replicates_ = nullptr;
  QSpinBox* chains_ = nullptr;
  QSpinBox* warmup_ = nullptr;
  QSpinBox* draws_ = nullptr;
  QSpinBox* seed_ = nullptr;
  QComboBox* measure_ = nullptr;
  core::pipeline::MechanismConfig tuning_;
};

}  // namespace dpsynth::ui
