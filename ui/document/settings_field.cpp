#include "ui/document/settings_field.h"

#include <QObject>
#include <QStringList>
#include <cmath>
#include <stdexcept>

namespace dpsynth::ui {

namespace pipeline = core::pipeline;

namespace {

using Mechanisms = std::vector<pipeline::Mechanism>;
using Names = std::vector<std::string>;

[[noreturn]] void wrongType(Field field) {
  throw std::invalid_argument("a value of the wrong type for the studio setting '" +
                              fieldTitle(field).toStdString() + "'");
}

/// A number of any numeric alternative, or nullopt.
std::optional<double> numberOf(const FieldValue& value) {
  if (const auto* d = std::get_if<double>(&value)) return *d;
  if (const auto* i = std::get_if<int>(&value)) return double(*i);
  if (const auto* u = std::get_if<std::uint64_t>(&value)) return double(*u);
  if (const auto* o = std::get_if<std::optional<double>>(&value)) return *o;
  return std::nullopt;
}

bool isNumeric(const FieldValue& value) {
  return std::holds_alternative<double>(value) || std::holds_alternative<int>(value) ||
         std::holds_alternative<std::uint64_t>(value) ||
         std::holds_alternative<std::optional<double>>(value);
}

enum class Kind {
  boolean,
  integer,
  number,
  optionalNumber,
  seed,
  text,
  names,
  mechanisms,
  family,
  neighbours,
  referenceLevels
};

Kind kindOf(Field field) {
  switch (field) {
    case Field::outcome:
      return Kind::text;
    case Field::family:
      return Kind::family;
    case Field::covariates:
      return Kind::names;
    case Field::mechanisms:
      return Kind::mechanisms;
    case Field::familyDeclared:
    case Field::dropMissing:
    case Field::radiusRelative:
    case Field::reproducible:
    case Field::tunedOnConfidential:
      return Kind::boolean;
    case Field::sdScale:
    case Field::c:
    case Field::g:
    case Field::radius:
    case Field::sizeEpsilon:
      return Kind::number;
    case Field::k:
    case Field::epsilon:
    case Field::downscale:
    case Field::lower:
    case Field::upper:
    case Field::declaredRows:
      return Kind::optionalNumber;
    case Field::bins:
    case Field::chains:
    case Field::warmup:
    case Field::draws:
    case Field::threads:
    case Field::syntheticDatasets:
      return Kind::integer;
    case Field::seed:
      return Kind::seed;
    case Field::neighbours:
      return Kind::neighbours;
    case Field::referenceLevels:
      return Kind::referenceLevels;
  }
  return Kind::number;
}

}  // namespace

const std::vector<Field>& allFields() {
  static const std::vector<Field> all = [] {
    std::vector<Field> v;
    for (int i = 0; i <= static_cast<int>(Field::referenceLevels); ++i)
      v.push_back(static_cast<Field>(i));
    return v;
  }();
  return all;
}

FieldValue normalisedValue(Field field, const FieldValue& value) {
  switch (kindOf(field)) {
    case Kind::boolean:
      if (!std::holds_alternative<bool>(value)) wrongType(field);
      return value;
    case Kind::text:
      if (!std::holds_alternative<std::string>(value)) wrongType(field);
      return value;
    case Kind::names:
      if (!std::holds_alternative<Names>(value)) wrongType(field);
      return value;
    case Kind::mechanisms:
      if (!std::holds_alternative<Mechanisms>(value)) wrongType(field);
      return value;
    case Kind::family:
      if (!std::holds_alternative<core::models::Family>(value)) wrongType(field);
      return value;
    case Kind::neighbours:
      if (!std::holds_alternative<core::privacy::Neighbours>(value)) wrongType(field);
      return value;
    case Kind::referenceLevels:
      if (!std::holds_alternative<ReferenceLevels>(value)) wrongType(field);
      return value;
    case Kind::number: {
      const auto n = numberOf(value);
      if (!isNumeric(value) || !n) wrongType(field);
      return *n;
    }
    case Kind::optionalNumber:
      if (!isNumeric(value)) wrongType(field);
      return numberOf(value);
    case Kind::integer: {
      const auto n = numberOf(value);
      if (!isNumeric(value)) wrongType(field);
      return n ? static_cast<int>(std::lround(*n)) : 0;  // nullopt: auto (0)
    }
    case Kind::seed: {
      if (const auto* u = std::get_if<std::uint64_t>(&value)) return *u;
      if (const auto* i = std::get_if<int>(&value); i && *i >= 0) return std::uint64_t(*i);
      wrongType(field);
    }
  }
  wrongType(field);
}

FieldValue fieldValue(const StudioSettings& s, Field field) {
  const auto& t = s.tuning;
  const auto& nuts = s.run.nuts;
  switch (field) {
    case Field::outcome:
      return s.dataset.outcome;
    case Field::family:
      return s.dataset.family;
    case Field::familyDeclared:
      return s.familyDeclared;
    case Field::covariates:
      return s.dataset.covariates;
    case Field::dropMissing:
      return s.dataset.dropMissing;
    case Field::sdScale:
      return s.run.model.sdScale;
    case Field::mechanisms:
      return s.mechanisms;
    case Field::c:
      return t.c;
    case Field::g:
      return t.g;
    case Field::k:
      return t.k;
    case Field::epsilon:
      return t.epsilon;
    case Field::radius:
      return t.radius;
    case Field::radiusRelative:
      return t.radiusRelative;
    case Field::downscale:
      return t.downscale;
    case Field::lower:
      return t.lower;
    case Field::upper:
      return t.upper;
    case Field::bins:
      return t.bins;
    case Field::chains:
      return nuts.chains;
    case Field::warmup:
      return nuts.warmup;
    case Field::draws:
      return nuts.draws;
    case Field::threads:
      return nuts.threads;
    case Field::syntheticDatasets:
      return s.syntheticDatasets;
    case Field::declaredRows:
      return s.run.size.declaredRows ? std::optional<double>(double(*s.run.size.declaredRows))
                                     : std::optional<double>();
    case Field::sizeEpsilon:
      return s.run.size.epsilon;
    case Field::seed:
      return nuts.seed.lo;
    case Field::reproducible:
      return s.reproducible;
    case Field::neighbours:
      return s.run.neighbours;
    case Field::tunedOnConfidential:
      return s.run.tunedOnConfidential;
    case Field::referenceLevels:
      return s.dataset.referenceLevels;
  }
  return false;
}

void setFieldValue(StudioSettings& s, Field field, const FieldValue& raw) {
  const FieldValue value = normalisedValue(field, raw);
  auto& t = s.tuning;
  auto& nuts = s.run.nuts;
  const auto number = [&] { return std::get<double>(value); };
  const auto optional = [&] { return std::get<std::optional<double>>(value); };
  const auto integer = [&] { return std::get<int>(value); };
  const auto flag = [&] { return std::get<bool>(value); };
  switch (field) {
    case Field::outcome:
      s.dataset.outcome = std::get<std::string>(value);
      break;
    case Field::family:
      s.dataset.family = std::get<core::models::Family>(value);
      s.run.model.family = s.dataset.family;
      break;
    case Field::familyDeclared:
      s.familyDeclared = flag();
      break;
    case Field::covariates:
      s.dataset.covariates = std::get<Names>(value);
      break;
    case Field::dropMissing:
      s.dataset.dropMissing = flag();
      break;
    case Field::sdScale:
      s.run.model.sdScale = number();
      break;
    case Field::mechanisms: {
      // Kept in allMechanisms() order whatever order the edit lists them in.
      const auto& wanted = std::get<Mechanisms>(value);
      s.mechanisms.clear();
      for (auto m : pipeline::allMechanisms())
        if (std::find(wanted.begin(), wanted.end(), m) != wanted.end()) s.mechanisms.push_back(m);
      break;
    }
    case Field::c:
      t.c = number();
      break;
    case Field::g:
      t.g = number();
      break;
    case Field::k:
      t.k = optional();
      break;
    case Field::epsilon:
      t.epsilon = optional();
      break;
    case Field::radius:
      t.radius = number();
      break;
    case Field::radiusRelative:
      t.radiusRelative = flag();
      break;
    case Field::downscale:
      t.downscale = optional();
      break;
    case Field::lower:
      t.lower = optional();
      break;
    case Field::upper:
      t.upper = optional();
      break;
    case Field::bins:
      t.bins = std::max(0, integer());
      break;
    case Field::chains:
      nuts.chains = integer();
      break;
    case Field::warmup:
      nuts.warmup = integer();
      break;
    case Field::draws:
      nuts.draws = integer();
      break;
    case Field::threads:
      nuts.threads = std::max(0, integer());
      break;
    case Field::syntheticDatasets:
      s.syntheticDatasets = integer();
      break;
    case Field::declaredRows: {
      const auto rows = optional();
      s.run.size.declaredRows =
          rows ? std::optional<std::size_t>(static_cast<std::size_t>(std::llround(*rows)))
               : std::nullopt;
      break;
    }
    case Field::sizeEpsilon:
      s.run.size.epsilon = number();
      break;
    case Field::seed:
      nuts.seed = core::random::Seed(std::get<std::uint64_t>(value));
      break;
    case Field::reproducible:
      s.reproducible = flag();
      break;
    case Field::neighbours:
      s.run.neighbours = std::get<core::privacy::Neighbours>(value);
      break;
    case Field::tunedOnConfidential:
      s.run.tunedOnConfidential = flag();
      break;
    case Field::referenceLevels:
      s.dataset.referenceLevels = std::get<ReferenceLevels>(value);
      break;
  }
}

QString fieldTitle(Field field) {
  switch (field) {
    case Field::outcome:
      return QObject::tr("outcome");
    case Field::family:
      return QObject::tr("family");
    case Field::familyDeclared:
      return QObject::tr("family declared");
    case Field::covariates:
      return QObject::tr("covariates");
    case Field::dropMissing:
      return QObject::tr("drop rows with missing values");
    case Field::sdScale:
      return QObject::tr("prior sd scale");
    case Field::mechanisms:
      return QObject::tr("mechanisms");
    case Field::c:
      return QObject::tr("c");
    case Field::g:
      return QObject::tr("g");
    case Field::k:
      return QObject::tr("k");
    case Field::epsilon:
      return QObject::tr("ε");
    case Field::radius:
      return QObject::tr("CW radius");
    case Field::radiusRelative:
      return QObject::tr("relative radius");
    case Field::downscale:
      return QObject::tr("downscale");
    case Field::lower:
      return QObject::tr("PH lower");
    case Field::upper:
      return QObject::tr("PH upper");
    case Field::bins:
      return QObject::tr("PH bins");
    case Field::chains:
      return QObject::tr("chains");
    case Field::warmup:
      return QObject::tr("warm-up");
    case Field::draws:
      return QObject::tr("draws");
    case Field::threads:
      return QObject::tr("threads");
    case Field::syntheticDatasets:
      return QObject::tr("datasets m");
    case Field::declaredRows:
      return QObject::tr("rows (public)");
    case Field::sizeEpsilon:
      return QObject::tr("size ε\u2099");
    case Field::seed:
      return QObject::tr("seed");
    case Field::reproducible:
      return QObject::tr("reproducible");
    case Field::neighbours:
      return QObject::tr("neighbours");
    case Field::tunedOnConfidential:
      return QObject::tr("tuned on the confidential data");
    case Field::referenceLevels:
      return QObject::tr("reference levels");
  }
  return {};
}

QString describeValue(Field field, const FieldValue& value) {
  const FieldValue v = normalisedValue(field, value);
  if (const auto* b = std::get_if<bool>(&v)) return *b ? QObject::tr("on") : QObject::tr("off");
  if (const auto* d = std::get_if<double>(&v)) return QString::number(*d, 'g', 6);
  if (const auto* o = std::get_if<std::optional<double>>(&v)) {
    if (!*o)
      return field == Field::declaredRows                     ? QObject::tr("not declared")
             : field == Field::lower || field == Field::upper ? QObject::tr("unset")
             : field == Field::epsilon                        ? QObject::tr("none")
                                                              : QObject::tr("auto");
    return QString::number(**o, 'g', 6);
  }
  if (const auto* i = std::get_if<int>(&v)) {
    if (*i == 0 && (field == Field::bins || field == Field::threads)) return QObject::tr("auto");
    return QString::number(*i);
  }
  if (const auto* u = std::get_if<std::uint64_t>(&v)) return QString::number(*u);
  if (const auto* s = std::get_if<std::string>(&v)) return QString::fromStdString(*s);
  if (const auto* n = std::get_if<Names>(&v)) {
    QStringList names;
    for (const auto& name : *n) names << QString::fromStdString(name);
    return names.isEmpty() ? QObject::tr("none") : names.join(QStringLiteral(", "));
  }
  if (const auto* m = std::get_if<Mechanisms>(&v)) {
    QStringList names;
    for (auto mechanism : *m) names << QString::fromStdString(pipeline::mechanismName(mechanism));
    return names.isEmpty() ? QObject::tr("none") : names.join(QStringLiteral(", "));
  }
  if (const auto* f = std::get_if<core::models::Family>(&v))
    return QString::fromStdString(core::models::familyName(*f));
  if (const auto* r = std::get_if<core::privacy::Neighbours>(&v))
    return QString::fromStdString(core::privacy::neighboursName(*r));
  if (const auto* levels = std::get_if<ReferenceLevels>(&v)) {
    QStringList chosen;
    for (const auto& [column, level] : *levels)
      chosen << QStringLiteral("%1=%2").arg(QString::fromStdString(column),
                                            QString::fromStdString(level));
    return chosen.isEmpty() ? QObject::tr("first levels") : chosen.join(QStringLiteral(", "));
  }
  return {};
}

Field fieldOf(pipeline::SettingField field) {
  switch (field) {
    case pipeline::SettingField::epsilon:
      return Field::epsilon;
    case pipeline::SettingField::c:
      return Field::c;
    case pipeline::SettingField::g:
      return Field::g;
    case pipeline::SettingField::k:
      return Field::k;
    case pipeline::SettingField::radius:
      return Field::radius;
    case pipeline::SettingField::downscale:
      return Field::downscale;
    case pipeline::SettingField::bins:
      return Field::bins;
    case pipeline::SettingField::lower:
      return Field::lower;
    case pipeline::SettingField::upper:
      return Field::upper;
  }
  return Field::epsilon;
}

}  // namespace dpsynth::ui
