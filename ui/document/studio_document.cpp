#include "ui/document/studio_document.h"

#include <QDateTime>
#include <QFileInfo>
#include <QUndoStack>
#include <algorithm>

#include "core/data/data_error.h"
#include "core/pipeline/mechanism.h"
#include "ui/dialogs/error_report.h"
#include "ui/document/field_edit_command.h"
#include "ui/document/stored_results.h"

namespace dpsynth::ui {

namespace data = core::data;
namespace pipeline = core::pipeline;

StudioDocument::StudioDocument(QObject* parent)
    : QObject(parent), undo_(new QUndoStack(this)), releaseSeed_(core::random::osSeed()) {
  settings_.tuning = defaultTuning();
  settings_.run = defaultRunSettings();
  settings_.mechanisms = {pipeline::Mechanism::lwFinal};
  // A step away from the saved state is unsaved work; undoing back to it is not (the undo
  // stack's clean index marks it).
  connect(undo_, &QUndoStack::indexChanged, this, [this] {
    if (!clearingHistory_) updateModified();
  });
}

StudioDocument::~StudioDocument() = default;

StudioDocument::Part StudioDocument::partOf(Field field) {
  switch (field) {
    case Field::outcome:
    case Field::family:
    case Field::familyDeclared:
    case Field::covariates:
    case Field::dropMissing:
    case Field::sdScale:
    case Field::referenceLevels:
      return kChoice;
    case Field::mechanisms:
      return kMechanisms;
    case Field::c:
    case Field::g:
    case Field::k:
    case Field::epsilon:
    case Field::radius:
    case Field::radiusRelative:
    case Field::downscale:
    case Field::lower:
    case Field::upper:
    case Field::bins:
      return kTuning;
    default:
      return kSampler;
  }
}

StudioSettings StudioDocument::current() const {
  StudioSettings s = settings_;
  s.run.model.family = s.dataset.family;
  s.releaseSeed = releaseSeed_;
  s.weightsFrom = reference_.path().toStdString();
  s.referenceProblem.clear();
  s.run.weightReference.reset();
  if (reference_.isLoaded())
    s.run.weightReference = reference_.datasetFor(s.dataset, &s.referenceProblem, dataset_);
  return s;
}

StudioDocument::Values StudioDocument::withConsequences(Field field,
                                                        const FieldValue& value) const {
  Values values{{field, value}};
  if (field == Field::outcome && table_) {
    // The outcome leaves the covariates; its family is the suggested one until one is picked.
    const auto outcome = std::get<std::string>(value);
    auto covariates = settings_.dataset.covariates;
    std::erase(covariates, outcome);
    values.emplace_back(Field::covariates, covariates);
    if (!outcome.empty()) {
      try {
        values.emplace_back(Field::family, data::suggestFamily(*table_, outcome));
      } catch (const std::exception&) {
        // a column that suggests nothing keeps the family shown
      }
    }
    values.emplace_back(Field::familyDeclared, false);
  } else if (field == Field::family) {
    values.emplace_back(Field::familyDeclared, true);  // a pick declares it, even the suggested
  }
  return withReferencesOfCovariates(values);
}

void StudioDocument::edit(Field field, const FieldValue& value, int mergeId) {
  const Values values = withConsequences(field, normalisedValue(field, value));
  std::vector<FieldChange> changes;
  for (const auto& [f, v] : values) {
    const FieldValue before = fieldValue(settings_, f);
    const FieldValue after = normalisedValue(f, v);
    // A family picked again (the same one) still declares it: familyDeclared changes then.
    if (before != after) changes.push_back({f, before, after});
  }
  if (changes.empty()) return;
  const QString text =
      editText({field, fieldValue(settings_, field), normalisedValue(field, value)});
  undo_->push(
      new FieldEditCommand(this, std::move(changes), text, values.size() == 1 ? mergeId : 0));
}

StudioDocument::Values StudioDocument::withReferencesOfCovariates(Values values) const {
  // A column that stops being a covariate loses its reference level (core refuses a reference
  // level for a column that is not a covariate); ticking it again starts from the default.
  const auto covariates = std::find_if(values.begin(), values.end(),
                                       [](const auto& v) { return v.first == Field::covariates; });
  const bool levelsGiven = std::any_of(values.begin(), values.end(), [](const auto& v) {
    return v.first == Field::referenceLevels;
  });
  if (covariates == values.end() || levelsGiven) return values;
  const auto& kept = std::get<std::vector<std::string>>(covariates->second);
  ReferenceLevels levels = settings_.dataset.referenceLevels;
  std::erase_if(levels, [&](const auto& entry) {
    return std::find(kept.begin(), kept.end(), entry.first) == kept.end();
  });
  if (levels != settings_.dataset.referenceLevels)
    values.emplace_back(Field::referenceLevels, levels);
  return values;
}

void StudioDocument::edit(const Values& given, const QString& text) {
  const Values values = withReferencesOfCovariates(given);
  std::vector<FieldChange> changes;
  for (const auto& [f, v] : values) {
    const FieldValue after = normalisedValue(f, v);
    const FieldValue before = fieldValue(settings_, f);
    if (before != after) changes.push_back({f, before, after});
  }
  if (changes.empty()) return;
  undo_->push(new FieldEditCommand(this, std::move(changes), text));
}

void StudioDocument::applyValues(const Values& values) {
  Parts parts;
  for (const auto& [field, value] : values) {
    setFieldValue(settings_, field, value);
    parts |= partOf(field);
  }
  settingsChanged(parts, true, true);
}

bool StudioDocument::outputMatchesSettings() const {
  if (!lastOutput_ || outputOtherChanges_ != otherChanges_) return false;
  // The reference counts only for mechanisms that take their weights from it.
  if (outputReferenceChanges_ != referenceChanges_ && referenceUsed()) return false;
  for (Field f : allFields()) {
    if ((partOf(f) & kSettingsParts) && fieldValue(outputSettings_, f) != fieldValue(settings_, f))
      return false;
  }
  return true;
}

bool StudioDocument::referenceUsed() const {
  const auto& mechanisms = settings_.mechanisms;
  return std::any_of(mechanisms.begin(), mechanisms.end(), core::pipeline::usesReferenceWeights);
}

void StudioDocument::settingsChanged(Parts parts, bool userEdit, bool fieldEdit) {
  // The relation decides the build only where fewer than 2 records of an intercept-only model
  // are refused or not: no rebuild of a large file on every switch of it.
  const bool countMatters = builtCountConfidential_ != countConfidential() &&
                            settings_.dataset.covariates.empty() &&
                            (!dataset_ || dataset_->size() < 2);
  if ((parts & kChoice) || countMatters) rebuildDataset();
  if (countMatters) parts |= kChoice;  // the dataset was rebuilt: its views follow
  if (parts & kSettingsParts) {
    // A reference loaded or cleared is counted apart: it changes no result of mechanisms that
    // take no weights from it (lw, censor-uw, ...), whose results stay current.
    const bool referenceOnly = (parts & kSettingsParts) == kReference;
    if (referenceOnly) {
      ++referenceChanges_;
    } else if (!fieldEdit) {
      ++otherChanges_;
    }
    // Never show a guarantee or utility for settings other than the ones shown; undo back to
    // the run's settings makes its results current again.
    if (lastOutput_) {
      const bool current = outputMatchesSettings();
      if (current != resultsCurrent_) {
        resultsCurrent_ = current;
        parts |= kResults;
      }
    } else if (resultsCurrent_ && (!referenceOnly || referenceUsed())) {
      resultsCurrent_ = false;
      storedChangedSince_ = stored_.has_value();
      parts |= kResults;
    }
  }
  emit changed(parts);
  if (userEdit) emit edited();
}

void StudioDocument::replaceSettings(const StudioSettings& settings) {
  settings_ = settings;
  settings_.run.model.family = settings_.dataset.family;
  settings_.run.weightReference.reset();
  settings_.referenceProblem.clear();
  settings_.releaseSeed.reset();
  clearHistory();
  settingsChanged(Parts(kChoice | kMechanisms | kTuning | kSampler), false);
}

void StudioDocument::clearHistory() {
  // Unsaved edits stay unsaved once they can no longer be undone.
  if (!undo_->isClean()) unsavedOther_ = true;
  clearingHistory_ = true;
  undo_->clear();
  clearingHistory_ = false;
}

bool StudioDocument::countConfidential() const {
  return settings_.run.neighbours == core::privacy::Neighbours::addRemove;
}

void StudioDocument::rebuildDataset() {
  if (!table_) return;
  builtCountConfidential_ = countConfidential();
  dataset_.reset();
  levels_.clear();
  dataProblem_.clear();
  if (!settings_.dataset.outcome.empty()) {
    try {
      // One pass over the outcome: its family, and whether any value suggested it.
      const auto fromValues = data::familyFromValues(*table_, settings_.dataset.outcome);
      suggested_ = fromValues.value_or(core::models::Family::normal);
      suggestedFromValues_ = fromValues.has_value();
    } catch (const std::exception&) {
      // keeps the last suggestion
    }
  }
  if (settings_.dataset.outcome.empty()) {
    dataProblem_ = tr("choose the outcome: the column to synthesize");
    return;
  }
  // As `dpsynth run` builds it: a confidential count too small to fit is no refusal, since
  // whether a release appears must not depend on one record (SPEC §0).
  data::DatasetSpec spec = settings_.dataset;
  spec.countConfidential = builtCountConfidential_;
  try {
    dataset_ = std::make_shared<data::Dataset>(data::buildDataset(*table_, spec));
  } catch (const data::DataError& e) {
    dataProblem_ = errorReportFrom(e, {}).oneLine();
  } catch (const std::exception& e) {
    dataProblem_ = QString::fromUtf8(e.what());
  }
  refreshLevels();
}

void StudioDocument::refreshLevels() {
  levels_.clear();
  if (!table_ || settings_.dataset.outcome.empty()) return;
  try {
    levels_ = data::categoricalLevels(*table_, settings_.dataset);
    return;
  } catch (const std::exception&) {
    // below: perhaps a reference level these data do not hold
  }
  // A session made on other data may name a reference level these data do not hold: the
  // levels by the default rule, so that the analyst can pick one of them (dataProblem() says
  // what is wrong meanwhile).
  if (settings_.dataset.referenceLevels.empty()) return;
  data::DatasetSpec byDefault = settings_.dataset;
  byDefault.referenceLevels.clear();
  try {
    levels_ = data::categoricalLevels(*table_, byDefault);
  } catch (const std::exception&) {
    // the covariates do not type at all: nothing to offer
  }
}

QStringList StudioDocument::installData(const LoadedData& loaded) {
  table_ = loaded.table;
  source_ = loaded.source;
  idLike_ = loaded.idLikeColumns;
  dataset_ = loaded.dataset;
  dataProblem_.clear();
  suggested_ = loaded.spec.family;
  suggestedFromValues_ = true;
  if (table_ && !loaded.spec.outcome.empty()) {
    try {
      suggestedFromValues_ = data::holdsANumber(*table_, loaded.spec.outcome);
    } catch (const std::exception&) {
      // an outcome not in the table: the data problem says so
    }
  }
  releaseSeed_ = core::random::osSeed();  // a new dataset, a new release seed
  QStringList reset;
  // Settings on the old data's scale would silently misfit the new data: the family's
  // defaults (unset PH bounds, automatic bins, MechanismConfig's CW radius).
  const auto defaults = defaultTuning();
  const Values scaleDependent = {{Field::lower, defaults.lower},
                                 {Field::upper, defaults.upper},
                                 {Field::bins, defaults.bins},
                                 {Field::radius, defaults.radius},
                                 {Field::radiusRelative, defaults.radiusRelative}};
  // Settings tuned on the previous data are not a choice made on these (SPEC §0).
  if (settings_.run.tunedOnConfidential) {
    reset << tr("tuned on the confidential data → off");
    settings_.run.tunedOnConfidential = false;
  }
  if (loaded.sdScale && settings_.run.model.sdScale != *loaded.sdScale) {
    reset << tr("%1 %2 → %3 (the sample's public scale)")
                 .arg(fieldTitle(Field::sdScale),
                      describeValue(Field::sdScale, fieldValue(settings_, Field::sdScale)),
                      describeValue(Field::sdScale, *loaded.sdScale));
    settings_.run.model.sdScale = *loaded.sdScale;
  }
  for (const auto& [field, value] : scaleDependent) {
    const FieldValue now = fieldValue(settings_, field);
    if (now == normalisedValue(field, value)) continue;
    reset << QStringLiteral("%1 %2 → %3")
                 .arg(fieldTitle(field), describeValue(field, now), describeValue(field, value));
    setFieldValue(settings_, field, value);
  }
  // The reference belongs to the data it was chosen for, like the PH bounds.
  if (reference_.isLoaded() || !settings_.weightsFrom.empty()) {
    reset << tr("reference dataset %1 → none").arg(QFileInfo(reference_.path()).fileName());
    reference_.clear();
    settings_.weightsFrom.clear();
  }
  settings_.dataset = loaded.spec;
  settings_.dataset.countConfidential = false;  // a build setting, from the relation
  settings_.familyDeclared = false;
  settings_.run.model.family = loaded.spec.family;
  lastOutput_.reset();
  stored_.reset();
  resultsCurrent_ = false;
  storedChangedSince_ = false;
  ++resultsSerial_;
  clearHistory();  // the old data's edits
  // The load typed the data as if the count were confidential (it knows no relation): build
  // again where that is not how the run will see them, which only an intercept-only dataset of
  // fewer than 2 records can tell (a large file is not built twice).
  const bool countMatters = loaded.dataset &&
                            loaded.spec.countConfidential != countConfidential() &&
                            loaded.dataset->interceptOnly() && loaded.dataset->size() < 2;
  if (!loaded.dataset || countMatters) {
    rebuildDataset();
  } else {
    builtCountConfidential_ = countConfidential();
    refreshLevels();
  }
  emit changed(Parts(kData | kChoice | kTuning | kSampler | kReference | kResults));
  return reset;
}

void StudioDocument::setReference(const LoadedData& loaded, bool restoring) {
  reference_.set(loaded.table, loaded.source.file, loaded.spec, loaded.dataset);
  settings_.weightsFrom = loaded.source.file.toStdString();
  if (restoring) {
    emit changed(kReference);  // the session's own reference: its results stay current
    return;
  }
  setModified();
  settingsChanged(kReference, true);
}

void StudioDocument::clearReference() {
  if (!reference_.isLoaded() && settings_.weightsFrom.empty()) return;
  reference_.clear();
  settings_.weightsFrom.clear();
  setModified();
  settingsChanged(kReference, true);
}

std::shared_ptr<const data::Dataset> StudioDocument::referenceDataset(std::string* problem) const {
  return reference_.datasetFor(settings_.dataset, problem, dataset_);
}

void StudioDocument::runStarting() {
  runSettings_ = settings_;
  runOtherChanges_ = otherChanges_;
  runReferenceChanges_ = referenceChanges_;
}

void StudioDocument::setRunOutput(const RunOutput& output) {
  lastOutput_ = output;
  ++resultsSerial_;
  stored_ = storedResultsOf(output, QDateTime::currentDateTimeUtc());
  outputSettings_ = runSettings_;
  outputOtherChanges_ = runOtherChanges_;
  outputReferenceChanges_ = runReferenceChanges_;
  resultsCurrent_ = outputMatchesSettings();
  storedChangedSince_ = false;
  setModified();  // results worth keeping in the session
  emit changed(kResults);
}

void StudioDocument::setStoredResults(const std::optional<core::session::SessionResults>& results) {
  lastOutput_.reset();
  ++resultsSerial_;
  stored_ = results;
  resultsCurrent_ = results && !storedResultsStale(*results, source_.sha256);
  storedChangedSince_ = false;
  emit changed(kResults);
}

void StudioDocument::clearResults() {
  ++resultsSerial_;
  lastOutput_.reset();
  stored_.reset();
  resultsCurrent_ = false;
  storedChangedSince_ = false;
  emit changed(kResults);
}

std::optional<core::session::SessionResults> StudioDocument::sessionResults() const {
  std::optional<core::session::SessionResults> results = stored_;
  // Results of settings other than the ones saved: stored, but marked stale on reopening.
  if (results && !resultsCurrent_) results->settingsChanged = true;
  return results;
}

QString StudioDocument::resultsNote() const {
  if (lastOutput_) {
    return resultsCurrent_ ? QString()
                           : tr("Settings changed since this run: press Run to update.");
  }
  if (stored_) return storedResultsNote(*stored_, source_.sha256, storedChangedSince_);
  return {};
}

std::optional<pipeline::Mechanism> StudioDocument::currentMechanism() const {
  if (currentMechanism_) return currentMechanism_;
  if (!settings_.mechanisms.empty()) return settings_.mechanisms.front();
  return std::nullopt;
}

void StudioDocument::setCurrentMechanism(std::optional<pipeline::Mechanism> mechanism) {
  if (mechanism == currentMechanism_) return;
  currentMechanism_ = mechanism;
  emit changed(kFocus);
}

void StudioDocument::setModified() {
  unsavedOther_ = true;
  updateModified();
}

void StudioDocument::setClean() {
  unsavedOther_ = false;
  undo_->setClean();
  updateModified();
}

void StudioDocument::updateModified() {
  const bool modified = unsavedOther_ || !undo_->isClean();
  if (modified == modified_) return;
  modified_ = modified;
  emit modifiedChanged(modified);
}

}  // namespace dpsynth::ui
