#pragma once
/// Saving and opening `.dpsynth` session files: the current settings and data source go
/// through core::session (no data, no weights); opening reloads the data and says clearly when
/// the data file changed since the session was saved.
#include <QObject>

#include "ui/dialogs/error_report.h"

namespace dpsynth::ui {

class DataPanel;
class SettingsController;

class SessionController : public QObject {
  Q_OBJECT

 public:
  SessionController(DataPanel* data, SettingsController* settings, QObject* parent = nullptr);

  bool save(const QString& path);
  /// Loads the session's data (file or bundled sample) and settings. Returns false when the
  /// session cannot be read or its data cannot be loaded (errorOccurred tells why; the data
  /// and settings shown before stay).
  bool open(const QString& path);
  QString currentPath() const { return path_; }

 signals:
  void errorOccurred(const ErrorReport& report);
  /// Information for the status bar (and warnings such as a changed data file).
  void message(const QString& text);
  /// The data file differs from the one the session was saved with.
  void dataChanged(const QString& explanation);
  void pathChanged(const QString& path);

 private:
  DataPanel* data_;
  SettingsController* settings_;
  QString path_;
};

}  // namespace dpsynth::ui
