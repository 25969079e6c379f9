#pragma once
/// Reads the data and the reference dataset for the document: files chosen in the window on a
/// worker thread each (a DataLoader: progress, Cancel, the current data kept until the new data
/// is read), files of sessions, scripts and tests on the calling thread, and the bundled
/// samples in place. What is read is installed into the StudioDocument; errors are reported
/// through errorOccurred(). Views never see a loader: they ask this service and render the
/// document.
#include <QObject>
#include <QString>
#include <functional>

#include "core/data/dataset.h"
#include "ui/dialogs/error_report.h"
#include "ui/document/loaded_data.h"

namespace dpsynth::ui {

class DataLoader;
class StudioDocument;

class DataService : public QObject {
  Q_OBJECT

 public:
  explicit DataService(StudioDocument* document, QObject* parent = nullptr);

  /// Starts reading a data file on the worker thread and returns at once (a load in progress
  /// is stopped). It ends in the document's new data, errorOccurred() or a cancel (the current
  /// data kept in both), and then loadEnded().
  void openFile(const QString& path);
  /// Reads a data file on the calling thread (start-up, sessions, scripts, tests). On failure
  /// emits errorOccurred() and keeps the current data; returns false.
  bool loadFile(const QString& path);
  /// Loads a bundled sample ("nbmix", "beta", "poisson", "salary"): small, so in place.
  bool loadSample(const QString& kind);
  /// Stops the data load in progress at its next check; the current data stays.
  void cancelLoad();
  bool isLoading() const;
  /// The bundled sample kinds.
  static QStringList sampleKinds();

  /// Asked before the user loads other data from the window (Open, Sample, Open recent):
  /// false stops the load (the window asks whether to save unsaved work there).
  void setLoadGuard(std::function<bool()> guard) { loadGuard_ = std::move(guard); }
  bool mayLoad() const { return !loadGuard_ || loadGuard_(); }

  /// The reference dataset typed with `spec` (the data's choices now), on its worker thread;
  /// `restoring`: a session's own reference (see StudioDocument::setReference).
  void openReference(const QString& path, const core::data::DatasetSpec& spec,
                     bool restoring = false);
  /// The same on the calling thread; false (errorOccurred) when it cannot be read.
  bool loadReference(const QString& path, const core::data::DatasetSpec& spec,
                     bool restoring = false);

  DataLoader* dataLoader() const { return data_; }
  DataLoader* referenceLoader() const { return reference_; }

 signals:
  void errorOccurred(const dpsynth::ui::ErrorReport& report);
  /// New data is in the document; `reset` lists the per-dataset settings put back to their
  /// defaults ("PH upper 300 → unset").
  void dataInstalled(const dpsynth::ui::DataSource& source, const QStringList& reset);
  /// An openFile() load ended: `loaded` is true when its data is now in the document.
  void loadEnded(const QString& file, bool loaded);

 private:
  void install(const LoadedData& loaded);

  StudioDocument* document_;
  DataLoader* data_;
  DataLoader* reference_;
  bool restoringReference_ = false;
  std::function<bool()> loadGuard_;
};

}  // namespace dpsynth::ui
