#include "ui/commands/setting_command.h"

namespace dpsynth::ui {

QString describeSettingValue(const QVariant& value) {
  if (!value.isValid() || value.isNull()) return QStringLiteral("auto");
  if (value.typeId() == QMetaType::Bool) return value.toBool() ? QStringLiteral("on") : "off";
  if (value.typeId() == QMetaType::Double) return QString::number(value.toDouble(), 'g', 6);
  return value.toString();
}

SettingCommand::SettingCommand(SettingChange change, QUndoCommand* parent)
    : QUndoCommand(parent), change_(std::move(change)) {
  updateText();
}

void SettingCommand::updateText() {
  setText(QStringLiteral("%1 → %2").arg(change_.key, describeSettingValue(change_.after)));
}

void SettingCommand::undo() {
  change_.editor->setSettingValue(change_.key, change_.before);
  applied_ = false;
}

void SettingCommand::redo() {
  if (applied_) return;  // pushed after the user already made the change
  change_.editor->setSettingValue(change_.key, change_.after);
  applied_ = true;
}

bool SettingCommand::mergeWith(const QUndoCommand* other) {
  if (other->id() != id()) return false;
  const auto& next = static_cast<const SettingCommand*>(other)->change_;
  if (change_.dragId == 0 || next.dragId != change_.dragId || next.key != change_.key ||
      next.editor != change_.editor) {
    return false;
  }
  change_.after = next.after;
  updateText();
  // A drag that ends where it started is no change at all.
  if (change_.after == change_.before) setObsolete(true);
  return true;
}

}  // namespace dpsynth::ui
