#pragma once
/// Release and sampler settings: the neighbour relation, the "reproducible (not for release)"
/// switch beside the seed, chains, warm-up, draws, threads, the number of synthetic datasets
/// to release, and whether the settings were tuned on the confidential data (SPEC §0: a choice
/// the release note then states as not covered by ε). User edits are reported for the undo
/// stack.
#include <QMap>
#include <QWidget>

#include "core/mcmc/nuts_config.h"
#include "core/privacy/neighbours.h"
#include "core/privacy/size_release.h"
#include "ui/commands/setting_change.h"

class QCheckBox;
class QComboBox;
class QLineEdit;

namespace dpsynth::ui {

class TuningField;

class SamplerPanel : public QWidget, public SettingsEditor {
  Q_OBJECT

 public:
  explicit SamplerPanel(QWidget* parent = nullptr);

  /// chains, warmup, draws, seed, threads from the panel; other fields keep NutsConfig defaults.
  core::mcmc::NutsConfig nuts() const;
  int syntheticDatasets() const;
  /// Programmatic: no edits reported, one changed().
  void setNuts(const core::mcmc::NutsConfig& nuts, int syntheticDatasets);

  /// The published size's settings (SPEC §0): a size declared public, or ε_n of a noisy one.
  core::privacy::SizeSettings size() const;
  /// Programmatic (session load): no edits reported, one changed().
  void setSize(const core::privacy::SizeSettings& size);

  /// The switch: true = the seed field is used and the run is not for release.
  bool reproducible() const;
  core::privacy::Neighbours neighbours() const;
  /// Programmatic (session load): no edits reported, one changed().
  void setRelease(bool reproducible, core::privacy::Neighbours neighbours);
  /// The mechanism, ε and tuning were picked on the confidential data (a frontier point of a
  /// bootstrap of them): RunSettings::tunedOnConfidential.
  bool tunedOnConfidential() const;
  /// Programmatic (session load, new data): no edit reported, one changed().
  void setTunedOnConfidential(bool tuned);

  /// Keys: "chains", "warmup", "draws", "seed", "threads", "syntheticDatasets", "declaredRows"
  /// (null: not declared), "sizeEpsilon", "reproducible" (bool), "neighbours" (int of
  /// Neighbours), "tunedOnConfidential" (bool). seed is a qulonglong; threads is null for auto.
  QVariant settingValue(const QString& key) const override;
  void setSettingValue(const QString& key, const QVariant& value) override;

  TuningField* field(const QString& key) const { return fields_.value(key); }
  QLineEdit* seedEdit() const { return seed_; }
  QCheckBox* reproducibleBox() const { return reproducible_; }
  QCheckBox* tunedOnConfidentialBox() const { return tunedOnConfidential_; }
  QComboBox* neighboursBox() const { return neighbours_; }

 signals:
  void edited(const SettingChange& change);
  void changed();

 private:
  void onSeedEdited();
  void showReproducible();

  QMap<QString, TuningField*> fields_;
  QLineEdit* seed_ = nullptr;
  QCheckBox* reproducible_ = nullptr;
  QCheckBox* tunedOnConfidential_ = nullptr;
  QComboBox* neighbours_ = nullptr;
  quint64 committedSeed_ = 1;
  /// The session's metric setting: no widget yet, but kept so that a session round trip through
  /// the studio does not reset it to auto.
  core::mcmc::MetricChoice metric_ = core::mcmc::MetricChoice::automatic;
  bool silent_ = false;
};

}  // namespace dpsynth::ui
