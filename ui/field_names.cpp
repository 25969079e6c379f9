#include "ui/field_names.h"

#include <QRegularExpression>
#include <utility>

namespace dpsynth::ui {

QString fieldLabel(core::pipeline::SettingField field) {
  using F = core::pipeline::SettingField;
  switch (field) {
    case F::epsilon:
      return QStringLiteral("'ε'");
    case F::c:
      return QStringLiteral("'c'");
    case F::g:
      return QStringLiteral("'g'");
    case F::k:
      return QStringLiteral("'k'");
    case F::radius:
      return QStringLiteral("'radius'");
    case F::downscale:
      return QStringLiteral("'downscale'");
    case F::bins:
      return QStringLiteral("'PH bins'");
    case F::lower:
      return QStringLiteral("'PH lower'");
    case F::upper:
      return QStringLiteral("'PH upper'");
  }
  return {};
}

QString describeProblem(const core::pipeline::SettingProblem& problem) {
  return QString::fromStdString(core::pipeline::describe(
      problem, [](core::pipeline::SettingField f) { return fieldLabel(f).toStdString(); }));
}

QString withFieldNames(const QString& message) {
  // Longest flags first, so that "--sd-scale" is not read as "--sd".
  static const std::pair<const char*, const char*> kFields[] = {
      {"(--sd-scale, or 'Prior sd scale' in the studio)", "('Prior sd scale')"},
      {"(--drop-missing on the command line)", "('drop rows with missing values')"},
      {"--drop-missing", "'drop rows with missing values'"},
      {"--weights-from", "'Weights from a reference dataset…'"},
      {"--size-epsilon", "'size εₙ'"},
      {"--neighbours", "'neighbours'"},
      {"--downscale", "'downscale'"},
      {"--sd-scale", "'Prior sd scale'"},
      {"--epsilon", "'ε'"},
      {"--warmup", "'warm-up'"},
      {"--chains", "'chains'"},
      {"--rows", "'rows (public)'"},
      {"--draws", "'draws'"},
      {"--lower", "'PH lower'"},
      {"--upper", "'PH upper'"},
      {"--bins", "'PH bins'"},
      {"--seed", "'seed' with 'reproducible (not for release)'"},
      {"--k", "'k'"},
      {"--c", "'c'"},
      {"--g", "'g'"},
  };
  QString out = message;
  for (const auto& [flag, field] : kFields) {
    const QString from = QString::fromUtf8(flag);
    if (from.startsWith(QLatin1String("--"))) {
      // A whole flag only: "--c" must not match the start of "--chains".
      out.replace(
          QRegularExpression(QRegularExpression::escape(from) + QStringLiteral("(?![\\w-])")),
          QString::fromUtf8(field));
    } else {
      out.replace(from, QString::fromUtf8(field));
    }
  }
  out.replace(QStringLiteral("pass '"), QStringLiteral("set '"));
  return out;
}

QString withFieldNames(const std::string& message) {
  return withFieldNames(QString::fromStdString(message));
}

QString mechanismTooltip(core::pipeline::Mechanism mechanism) {
  QString text = QString::fromStdString(core::pipeline::mechanismDescription(mechanism));
  static const std::pair<QRegularExpression, QString> kSymbols[] = {
      {QRegularExpression(QStringLiteral("\\balpha_i\\b")), QStringLiteral("αᵢ")},
      {QRegularExpression(QStringLiteral("\\balpha\\b")), QStringLiteral("α")},
      {QRegularExpression(QStringLiteral("\\bDelta_i\\b")), QStringLiteral("Δᵢ")},
      {QRegularExpression(QStringLiteral("\\bDelta\\b")), QStringLiteral("Δ")},
      {QRegularExpression(QStringLiteral("\\beps_x\\b")), QStringLiteral("εₓ")},
      {QRegularExpression(QStringLiteral("\\beps\\b")), QStringLiteral("ε")},
      {QRegularExpression(QStringLiteral("<=")), QStringLiteral("≤")},
      {QRegularExpression(QStringLiteral("<-")), QStringLiteral("←")},
  };
  for (const auto& [pattern, symbol] : kSymbols) text.replace(pattern, symbol);
  return text;
}

}  // namespace dpsynth::ui
