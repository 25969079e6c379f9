#pragma once
/// The mechanisms' tuning (c, g, k, ε, CW radius, downscale, PH bounds and bins), shared by every
/// checked mechanism, and the choice of a reference dataset for weight functions. Every user
/// edit of a value is reported for the undo stack.
#include <QMap>
#include <QWidget>

#include "core/pipeline/mechanism.h"
#include "ui/commands/setting_change.h"

class QCheckBox;
class QFormLayout;
class QLabel;
class QPushButton;

namespace dpsynth::ui {

class LoadIndicator;
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
  /// "bins".
  QStringList keys() const;

  /// Shows the reference file in use (empty: weights from the data).
  void showReferenceFile(const QString& path);
  QPushButton* referenceChooseButton() const { return referenceChoose_; }
  QPushButton* referenceClearButton() const { return referenceClear_; }
  QLabel* referenceLabel() const { return referenceLabel_; }
  /// Progress and Cancel while a chosen reference file is read (the controller connects it).
  LoadIndicator* referenceIndicator() const { return referenceIndicator_; }

 signals:
  void edited(const SettingChange& change);
  void changed();
  /// The user picked a reference CSV ("Weights from a reference dataset…").
  void referenceChosen(const QString& path);
  void referenceCleared();

 private:
  void addField(QFormLayout* form, TuningFieldSpec spec);
  void addCheck(QFormLayout* form, const QString& key, const QString& text, bool defaultValue,
                const QString& toolTip);
  void addReferenceRow(QFormLayout* form);

  QMap<QString, TuningField*> fields_;
  QMap<QString, QCheckBox*> checks_;
  QLabel* referenceLabel_ = nullptr;
  LoadIndicator* referenceIndicator_ = nullptr;
  QPushButton* referenceChoose_ = nullptr;
  QPushButton* referenceClear_ = nullptr;
  bool silent_ = false;
};

}  // namespace dpsynth::ui
