#pragma once
/// The typed settings of a studio document: which data choices, which mechanisms with which
/// tuning, which sampler settings. Held by the StudioDocument (ui/document/), edited field by
/// field (ui/document/settings_field.h), handed to the worker, written to and read from
/// session files. No widgets here.
#include <QMetaType>
#include <QString>
#include <optional>
#include <string>
#include <vector>

#include "core/data/dataset.h"
#include "core/pipeline/mechanism.h"
#include "core/pipeline/pipeline.h"
#include "core/random/seed.h"
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
  /// The family in `dataset` was declared (picked by the analyst, even the suggested one, or
  /// restored from a session), not suggested from the confidential values. SPEC §0: a release
  /// needs a declared family (a bundled sample's, public data, counts as declared).
  bool familyDeclared = false;
  /// The tuning shared by every checked mechanism (each mechanism ignores the fields it does
  /// not use); `mechanism` itself is ignored.
  core::pipeline::MechanismConfig tuning;
  std::vector<core::pipeline::Mechanism> mechanisms;  ///< checked, in allMechanisms() order
  /// nuts.seed is the seed field (used only when reproducible); neighbours and model as shown;
  /// weightReference is the loaded reference dataset (null: weights from the data).
  core::pipeline::RunSettings run;
  int syntheticDatasets = 1;
  /// The "reproducible (not for release)" switch: true runs with run.nuts.seed and every output
  /// says not_for_release; false (the default) is a release with releaseSeed.
  bool reproducible = false;
  /// The OS seed of a release (SPEC §0): drawn once per loaded dataset so that auto-run re-runs
  /// can reuse cached stages; kept in memory only, never shown and never saved.
  std::optional<core::random::Seed> releaseSeed;
  /// Path of the public reference CSV for censor-w / weighted-e weight functions (empty: none).
  std::string weightsFrom;
  /// Why the reference data cannot be used with the current column choices (empty: fine).
  std::string referenceProblem;

  /// One MechanismConfig per checked mechanism, ready for runMechanisms().
  std::vector<core::pipeline::MechanismConfig> mechanismConfigs() const;
  /// run with model.family set from the dataset choice, and release/seed from the switch: a
  /// release gets releaseSeed (a fresh OS seed when there is none), a reproducible run the seed
  /// field.
  core::pipeline::RunSettings runSettings() const;
  /// Every problem that would stop a run, in plain words (empty = ready).
  std::vector<std::string> problems() const;
};

/// The tuning defaults the studio starts with: MechanismConfig's, except ε = 5 so that the
/// strict-DP mechanisms are runnable straight away.
core::pipeline::MechanismConfig defaultTuning();
/// NutsConfig's defaults.
core::pipeline::RunSettings defaultRunSettings();

/// The session of these settings: reproducible as switched (a release stores no seed: the OS
/// seed never reaches a Session), the neighbour relation and the reference path.
core::session::Session toSession(const StudioSettings& settings, const DataSource& source);
/// The session's first mechanism provides the shared tuning (the studio tunes all mechanisms
/// together; a session without mechanisms gets defaultTuning()); the source is filled from the
/// session's data fields.
StudioSettings fromSession(const core::session::Session& session, DataSource* source = nullptr);

}  // namespace dpsynth::ui

Q_DECLARE_METATYPE(dpsynth::ui::DataSource)
