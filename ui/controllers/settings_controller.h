#pragma once
/// Adds the settings panels up to one StudioSettings value, puts every user edit on the undo
/// stack, and announces changes (for auto-run and the guarantee badge). It also keeps what the
/// panels cannot show: the release seed of the loaded dataset (memory only) and the reference
/// dataset for weight functions.
#include <QObject>

#include "core/random/seed.h"
#include "ui/commands/setting_change.h"
#include "ui/dialogs/error_report.h"
#include "ui/studio_settings.h"

class QUndoStack;

namespace dpsynth::ui {

class DataPanel;
class MechanismPanel;
class ReferenceData;
class SamplerPanel;
class TuningPanel;

class SettingsController : public QObject {
  Q_OBJECT

 public:
  SettingsController(DataPanel* data, MechanismPanel* mechanisms, TuningPanel* tuning,
                     SamplerPanel* sampler, QObject* parent = nullptr);

  StudioSettings current() const;
  /// Shows stored settings (session load); the undo history starts afresh. A weightsFrom path
  /// is loaded as the reference (typed with settings.dataset), in place or on the reference's
  /// worker thread; a reference that cannot be read is reported through errorOccurred() and
  /// left out.
  void apply(const StudioSettings& settings, bool referenceInBackground = false);
  QUndoStack* undoStack() const { return undo_; }
  /// Sets several values as ONE user edit (one undo step named `text`), e.g. a frontier
  /// point's mechanism, ε and tuning: each change's editor gets its `after` value; the
  /// `before` values are what undo puts back. Changes whose before equals after are dropped.
  void applyEdits(const QList<SettingChange>& changes, const QString& text);
  ReferenceData* reference() const { return reference_; }
  /// Loads a reference CSV for the current column choices on the calling thread (start-up;
  /// errors through errorOccurred()). A file chosen in the window is read on a worker thread.
  bool loadReference(const QString& path);
  /// Draws a new release seed from the OS (a new dataset was loaded).
  void renewReleaseSeed();
  /// New data: the settings that depend on the data's scale (PH bounds and bins, CW radius) go
  /// back to the family's defaults, and the undo history (edits of the old data) starts afresh.
  /// Returns what was reset, as "PH upper 300 → unset" (empty when everything was at default).
  QStringList resetForNewData();

 signals:
  /// Any change of a run setting: user edit, undo/redo or apply().
  void settingsChanged();
  void errorOccurred(const ErrorReport& report);

 private:
  DataPanel* data_;
  MechanismPanel* mechanisms_;
  TuningPanel* tuning_;
  SamplerPanel* sampler_;
  QUndoStack* undo_;
  ReferenceData* reference_;
  core::random::Seed releaseSeed_;
};

}  // namespace dpsynth::ui
