#include "ui/document/field_edit_command.h"

#include "ui/document/studio_document.h"

namespace dpsynth::ui {

QString editText(const FieldChange& change) {
  return QStringLiteral("%1 → %2").arg(fieldTitle(change.field),
                                       describeValue(change.field, change.after));
}

FieldEditCommand::FieldEditCommand(StudioDocument* document, std::vector<FieldChange> changes,
                                   const QString& text, int mergeId)
    : document_(document), changes_(std::move(changes)), mergeId_(mergeId) {
  setText(text);
}

void FieldEditCommand::redo() {
  StudioDocument::Values values;
  for (const auto& c : changes_) values.emplace_back(c.field, c.after);
  document_->applyValues(values);
}

void FieldEditCommand::undo() {
  StudioDocument::Values values;
  for (auto it = changes_.rbegin(); it != changes_.rend(); ++it)
    values.emplace_back(it->field, it->before);
  document_->applyValues(values);
}

bool FieldEditCommand::mergeWith(const QUndoCommand* other) {
  if (other->id() != id()) return false;
  const auto* next = static_cast<const FieldEditCommand*>(other);
  if (mergeId_ == 0 || next->mergeId_ != mergeId_ || changes_.size() != 1 ||
      next->changes_.size() != 1 || next->changes_.front().field != changes_.front().field) {
    return false;
  }
  changes_.front().after = next->changes_.front().after;
  setText(editText(changes_.front()));
  // A drag that ends where it started is no change at all.
  if (changes_.front().after == changes_.front().before) setObsolete(true);
  return true;
}

}  // namespace dpsynth::ui
