#pragma once
/// One undo step of the studio document: the typed values of one or more fields before and
/// after a user edit. redo() sets the after values, undo() the before values, through the
/// document (which announces the change, so auto-run reacts to undo and redo as well).
#include <QUndoCommand>
#include <vector>

#include "ui/document/settings_field.h"

namespace dpsynth::ui {

class StudioDocument;

class FieldEditCommand : public QUndoCommand {
 public:
  static constexpr int kId = 0x5e78;

  /// mergeId != 0: a single-field edit that merges with the next edit of the same field and
  /// the same mergeId (the steps of one slider drag, one series of wheel notches).
  FieldEditCommand(StudioDocument* document, std::vector<FieldChange> changes, const QString& text,
                   int mergeId = 0);

  void undo() override;
  void redo() override;
  int id() const override { return mergeId_ != 0 ? kId : -1; }
  bool mergeWith(const QUndoCommand* other) override;

  const std::vector<FieldChange>& changes() const { return changes_; }

 private:
  StudioDocument* document_;
  std::vector<FieldChange> changes_;
  int mergeId_ = 0;
};

/// "ε → 0.5", or `text` for several fields.
QString editText(const FieldChange& change);

}  // namespace dpsynth::ui
