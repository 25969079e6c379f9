#pragma once
/// Adds the settings panels up to one StudioSettings value, puts every user edit on the undo
/// stack, and announces changes (for auto-run and the guarantee badge).
#include <QObject>

#include "ui/studio_settings.h"

class QUndoStack;

namespace dpsynth::ui {

class DataPanel;
class MechanismPanel;
class SamplerPanel;
class TuningPanel;

class SettingsController : public QObject {
  Q_OBJECT

 public:
  SettingsController(DataPanel* data, MechanismPanel* mechanisms, TuningPanel* tuning,
                     SamplerPanel* sampler, QObject* parent = nullptr);

  StudioSettings current() const;
  /// Shows stored settings (session load); the undo history starts afresh.
  void apply(const StudioSettings& settings);
  QUndoStack* undoStack() const { return undo_; }

 signals:
  /// Any change of a run setting: user edit, undo/redo or apply().
  void settingsChanged();

 private:
  DataPanel* data_;
  MechanismPanel* mechanisms_;
  TuningPanel* tuning_;
  SamplerPanel* sampler_;
  QUndoStack* undo_;
};

}  // namespace dpsynth::ui
