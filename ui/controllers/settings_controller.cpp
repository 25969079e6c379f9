#include "ui/controllers/settings_controller.h"

#include <QUndoStack>

#include "ui/commands/setting_command.h"
#include "ui/panels/data_panel.h"
#include "ui/panels/mechanism_panel.h"
#include "ui/panels/sampler_panel.h"
#include "ui/panels/tuning_panel.h"

namespace dpsynth::ui {

SettingsController::SettingsController(DataPanel* data, MechanismPanel* mechanisms,
                                       TuningPanel* tuning, SamplerPanel* sampler, QObject* parent)
    : QObject(parent),
      data_(data),
      mechanisms_(mechanisms),
      tuning_(tuning),
      sampler_(sampler),
      undo_(new QUndoStack(this)) {
  const auto push = [this](const SettingChange& change) {
    undo_->push(new SettingCommand(change));
  };
  connect(mechanisms_, &MechanismPanel::edited, this, push);
  connect(tuning_, &TuningPanel::edited, this, push);
  connect(sampler_, &SamplerPanel::edited, this, push);
  const auto changed = [this] { emit settingsChanged(); };
  connect(mechanisms_, &MechanismPanel::changed, this, changed);
  connect(tuning_, &TuningPanel::changed, this, changed);
  connect(sampler_, &SamplerPanel::changed, this, changed);
}

StudioSettings SettingsController::current() const {
  StudioSettings s;
  s.dataset = data_->choice();
  s.tuning = tuning_->tuning();
  s.mechanisms = mechanisms_->checked();
  s.run.nuts = sampler_->nuts();
  s.run.model.sdScale = data_->sdScale();
  s.run.model.family = s.dataset.family;
  s.syntheticDatasets = sampler_->syntheticDatasets();
  return s;
}

void SettingsController::apply(const StudioSettings& settings) {
  {
    const QSignalBlocker block(this);  // one announcement at the end
    tuning_->setTuning(settings.tuning);
    sampler_->setNuts(settings.run.nuts, settings.syntheticDatasets);
    mechanisms_->setChecked(settings.mechanisms);
  }
  undo_->clear();
  emit settingsChanged();
}

}  // namespace dpsynth::ui
