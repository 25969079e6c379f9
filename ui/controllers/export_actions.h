#pragma once
/// The File menu's exports that need a finished run: "Export all" (core::report::exportRun, the
/// same folder `dpsynth run --session` writes), the synthetic-data bundle of one mechanism (CSV
/// + sidecar, never containing weights or bounds) and the plots.
#include <QObject>

#include "ui/dialogs/error_report.h"
#include "ui/workers/run_types.h"

class QWidget;

namespace dpsynth::ui {

class PlotsView;

class ExportActions : public QObject {
  Q_OBJECT

 public:
  explicit ExportActions(QWidget* dialogParent);

  /// Writes m synthetic datasets of `mechanism` (or the run's first one) from `output` to
  /// csvPath, with the run's seed. Returns false and emits errorOccurred on failure.
  bool exportSynthetic(const RunOutput& output, std::optional<core::pipeline::Mechanism> mechanism,
                       int m, const QString& csvPath);
  /// core::report::exportRun of the run into folder, with the session of the settings the run
  /// was started with. Returns false and emits errorOccurred on failure (nothing is written).
  bool exportAll(const RunOutput& output, const QString& folder);
  /// Asks for the folder (and before replacing files), then exportAll().
  void exportAllWithDialog(const RunOutput* output);
  /// Asks for the file, then exportSynthetic().
  void exportSyntheticWithDialog(const RunOutput* output,
                                 std::optional<core::pipeline::Mechanism> mechanism, int m);
  void exportPlotsWithDialog(PlotsView* plots);

 signals:
  void message(const QString& text);
  void errorOccurred(const ErrorReport& report);

 private:
  QWidget* dialogParent_;
};

}  // namespace dpsynth::ui
