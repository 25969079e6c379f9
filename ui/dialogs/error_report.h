#pragma once
/// A problem to show the user, with the place it refers to. Built once from core's exceptions at
/// the UI boundary; shown by whatever ErrorPresenter the window has (a dialog normally, a
/// recorder in tests).
#include <QMetaType>
#include <QString>
#include <exception>
#include <functional>

namespace dpsynth::core::data {
class DataError;
}

namespace dpsynth::ui {

struct ErrorReport {
  QString title;    ///< "Cannot load data", "Run failed", ...
  QString file;     ///< may be empty
  qint64 line = 0;  ///< 1-based file line, 0 when not about one line
  QString column;   ///< may be empty
  QString problem;  ///< what is wrong
  QString hint;     ///< what the user can do (may be empty)

  /// "file:line: column 'x': problem" — one line, as the command line prints it.
  QString oneLine() const;
};

ErrorReport errorReportFrom(const core::data::DataError& error, const QString& title);
/// For any other exception: problem = what().
ErrorReport errorReportFrom(const std::exception& error, const QString& title,
                            const QString& file = {});

using ErrorPresenter = std::function<void(const ErrorReport&)>;

}  // namespace dpsynth::ui

Q_DECLARE_METATYPE(dpsynth::ui::ErrorReport)
