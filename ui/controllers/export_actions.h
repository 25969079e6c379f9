#pragma once
/// The File menu's exports that need a finished run: "Export all" (core::report::exportRun: a
/// publishable release/ folder and a confidential internal/ one, the same folders `dpsynth run
/// --session` writes), the synthetic-data bundle of one mechanism (CSV + sidecar, only the
/// outcome and the public covariates) and the plots. A mechanism whose release was refused
/// (SPEC §0: its DP fit failed its diagnostics) is never written to a release; the refusal is
/// shown by the RefusalPresenter.
#include <QObject>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "ui/dialogs/error_report.h"
#include "ui/dialogs/release_refused_dialog.h"
#include "ui/document/run_types.h"

class QWidget;

namespace dpsynth::ui {

class PlotsView;

class ExportActions : public QObject {
  Q_OBJECT

 public:
  /// Asks which mechanisms to release (the dialog: ExportAllDialog); nullopt = Cancel.
  using ReleaseChooser =
      std::function<std::optional<std::vector<core::pipeline::Mechanism>>(const RunOutput& output)>;

  explicit ExportActions(QWidget* dialogParent);

  /// Writes m synthetic datasets of `mechanism` (or the run's first one) from `output` to
  /// csvPath, with the run's seed. A refused mechanism is shown as refused and not written.
  /// Returns false (errorOccurred or the refusal says why) when nothing was written.
  bool exportSynthetic(const RunOutput& output, std::optional<core::pipeline::Mechanism> mechanism,
                       int m, const QString& csvPath);
  /// core::report::exportRun of the run into folder (release/ and internal/), with the session
  /// of the settings the run was started with; the data, session and reference files are
  /// passed as inputs never to clobber. `release`: the mechanisms the analyst chose to release
  /// (nullopt: defaultReleaseChoice); the others go to internal/, and a refused one blocks only
  /// itself (shown). Returns true when everything chosen was written.
  bool exportAll(const RunOutput& output, const QString& folder,
                 std::optional<std::vector<core::pipeline::Mechanism>> release = std::nullopt);
  /// Asks for the folder, which mechanisms to release (showing what release/ and internal/ will
  /// hold, columns included), asks before replacing files, then exportAll().
  void exportAllWithDialog(const RunOutput* output);
  /// Asks for the file, then exportSynthetic().
  void exportSyntheticWithDialog(const RunOutput* output,
                                 std::optional<core::pipeline::Mechanism> mechanism, int m);
  /// Asks for a folder (opening in defaultFolder for `source`), refuses one where a file it
  /// writes is an input (the data, the session, the weights `reference`), asks before replacing
  /// files, then PlotsView::exportAll.
  void exportPlotsWithDialog(PlotsView* plots, const DataSource& source = {},
                             const QString& reference = {});

  /// What Export all offers for release by default: every mechanism with a DP or aDP label
  /// (not refused) whose output is usable; an unusable one stays internal unless chosen.
  static std::vector<core::pipeline::Mechanism> defaultReleaseChoice(const RunOutput& output);
  /// A mechanism's line in the choice: "censor-w — DP — unusable: 598 of 600 records censored".
  static QString releaseChoiceText(const RunOutput& output, std::size_t mechanism);
  /// The confirmation text of Export all for this choice: exactly what release/ and internal/
  /// will hold, the columns, what never leaves.
  static QString releaseSummary(const RunOutput& output,
                                const std::vector<core::pipeline::Mechanism>& release);
  static QString releaseSummary(const RunOutput& output) {
    return releaseSummary(output, defaultReleaseChoice(output));
  }

  /// Where export dialogs open: the open session's folder, else the data file's folder when it
  /// can be written to, else the home folder; never the bundled samples' folder (read-only in
  /// an installed package).
  static QString defaultFolder(const QString& sessionPath, const DataSource& source);

  /// The open session file (an input of the export: never replaced).
  void setSessionPath(const QString& path) { sessionPath_ = path; }
  void setRefusalPresenter(RefusalPresenter presenter) { refused_ = std::move(presenter); }
  void setReleaseChooser(ReleaseChooser chooser) { choose_ = std::move(chooser); }
  /// Whether a results table is shown without the run behind it (a reopened session keeps the
  /// table, not the posterior draws): then "nothing to export" says so and what to do.
  void setStoredResultsOnly(std::function<bool()> test) { storedOnly_ = std::move(test); }

 signals:
  void message(const QString& text);
  void errorOccurred(const ErrorReport& report);

 private:
  /// The files the run read (data, session, weights reference): never replaced or removed.
  std::vector<std::string> inputsOf(const RunOutput& output) const;
  /// Reports that there is no run to export from.
  void nothingToExport();

  QWidget* dialogParent_;
  QString sessionPath_;
  QString lastExportFolder_;  ///< where Export all last wrote: the next dialog starts there
  RefusalPresenter refused_;
  ReleaseChooser choose_;
  std::function<bool()> storedOnly_;
};

}  // namespace dpsynth::ui
