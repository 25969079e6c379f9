#pragma once
/// A form that builds a study config (core/study/study_config): the source (a generator with
/// its parameters and n, or a CSV resampled with replacement), mechanisms, the ε grid, the c /
/// g / downscale grid, neighbours, R, sampler settings, PH bounds and the seed. The problems of
/// the current entries (unreadable fields and StudyConfig::validate()) are listed under it.
#include <QWidget>
#include <functional>
#include <optional>

#include "core/study/study_config.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QSpinBox;
class QStackedWidget;

namespace dpsynth::ui {

class StudyConfigForm : public QWidget {
  Q_OBJECT

 public:
  explicit StudyConfigForm(QWidget* parent = nullptr);

  /// Shows `config` in the fields (its note is kept with the config built from them).
  void setConfig(const core::study::StudyConfig& config);
  /// The config of the fields when it has no problem.
  std::optional<core::study::StudyConfig> config() const;
  /// Every problem of the fields, as shown under the form (empty: the config is usable).
  QStringList problems() const;
  /// Switches the source to a bootstrap of `bootstrap` (the synthesis workspace's data), with
  /// `adopt` applied to the rest of the fields' config (the synthesis settings) when given.
  void setBootstrap(const core::study::Bootstrap& bootstrap,
                    const std::function<void(core::study::StudyConfig&)>& adopt = {});
  /// The histogram bounds' placeholders name the source family's natural bounds (or say that
  /// bounds are required).
  void updateBoundHints();

  QComboBox* sourceBox() const { return sourceKind_; }
  QComboBox* generatorBox() const { return generator_; }
  QLineEdit* parametersEdit() const { return parameters_; }
  QSpinBox* sizeBox() const { return n_; }
  QListWidget* mechanismList() const { return mechanisms_; }
  QLineEdit* epsilonEdit() const { return epsilon_; }
  QSpinBox* replicatesBox() const { return replicates_; }
  QSpinBox* warmupBox() const { return warmup_; }
  QSpinBox* drawsBox() const { return draws_; }
  QSpinBox* chainsBox() const { return chains_; }
  QLabel* messagesLabel() const { return messages_; }

 signals:
  void changed();

 private:
  /// Builds the config; parse problems go to `problems` (validate() is not run).
  core::study::StudyConfig read(QStringList& problems) const;
  void refresh();

  QComboBox* sourceKind_ = nullptr;
  QStackedWidget* sourcePages_ = nullptr;
  QComboBox* generator_ = nullptr;
  QLineEdit* parameters_ = nullptr;
  QSpinBox* n_ = nullptr;
  QLineEdit* bootFile_ = nullptr;
  QLineEdit* bootOutcome_ = nullptr;
  QLineEdit* bootCovariates_ = nullptr;
  QComboBox* bootFamily_ = nullptr;
  QListWidget* mechanisms_ = nullptr;
  QLineEdit* epsilon_ = nullptr;
  QLineEdit* c_ = nullptr;
  QLineEdit* g_ = nullptr;
  QLineEdit* downscale_ = nullptr;
  QComboBox* neighbours_ = nullptr;
  QSpinBox* replicates_ = nullptr;
  QSpinBox* chains_ = nullptr;
  QSpinBox* warmup_ = nullptr;
  QSpinBox* draws_ = nullptr;
  QLineEdit* phLower_ = nullptr;
  QLineEdit* phUpper_ = nullptr;
  QSpinBox* phBins_ = nullptr;
  QLineEdit* seed_ = nullptr;
  QLabel* messages_ = nullptr;
  std::string note_;
  bool filling_ = false;
};

}  // namespace dpsynth::ui
