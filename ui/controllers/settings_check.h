#pragma once
/// Checks the settings on screen before Run, mechanism by mechanism: a mechanism whose settings
/// are incomplete (ph without bounds, censor-w without ε) is marked in the mechanism list and
/// its fields are marked in the tuning panel, and Run runs the other checked mechanisms.
/// Messages name the studio's fields, never command-line flags.
#include <QObject>
#include <QStringList>
#include <vector>

#include "core/pipeline/setting_problem.h"
#include "ui/studio_settings.h"

namespace dpsynth::ui {

class MechanismPanel;
class TuningPanel;

/// One checked mechanism that cannot run, and why.
struct MechanismIssue {
  core::pipeline::Mechanism mechanism;
  core::pipeline::SettingProblem problem;
  QString text;  ///< "ph: the perturbed histogram needs … set 'PH lower' and 'PH upper' …"
};

/// What pressing Run does with some settings.
struct RunPlan {
  StudioSettings settings;  ///< with only the mechanisms that can run
  QStringList blocking;     ///< problems that stop the whole run (no mechanism can run, sampler)
  QStringList skipped;      ///< one line per checked mechanism left out, as MechanismIssue::text
  bool canRun() const { return blocking.isEmpty(); }
};

/// Every checked mechanism's problems, fields named as in the studio.
std::vector<MechanismIssue> mechanismIssues(const StudioSettings& settings);
/// The mechanisms that take weights from the reference dataset when one is loaded.
bool usesReference(core::pipeline::Mechanism mechanism);
/// The plan for Run: problems of the whole run block it; a mechanism's problems only leave that
/// mechanism out (the run is blocked when no checked mechanism is left). A reference dataset
/// that does not fit the data leaves out censor-w and weighted-e only, and the others run
/// without it.
RunPlan planRun(const StudioSettings& settings);

class SettingsCheck : public QObject {
  Q_OBJECT

 public:
  SettingsCheck(MechanismPanel* mechanisms, TuningPanel* tuning, QObject* parent = nullptr);

  /// Marks (and unmarks) mechanisms and fields for these settings.
  void check(const StudioSettings& settings);
  const std::vector<MechanismIssue>& issues() const { return issues_; }

 private:
  MechanismPanel* mechanisms_;
  TuningPanel* tuning_;
  std::vector<MechanismIssue> issues_;
};

}  // namespace dpsynth::ui
