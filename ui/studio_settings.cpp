#include "ui/studio_settings.h"

namespace dpsynth::ui {

namespace pipeline = core::pipeline;

std::vector<pipeline::MechanismConfig> StudioSettings::mechanismConfigs() const {
  std::vector<pipeline::MechanismConfig> configs;
  for (auto mechanism : mechanisms) {
    pipeline::MechanismConfig config = tuning;
    config.mechanism = mechanism;
    // SPEC §4: a family's natural bounds (beta's (0, 1)) are public: core's one rule.
    configs.push_back(pipeline::withFamilyDefaults(config, dataset.family));
  }
  return configs;
}

pipeline::RunSettings StudioSettings::runSettings() const {
  pipeline::RunSettings settings = run;
  settings.model.family = dataset.family;
  if (reproducible) {
    settings.release = false;
  } else {
    settings.nuts.seed = releaseSeed ? *releaseSeed : core::random::osSeed();
    settings.release = true;
  }
  return settings;
}

std::vector<std::string> StudioSettings::problems() const {
  std::vector<std::string> out;
  if (mechanisms.empty()) out.push_back("check at least one mechanism");
  for (const auto& config : mechanismConfigs()) {
    for (const auto& p : config.validate()) out.push_back(p);
  }
  for (const auto& p : run.nuts.validate()) out.push_back("sampler: " + p);
  for (const auto& p : run.size.validate()) out.push_back("size: " + p);
  if (!referenceProblem.empty()) out.push_back("reference data: " + referenceProblem);
  return out;
}

pipeline::MechanismConfig defaultTuning() {
  pipeline::MechanismConfig config;
  config.epsilon = 5.0;
  return config;
}

pipeline::RunSettings defaultRunSettings() { return pipeline::RunSettings{}; }

core::session::Session toSession(const StudioSettings& settings, const DataSource& source) {
  core::session::Session session;
  session.dataFile = source.file.toStdString();
  session.sample = source.sample.toStdString();
  session.dataSha256 = source.sha256;
  session.dataset = settings.dataset;
  session.familyDeclared = settings.familyDeclared;
  session.mechanisms = settings.mechanismConfigs();
  // The seed field, never the release seed: a release session stores "seed": null.
  session.run = settings.run;
  session.run.model.family = settings.dataset.family;
  session.run.release = false;
  session.run.weightReference.reset();
  session.reproducible = settings.reproducible;
  session.weightsFrom = settings.weightsFrom;
  session.syntheticDatasets = settings.syntheticDatasets;
  return session;
}

StudioSettings fromSession(const core::session::Session& session, DataSource* source) {
  StudioSettings settings;
  settings.dataset = session.dataset;
  // A family only suggested from the data stays so (a release then asks for it to be picked).
  settings.familyDeclared = session.familyDeclared;
  settings.tuning = session.mechanisms.empty() ? defaultTuning() : session.mechanisms.front();
  for (const auto& config : session.mechanisms) settings.mechanisms.push_back(config.mechanism);
  settings.run = session.run;
  settings.run.model.family = session.dataset.family;
  settings.run.release = false;
  settings.run.weightReference.reset();  // loaded from weightsFrom by the caller
  settings.syntheticDatasets = session.syntheticDatasets;
  // Older sessions' seeded-PH switch meant a study run: it stays one (SPEC §0).
  settings.reproducible = session.reproducible;
  for (const auto& config : session.mechanisms)
    if (config.reproducibleNoise) settings.reproducible = true;
  settings.tuning.reproducibleNoise = false;  // the run-wide switch says it now
  settings.weightsFrom = session.weightsFrom;
  if (source) {
    source->file = QString::fromStdString(session.dataFile);
    source->sample = QString::fromStdString(session.sample);
    source->sha256 = session.dataSha256;
  }
  return settings;
}

}  // namespace dpsynth::ui
