#pragma once
/// The settings an analyst edits in the studio, each named by a typed field id, and the typed
/// value it holds. An undo step stores FieldChanges (field, value before, value after), never a
/// QVariant under a string key; views send edits as (field, value) and the document checks the
/// value's type once, here.
#include <QString>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "core/models/family.h"
#include "core/pipeline/mechanism.h"
#include "core/pipeline/setting_problem.h"
#include "core/privacy/neighbours.h"
#include "ui/studio_settings.h"

namespace dpsynth::ui {

/// Every setting a view can edit. The data choice (outcome .. sdScale), the checked mechanisms,
/// the shared tuning, and the release and sampler settings.
enum class Field {
  outcome,            ///< std::string
  family,             ///< core::models::Family
  familyDeclared,     ///< bool: picked by the analyst (or a session / public sample), not suggested
  covariates,         ///< std::vector<std::string>, in the input's column order
  dropMissing,        ///< bool
  sdScale,            ///< double
  mechanisms,         ///< std::vector<Mechanism>, in allMechanisms() order
  c,                  ///< double
  g,                  ///< double
  k,                  ///< std::optional<double> (nullopt: auto)
  epsilon,            ///< std::optional<double> (nullopt: none)
  radius,             ///< double
  radiusRelative,     ///< bool
  downscale,          ///< std::optional<double> (nullopt: auto)
  lower,              ///< std::optional<double> (nullopt: unset)
  upper,              ///< std::optional<double>
  bins,               ///< int (0: auto)
  chains,             ///< int
  warmup,             ///< int
  draws,              ///< int
  threads,            ///< int (0: auto)
  syntheticDatasets,  ///< int
  declaredRows,       ///< std::optional<double> (a whole number; nullopt: not declared)
  sizeEpsilon,        ///< double
  seed,               ///< std::uint64_t (the study seed; a release never shows its own)
  reproducible,       ///< bool
  neighbours,         ///< core::privacy::Neighbours
  tunedOnConfidential,  ///< bool
  referenceLevels,      ///< ReferenceLevels: a categorical covariate's reference level by column
};

/// The reference level chosen for categorical covariates, by column (DatasetSpec's); a
/// covariate not named takes its first level in label or sorted order.
using ReferenceLevels = std::map<std::string, std::string>;

/// Every Field, in declaration order.
const std::vector<Field>& allFields();

using FieldValue =
    std::variant<bool, int, double, std::optional<double>, std::uint64_t, std::string,
                 std::vector<std::string>, std::vector<core::pipeline::Mechanism>,
                 core::models::Family, core::privacy::Neighbours, ReferenceLevels>;

/// One edit of one field.
struct FieldChange {
  Field field;
  FieldValue before;
  FieldValue after;
};

/// The value of `field` in `settings`.
FieldValue fieldValue(const StudioSettings& settings, Field field);
/// Sets `field` of `settings` to `value`. A number is accepted for any numeric field (an int
/// for a double, a double for an optional) and converted; a value of another kind throws
/// std::invalid_argument naming the field (a programming error, not a user's).
void setFieldValue(StudioSettings& settings, Field field, const FieldValue& value);
/// `value` converted to the type `field` holds (see setFieldValue).
FieldValue normalisedValue(Field field, const FieldValue& value);

/// The studio's label of a field ("ε", "PH lower", "covariates").
QString fieldTitle(Field field);
/// How a value reads in the Edit menu: "0.95", "auto", "on", "lw, ph", "age, sex".
QString describeValue(Field field, const FieldValue& value);

/// The document field core's SettingProblem names.
Field fieldOf(core::pipeline::SettingField field);

}  // namespace dpsynth::ui
