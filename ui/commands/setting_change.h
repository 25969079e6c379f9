#pragma once
/// The undo machinery's view of a settings panel: named values that can be read and set back.
/// Panels report every user edit as a SettingChange; a SettingCommand on the window's
/// QUndoStack can then put the old value back.
#include <QString>
#include <QVariant>

namespace dpsynth::ui {

class SettingsEditor {
 public:
  virtual ~SettingsEditor() = default;
  virtual QVariant settingValue(const QString& key) const = 0;
  /// Sets a value without reporting it as a user edit (the panel still announces that its
  /// settings changed, so that auto-run reacts to undo and redo as well).
  virtual void setSettingValue(const QString& key, const QVariant& value) = 0;
};

/// One user edit. A null QVariant stands for "auto"/"not set".
struct SettingChange {
  SettingsEditor* editor = nullptr;
  QString key;
  QVariant before;
  QVariant after;
  /// Non-zero for the steps of one slider drag: consecutive changes of the same key and drag
  /// merge into one undo step.
  int dragId = 0;
};

}  // namespace dpsynth::ui
