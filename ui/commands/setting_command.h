#pragma once
#include <QUndoCommand>

#include "ui/commands/setting_change.h"

namespace dpsynth::ui {

/// Undo step for one committed settings change. The edit has already happened when the command
/// is pushed, so the first redo() does nothing.
class SettingCommand : public QUndoCommand {
 public:
  static constexpr int kId = 0x5e77;

  explicit SettingCommand(SettingChange change, QUndoCommand* parent = nullptr);

  void undo() override;
  void redo() override;
  int id() const override { return kId; }
  /// Merges the steps of one slider drag (same editor, key and drag id).
  bool mergeWith(const QUndoCommand* other) override;

  const SettingChange& change() const { return change_; }

 private:
  void updateText();

  SettingChange change_;
  bool applied_ = true;
};

/// "0.95", "auto", "on"/"off": how a value reads in the Edit menu.
QString describeSettingValue(const QVariant& value);

}  // namespace dpsynth::ui
