#pragma once
/// What the frontier sweeps and on what: the source of the replicates (public reference data,
/// a generator, or — outside ε — the confidential data), mechanisms (check boxes), an ε grid
/// (eight log-spaced values from 0.25 to 16 by default, editable), optional c / g / downscale
/// sweeps, replicates R, the utility measure shown, and the sampler settings of each replicate
/// (taken from the synthesis panel when the workspace is shown). Builds the study's config; no
/// widgets beyond the form.
#include <QWidget>
#include <map>
#include <vector>

#include "core/mcmc/nuts_config.h"
#include "core/models/family.h"
#include "core/pipeline/mechanism.h"
#include "core/study/study_config.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace dpsynth::ui {

class FrontierForm : public QWidget {
  Q_OBJECT

 public:
  /// Where the replicates come from (SPEC §0: choices made on the confidential data are
  /// outputs too, so the public sources come first).
  enum class Source {
    reference,    ///< the public reference dataset (Tuning's "weights from"), resampled
    generator,    ///< a parametric generator (core::study::Generator), no covariates
    confidential  ///< the data loaded in Synthesis, resampled: not covered by ε
  };

  explicit FrontierForm(QWidget* parent = nullptr);

  /// A fixed public default per family (never read from the data): poisson(10), negbin(3,2),
  /// beta(2,5), normal(0,1).
  static QString defaultGenerator(core::models::Family family);
  /// "public reference data", "generator", "confidential data".
  static QString sourceName(Source source);

  Source source() const;
  /// Programmatic choice (kept like a user's choice when the reference comes and goes);
  /// ignored for the reference while none is available.
  void setSource(Source source);
  /// Whether a reference dataset is loaded and fits the data's columns (`name` for the list).
  /// Until the user picks a source, the default follows: the reference when there is one,
  /// else the generator. A chosen reference that goes away falls back to the generator.
  void setReferenceAvailable(bool available, const QString& name);
  /// The family of the data in Synthesis: the generator's text follows it (its default for the
  /// family) until the user edits it.
  void setFamily(core::models::Family family);

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

  /// The study: for the generator source its generator and records per replicate; for the
  /// reference and confidential sources `bootstrap` (the file only names the data, the rows
  /// come from memory; nullopt = no such data, a problem). Problems (in words) go to
  /// `problems`.
  core::study::StudyConfig config(const std::optional<core::study::Bootstrap>& bootstrap,
                                  core::privacy::Neighbours neighbours,
                                  std::vector<std::string>* problems) const;

  QComboBox* sourceBox() const { return source_; }
  QLineEdit* generatorEdit() const { return generator_; }
  QSpinBox* recordsBox() const { return records_; }
  QLabel* sourceWarning() const { return sourceWarning_; }

  QLineEdit* epsilonEdit() const { return epsilon_; }
  QLineEdit* cEdit() const { return c_; }
  QLineEdit* gEdit() const { return g_; }
  QLineEdit* downscaleEdit() const { return downscale_; }
  QSpinBox* replicatesBox() const { return replicates_; }
  QSpinBox* chainsBox() const { return chains_; }
  QSpinBox* warmupBox() const { return warmup_; }
  QSpinBox* drawsBox() const { return draws_; }
  QComboBox* measureBox() const { return measure_; }
  /// The frontier's horizontal axis (ε, or the disclosure risk attribute CAP − baseline).
  enum class XAxis { epsilon, attributeCapGain };
  XAxis xAxis() const;
  void setXAxis(XAxis axis);
  QComboBox* xAxisBox() const { return xAxis_; }
  /// A measure's name in words ("largest ECDF distance" for max_ecdf).
  static QString measureTitle(const QString& id);
  QCheckBox* mechanismBox(core::pipeline::Mechanism m) const { return boxes_.at(m); }

 signals:
  void measureChanged(const QString& measure);
  void xAxisChanged(dpsynth::ui::FrontierForm::XAxis axis);
  /// The source was switched (by the user or a default following the reference).
  void sourceChanged(dpsynth::ui::FrontierForm::Source source);

 private:
  void showSource();

  QComboBox* source_ = nullptr;
  QLineEdit* generator_ = nullptr;
  QSpinBox* records_ = nullptr;
  QLabel* sourceWarning_ = nullptr;
  bool sourceChosen_ = false;  ///< the user (or setSource) picked the source: no default follows
  core::models::Family family_ = core::models::Family::negbin;
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
  QComboBox* xAxis_ = nullptr;
  core::pipeline::MechanismConfig tuning_;
};

}  // namespace dpsynth::ui
