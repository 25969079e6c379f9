#pragma once
/// Saving and opening `.dpsynth` session files: the current settings, the data source and the
/// last run's results (SessionResults: rows and reductions) go through core::session (no data,
/// no weights, nothing per record); opening reloads the data and says clearly when the data
/// file changed since the session was saved. Loading other data detaches the session.
#include <QObject>
#include <optional>

#include "core/session/session.h"
#include "ui/dialogs/error_report.h"
#include "ui/studio_settings.h"

namespace dpsynth::ui {

class DataService;
class StudioDocument;

class SessionController : public QObject {
  Q_OBJECT

 public:
  SessionController(StudioDocument* document, DataService* data, QObject* parent = nullptr);

  /// Writes the document's settings and what it keeps of the last run (see SessionResults).
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
  /// Forgets the session file (New): the next Save asks for a file.
  void detach();
  /// A session is being opened (its data is loading or its settings are being applied).
  bool isOpening() const { return opening_ || waiting_.has_value(); }

 signals:
  void errorOccurred(const ErrorReport& report);
  /// Information for the status bar (and warnings such as a changed data file).
  void message(const QString& text);
  /// The data file differs from the one the session was saved with.
  void dataChanged(const QString& explanation);
  /// The session file now shown: saved or opened at `path`, or empty when other data was loaded
  /// (the session is detached: Save then asks for a new file and never overwrites it).
  void pathChanged(const QString& path);
  /// A session was opened; `results` are the ones it stores (if any), made on data with
  /// results->dataSha256 (compare with the data now loaded).
  void opened(const std::optional<core::session::SessionResults>& results);

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

  StudioDocument* document_;
  DataService* data_;
  QString path_;
  bool opening_ = false;            ///< open() is loading the session's data
  std::optional<Pending> waiting_;  ///< an openInBackground() whose data is being read
};

}  // namespace dpsynth::ui
