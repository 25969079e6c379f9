#include "ui/field_names.h"

#include <QRegularExpression>
#include <utility>

namespace dpsynth::ui {

QString withFieldNames(const QString& message) {
  // Longest flags first, so that "--sd-scale" is not read as "--sd".
  static const std::pair<const char*, const char*> kFields[] = {
      {"(--sd-scale, or 'Prior sd scale' in the studio)", "('Prior sd scale')"},
      {"--weights-from", "'Weights from a reference dataset…'"},
      {"--neighbours", "'neighbours'"},
      {"--downscale", "'downscale'"},
      {"--sd-scale", "'Prior sd scale'"},
      {"--epsilon", "'ε'"},
      {"--warmup", "'warm-up'"},
      {"--chains", "'chains'"},
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

}  // namespace dpsynth::ui
