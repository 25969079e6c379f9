#include "ui/controllers/settings_controller.h"

#include <QUndoStack>

#include "ui/commands/setting_command.h"
#include "ui/controllers/reference_data.h"
#include "ui/panels/data_panel.h"
#include "ui/panels/mechanism_panel.h"
#include "ui/panels/sampler_panel.h"
#include "ui/panels/tuning_panel.h"
#include "ui/widgets/load_indicator.h"
#include "ui/widgets/tuning_field.h"

namespace dpsynth::ui {

SettingsController::SettingsController(DataPanel* data, MechanismPanel* mechanisms,
                                       TuningPanel* tuning, SamplerPanel* sampler, QObject* parent)
    : QObject(parent),
      data_(data),
      mechanisms_(mechanisms),
      tuning_(tuning),
      sampler_(sampler),
      undo_(new QUndoStack(this)),
      reference_(new ReferenceData(this)),
      releaseSeed_(core::random::osSeed()) {
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
  // A new dataset gets a new release seed; within one dataset re-runs reuse cached stages.
  connect(data_, &DataPanel::loaded, this, [this] { renewReleaseSeed(); });
  // A file chosen in the window is read on the reference's worker thread.
  tuning_->referenceIndicator()->track(reference_->loader());
  connect(tuning_, &TuningPanel::referenceChosen, this,
          [this](const QString& path) { reference_->open(path, data_->choice()); });
  connect(tuning_, &TuningPanel::referenceCleared, this, [this] { reference_->clear(); });
  connect(reference_, &ReferenceData::changed, this, [this] {
    tuning_->showReferenceFile(reference_->path());
    emit settingsChanged();
  });
  connect(reference_, &ReferenceData::errorOccurred, this,
          [this](const ErrorReport& r) { emit errorOccurred(r); });
}

bool SettingsController::loadReference(const QString& path) {
  return reference_->load(path, data_->choice());
}

void SettingsController::renewReleaseSeed() { releaseSeed_ = core::random::osSeed(); }

QStringList SettingsController::resetForNewData() {
  // The family's defaults: unset PH bounds (the beta family then uses its support, 0 and 1),
  // automatic bins, MechanismConfig's CW radius.
  const auto defaults = defaultTuning();
  const auto variant = [](const std::optional<double>& v) { return v ? QVariant(*v) : QVariant(); };
  const std::vector<std::pair<QString, QVariant>> scaleDependent = {
      {QStringLiteral("lower"), variant(defaults.lower)},
      {QStringLiteral("upper"), variant(defaults.upper)},
      {QStringLiteral("bins"), defaults.bins > 0 ? QVariant(double(defaults.bins)) : QVariant()},
      {QStringLiteral("radius"), defaults.radius},
      {QStringLiteral("radiusRelative"), defaults.radiusRelative}};
  QStringList reset;
  // Settings tuned on the previous data are not a choice made on these (SPEC §0).
  if (sampler_->tunedOnConfidential()) {
    reset << tr("tuned on the confidential data → off");
    sampler_->setTunedOnConfidential(false);
  }
  for (const auto& [key, value] : scaleDependent) {
    const QVariant now = tuning_->settingValue(key);
    if (now == value) continue;
    const TuningField* field = tuning_->field(key);
    reset << QStringLiteral("%1 %2 → %3")
                 .arg(field ? field->spec().label : key, describeSettingValue(now),
                      value.isNull() && field ? field->spec().autoText
                                              : describeSettingValue(value));
    tuning_->setSettingValue(key, value);
  }
  undo_->clear();
  return reset;
}

void SettingsController::applyEdits(const QList<SettingChange>& changes, const QString& text) {
  QList<SettingChange> real;
  for (const auto& c : changes)
    if (c.editor && c.before != c.after) real.push_back(c);
  if (real.isEmpty()) return;
  undo_->beginMacro(text);
  for (const auto& c : real) {
    c.editor->setSettingValue(c.key, c.after);  // the panels announce changed()
    undo_->push(new SettingCommand(c));         // already applied: its first redo is a no-op
  }
  undo_->endMacro();
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
  s.reproducible = sampler_->reproducible();
  s.run.neighbours = sampler_->neighbours();
  s.run.size = sampler_->size();
  s.run.tunedOnConfidential = sampler_->tunedOnConfidential();
  s.releaseSeed = releaseSeed_;
  s.weightsFrom = reference_->path().toStdString();
  if (reference_->isLoaded())
    s.run.weightReference = reference_->datasetFor(s.dataset, &s.referenceProblem);
  return s;
}

void SettingsController::apply(const StudioSettings& settings, bool referenceInBackground) {
  {
    const QSignalBlocker block(this);  // one announcement at the end
    tuning_->setTuning(settings.tuning);
    sampler_->setNuts(settings.run.nuts, settings.syntheticDatasets);
    sampler_->setRelease(settings.reproducible, settings.run.neighbours);
    sampler_->setSize(settings.run.size);
    sampler_->setTunedOnConfidential(settings.run.tunedOnConfidential);
    mechanisms_->setChecked(settings.mechanisms);
    reference_->clear();
  }
  // Outside the blocker: a reference that cannot be read must reach the user.
  if (!settings.weightsFrom.empty()) {
    const QString path = QString::fromStdString(settings.weightsFrom);
    if (referenceInBackground) {
      reference_->open(path, settings.dataset);
    } else {
      reference_->load(path, settings.dataset);
    }
  }
  undo_->clear();
  emit settingsChanged();
}

}  // namespace dpsynth::ui
