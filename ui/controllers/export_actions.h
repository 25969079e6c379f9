#pragma once
/// The File menu's exports that need a finished run: "Export all" (core::report::exportRun: a
/// publishable release/ folder and a confidential internal/ one, the same folders `dpsynth run
/// --session` writes), the synthetic-data bundle of one mechanism (CSV + sidecar, only the
/// outcome and the public covariates) and the plots. A mechanism whose release was refused
/// (SPEC §0: its DP fit failed its diagnostics) is never written to a release; the refusal is
/// shown by the RefusalPresenter.
#include <QObject>
#include <functional>
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
  /// Asks the user to confirm (title, text); true = go ahead.
  using Confirmer = std::function<bool(const QString& title, const QString& text)>;

  explicit ExportActions(QWidget* dialogParent);

  /// Writes m synthetic datasets of `mechanism` (or the run's first one) from `output` to
  /// csvPath, with the run's seed. A refused mechanism is shown as refused and not written.
  /// Returns false (errorOccurred or the refusal says why) when nothing was written.
  bool exportSynthetic(const RunOutput& output, std::optional<core::pipeline::Mechanism> mechanism,
                       int m, const QString& csvPath);
  /// core::report::exportRun of the run into folder (release/ and internal/), with the session
  /// of the settings the run was started with; the data, session and reference files are
  /// passed as inputs never to clobber. Returns true only when release/ was written; a refused
  /// release writes internal/ only and shows the refusal.
  bool exportAll(const RunOutput& output, const QString& folder);
  /// Asks for the folder, shows what the release will hold (its columns) for confirmation,
  /// asks before replacing files, then exportAll().
  void exportAllWithDialog(const RunOutput* output);
  /// Asks for the file, then exportSynthetic().
  void exportSyntheticWithDialog(const RunOutput* output,
                                 std::optional<core::pipeline::Mechanism> mechanism, int m);
  /// Asks for a folder (opening in defaultFolder for `source`), then PlotsView::exportAll.
  void exportPlotsWithDialog(PlotsView* plots, const DataSource& source = {});

  /// The confirmation text of Export all: the release's files and columns, what never leaves.
  static QString releaseSummary(const RunOutput& output);

  /// Where export dialogs open: the open session's folder, else the data file's folder when it
  /// can be written to, else the home folder; never the bundled samples' folder (read-only in
  /// an installed package).
  static QString defaultFolder(const QString& sessionPath, const DataSource& source);

  /// The open session file (an input of the export: never replaced).
  void setSessionPath(const QString& path) { sessionPath_ = path; }
  void setRefusalPresenter(RefusalPresenter presenter) { refused_ = std::move(presenter); }
  void setConfirmer(Confirmer confirmer) { confirm_ = std::move(confirmer); }

 signals:
  void message(const QString& text);
  void errorOccurred(const ErrorReport& report);

 private:
  /// The files the run read (data, session, weights reference): never replaced or removed.
  std::vector<std::string> inputsOf(const RunOutput& output) const;

  QWidget* dialogParent_;
  QString sessionPath_;
  RefusalPresenter refused_;
  Confirmer confirm_;
};

}  // namespace dpsynth::ui
