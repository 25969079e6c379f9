#include "ui/dialogs/error_report.h"

#include "core/data/data_error.h"
#include "ui/field_names.h"

namespace dpsynth::ui {

QString ErrorReport::oneLine() const {
  QString out;
  if (!file.isEmpty())
    out += file + (line > 0 ? QStringLiteral(":%1").arg(line) : QString()) + ": ";
  if (!column.isEmpty()) out += QStringLiteral("column '%1': ").arg(column);
  out += problem;
  if (!hint.isEmpty()) out += QStringLiteral(" (%1)").arg(hint);
  return out;
}

ErrorReport errorReportFrom(const core::data::DataError& error, const QString& title) {
  ErrorReport r;
  r.title = title;
  r.file = QString::fromStdString(error.file());
  r.line = static_cast<qint64>(error.row());
  r.column = QString::fromStdString(error.column());
  // Core's data messages may name command-line flags; a dialog names the studio's fields.
  r.problem = withFieldNames(error.problem());
  r.hint = withFieldNames(error.hint());
  return r;
}

ErrorReport errorReportFrom(const std::exception& error, const QString& title,
                            const QString& file) {
  ErrorReport r;
  r.title = title;
  r.file = file;
  r.problem = withFieldNames(QString::fromUtf8(error.what()));
  return r;
}

}  // namespace dpsynth::ui
