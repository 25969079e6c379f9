#pragma once
/// The typed value the studio's panels add up to: which data choices, which mechanisms with
/// which tuning, which sampler settings. Built from the panels, handed to the worker, written
/// to and read from session files. No widgets here.
#include <QMetaType>
#include <QString>
#include <string>
#include <vector>

#include "core/data/dataset.h"
#include "core/pipeline/mechanism.h"
#include "core/pipeline/pipeline.h"
#include "core/session/session.h"

namespace dpsynth::ui {

/// Where the loaded table came from.
struct DataSource {
  QString file;         ///< CSV path (absolute), empty for a generated sample
  QString sample;       ///< bundled sample kind, empty for a user file
  std::string sha256;   ///< digest of the bytes that were parsed
  QString displayName;  ///< for titles and messages
};

struct StudioSettings {
  core::data::DatasetSpec dataset;
  /// The tuning shared by every checked mechanism (each mechanism ignores the fields it does
  /// not use); `mechanism` itself is ignored.
  core::pipeline::MechanismConfig tuning;
  std::vector<core::pipeline::Mechanism> mechanisms;  ///< checked, in allMechanisms() order
  core::pipeline::RunSettings run;
  int syntheticDatasets = 1;

  /// One MechanismConfig per checked mechanism, ready for runMechanisms().
  std::vector<core::pipeline::MechanismConfig> mechanismConfigs() const;
  /// run with model.family set from the dataset choice.
  core::pipeline::RunSettings runSettings() const;
  /// Every problem that would stop a run, in plain words (empty = ready).
  std::vector<std::string> problems() const;
};

/// The tuning defaults the studio starts with: MechanismConfig's, except ε = 5 so that the
/// strict-DP mechanisms are runnable straight away.
core::pipeline::MechanismConfig defaultTuning();
/// NutsConfig's defaults.
core::pipeline::RunSettings defaultRunSettings();

core::session::Session toSession(const StudioSettings& settings, const DataSource& source);
/// The session's first mechanism provides the shared tuning (the studio tunes all mechanisms
/// together; a session without mechanisms gets defaultTuning()); the source is filled from the
/// session's data fields.
StudioSettings fromSession(const core::session::Session& session, DataSource* source = nullptr);

}  // namespace dpsynth::ui

Q_DECLARE_METATYPE(dpsynth::ui::DataSource)
