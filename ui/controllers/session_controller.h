#pragma once
/// Saving and opening `.dpsynth` session files: the current settings and data source go
/// through core::session (no data, no weights); opening reloads the data and says clearly when
/// the data file changed since the session was saved.
#include <QObject>
#include <optional>

#include "core/session/session.h"
#include "ui/dialogs/error_report.h"
#include "ui/studio_settings.h"

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
  /// The same with the data file read on the data panel's worker thread (File > Open session,
  /// drops): returns at once; the session's choices and settings are applied once the data has
  /// loaded. If that load fails or is cancelled (or another file is opened meanwhile), nothing
  /// of the session is applied.
  void openInBackground(const QString& path);
  QString currentPath() const { return path_; }

 signals:
  void errorOccurred(const ErrorReport& report);
  /// Information for the status bar (and warnings such as a changed data file).
  void message(const QString& text);
  /// The data file differs from the one the session was saved with.
  void dataChanged(const QString& explanation);
  void pathChanged(const QString& path);

 private:
  /// A session read from disk, with the settings it stores.
  struct Pending {
    QString path;
    core::session::Session session;
    StudioSettings settings;
    DataSource stored;
  };
  std::optional<Pending> read(const QString& path);
  /// Applies the session's choices and settings to the data now loaded.
  void finish(const Pending& pending, const QString& changed, bool referenceInBackground);

  DataPanel* data_;
  SettingsController* settings_;
  QString path_;
  std::optional<Pending> waiting_;  ///< an openInBackground() whose data is being read
};

}  // namespace dpsynth::ui
