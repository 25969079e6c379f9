#pragma once
/// A checkable list of every mechanism: the checked ones run side by side (sharing stages such
/// as the unweighted fit); the selected one drives the guarantee badge.
#include <QIcon>
#include <QWidget>
#include <map>
#include <optional>
#include <vector>

#include "core/pipeline/mechanism.h"
#include "ui/commands/setting_change.h"

class QListWidget;

class QListWidgetItem;

namespace dpsynth::ui {

class MechanismPanel : public QWidget, public SettingsEditor {
  Q_OBJECT

 public:
  explicit MechanismPanel(QWidget* parent = nullptr);

  /// Checked mechanisms in allMechanisms() order.
  std::vector<core::pipeline::Mechanism> checked() const;
  /// Programmatic: no edit reported, one changed().
  void setChecked(const std::vector<core::pipeline::Mechanism>& mechanisms);
  /// The highlighted mechanism (or the first checked one when none is highlighted).
  std::optional<core::pipeline::Mechanism> current() const;
  void setCurrent(core::pipeline::Mechanism mechanism);

  /// Keys are mechanism names ("lw-final"); values are bools.
  QVariant settingValue(const QString& key) const override;
  void setSettingValue(const QString& key, const QVariant& value) override;

  /// Marks a mechanism's row (warning icon, the text in its tooltip) for a setting that does
  /// not fit; an empty text clears the mark.
  void setWarning(core::pipeline::Mechanism mechanism, const QString& text);
  QString warning(core::pipeline::Mechanism mechanism) const;
  QListWidget* list() const { return list_; }
  /// Marks mechanisms that cannot run with the settings on screen (warning icon, red text, the
  /// reason as tooltip); mechanisms not in the map are unmarked.
  void setProblems(const std::map<core::pipeline::Mechanism, QString>& problems);
  /// The reason a mechanism is marked ("" when it is not).
  QString problemOf(core::pipeline::Mechanism mechanism) const;

 signals:
  void edited(const SettingChange& change);
  void changed();
  void currentChanged();

 private:
  /// Icon, colour and tooltip of a row from its problem and its warning.
  void decorate(QListWidgetItem* item) const;

  QListWidget* list_ = nullptr;
  std::map<core::pipeline::Mechanism, QString> problems_;
  QIcon blankIcon_;
  bool silent_ = false;
};

}  // namespace dpsynth::ui
