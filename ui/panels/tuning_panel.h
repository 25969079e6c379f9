#pragma once
/// The mechanisms' tuning (c, g, k, ε, CW radius, downscale, PH bounds and bins, reproducible
/// noise), shared by every checked mechanism. Every user edit is reported for the undo stack.
#include <QMap>
#include <QWidget>

#include "core/pipeline/mechanism.h"
#include "ui/commands/setting_change.h"

class QCheckBox;
class QFormLayout;

namespace dpsynth::ui {

class TuningField;
struct TuningFieldSpec;

class TuningPanel : public QWidget, public SettingsEditor {
  Q_OBJECT

 public:
  explicit TuningPanel(QWidget* parent = nullptr);

  /// The tuning as a MechanismConfig template (its `mechanism` is left at its default).
  core::pipeline::MechanismConfig tuning() const;
  /// Programmatic (session load, reset): no edits reported, one changed() at the end.
  void setTuning(const core::pipeline::MechanismConfig& config);

  QVariant settingValue(const QString& key) const override;
  void setSettingValue(const QString& key, const QVariant& value) override;

  TuningField* field(const QString& key) const { return fields_.value(key); }
  QCheckBox* checkBox(const QString& key) const { return checks_.value(key); }
  /// "c", "g", "k", "epsilon", "radius", "radiusRelative", "downscale", "lower", "upper",
  /// "bins", "reproducibleNoise".
  QStringList keys() const;

 signals:
  void edited(const SettingChange& change);
  void changed();

 private:
  void addField(QFormLayout* form, TuningFieldSpec spec);
  void addCheck(QFormLayout* form, const QString& key, const QString& text, bool defaultValue,
                const QString& toolTip);

  QMap<QString, TuningField*> fields_;
  QMap<QString, QCheckBox*> checks_;
  bool silent_ = false;
};

}  // namespace dpsynth::ui
