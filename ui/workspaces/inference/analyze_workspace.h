#pragma once
/// The "Analyze a release" workspace (SPEC §6, paper 004): open a release file or make one from
/// the data loaded for synthesis, run the data-augmentation sampler on a worker thread and watch
/// it live — traces per chain, acceptance per sweep against e^{−ε} — then read the posterior
/// densities against the prior (and the confidential-data posterior when that data is loaded),
/// the per-record acceptance and the summary table; export draws.csv, summary.json and
/// trace.csv as `dpsynth infer` writes them. Live batches are merged by one 5 Hz timer.
#include <QElapsedTimer>
#include <QTimer>
#include <QWidget>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "core/data/csv_table.h"
#include "ui/controllers/files_read.h"
#include "ui/services/inference_runner.h"
#include "ui/services/studio_services.h"
#include "ui/workspaces/inference/analysis_release.h"

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QThread;

namespace dpsynth::ui {

class StudioDocument;

class AcceptancePlot;
class InferenceSummaryTable;
class RecordAcceptancePlot;
class ReleaseDensityPlot;
class SamplerSettingsBox;
class TracePlot;

class AnalyzeWorkspace : public QWidget {
  Q_OBJECT

 public:
  static constexpr int kRedrawIntervalMs = 200;  ///< live views redraw at most at 5 Hz

  /// Shows an error (title, message); tests record instead of a dialog.
  using ErrorSink = std::function<void(const QString& title, const QString& message)>;
  /// Picks a path (a release file to save, a folder to export into); empty cancels.
  using PathChooser = std::function<QString(const QString& suggested)>;

  /// Follows the document's data (offered for "Make a release"); without a document (tests of
  /// the workspace alone) setLoadedData() gives it.
  explicit AnalyzeWorkspace(StudioDocument* document = nullptr, const StudioServices& services = {},
                            QWidget* parent = nullptr);
  ~AnalyzeWorkspace() override;

  /// The data loaded in the synthesis workspace (null: none). Offered for "Make a release" and
  /// compared with the release's layout for the confidential-data posterior.
  void setLoadedData(std::shared_ptr<const core::data::CsvTable> data);

  /// Opens a release file; on failure shows the core's message and keeps the current release.
  bool openRelease(const QString& path);
  /// Makes a real naive-Bayes release from the loaded data (OS randomness), saves it at
  /// savePath and opens it. False (with a message) when it cannot be made or saved.
  bool makeRelease(const std::string& classColumn, const std::vector<std::string>& features,
                   const std::map<std::string, std::vector<std::string>>& levels, double epsilon,
                   const QString& savePath);
  /// Starts the sampler with the settings shown; false (with a message) when it cannot.
  bool startRun();
  void cancelRun();
  bool isRunning() const { return running_; }
  /// Writes draws.csv, summary.json and trace.csv of the last run into folder. Refuses (with a
  /// message, nothing written) a file the studio reads, and a file of those names that dpsynth
  /// did not write unless replaceForeign (Export asks the analyst first).
  bool exportRun(const QString& folder, bool replaceForeign = false);

  void setErrorSink(ErrorSink sink) { errors_ = std::move(sink); }
  void setReleasePathChooser(PathChooser chooser) { releasePath_ = std::move(chooser); }
  void setExportFolderChooser(PathChooser chooser) { exportFolder_ = std::move(chooser); }
  /// Asks whether files dpsynth did not write may be replaced (the text names them); a
  /// question box without one.
  using ReplaceQuestion = ui::ReplaceQuestion;
  void setReplaceQuestion(ReplaceQuestion ask) { askReplace_ = std::move(ask); }

  const std::optional<AnalysisRelease>& release() const { return release_; }
  const std::optional<InferenceOutput>& lastOutput() const { return output_; }
  QLabel* headerLabel() const { return header_; }
  QComboBox* parameterChooser() const { return parameter_; }
  SamplerSettingsBox* samplerSettings() const { return settings_; }
  TracePlot* tracePlot() const { return trace_; }
  ReleaseDensityPlot* densityPlot() const { return density_; }
  AcceptancePlot* acceptancePlot() const { return acceptance_; }
  RecordAcceptancePlot* recordPlot() const { return records_; }
  InferenceSummaryTable* summaryTable() const { return summary_; }
  QPushButton* runButton() const { return run_; }
  QPushButton* cancelButton() const { return cancel_; }
  QPushButton* makeButton() const { return make_; }
  QPushButton* exportButton() const { return export_; }
  QProgressBar* progressBar() const { return progress_; }
  QLabel* statusLabel() const { return status_; }
  /// Live batches merged into the views so far in this run (tests count events, not time).
  int mergedBatches() const { return mergedBatches_; }

 signals:
  /// A run ended: finished (ok), cancelled or failed.
  void runEnded(bool ok);
  /// A release was opened or made.
  void releaseChanged();

 private:
  void openWithDialog();
  void makeWithDialog();
  void exportWithDialog();
  void showRelease();
  void updateReferences();
  void mergePending();
  void onFinished(const InferenceOutput& output);
  void endRun(bool ok, const QString& status);
  void updateButtons();
  void showError(const QString& title, const QString& message);
  /// Why the export into folder would replace a file the studio reads (empty when it would not).
  QString exportInputProblem(const QString& folder) const;
  /// "\nThe chains have NOT converged (...)" for the last run, or nothing.
  QString convergenceNote() const;

  std::optional<AnalysisRelease> release_;
  std::shared_ptr<const core::data::CsvTable> data_;
  std::optional<InferenceOutput> output_;
  std::optional<std::uint64_t> outputSeed_;
  core::infer::DaConfig outputConfig_;
  /// The finished run's failed diagnostics (core/infer/da_convergence.h): shown, and exported.
  std::vector<std::string> convergenceProblems_;
  QThread* thread_ = nullptr;
  InferenceRunner* worker_ = nullptr;
  StudioDocument* document_ = nullptr;
  quint64 runId_ = 0;
  bool running_ = false;
  std::vector<InferenceBatch> pending_;
  std::vector<int> chainDone_;
  int chainTotal_ = 0;
  QTimer redraw_;
  QElapsedTimer clock_;
  int mergedBatches_ = 0;
  ErrorSink errors_;
  PathChooser releasePath_, exportFolder_;
  ReplaceQuestion askReplace_;

  QLabel* header_ = nullptr;
  QPushButton* open_ = nullptr;
  QPushButton* make_ = nullptr;
  SamplerSettingsBox* settings_ = nullptr;
  QPushButton* run_ = nullptr;
  QPushButton* cancel_ = nullptr;
  QPushButton* export_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QLabel* status_ = nullptr;
  QComboBox* parameter_ = nullptr;
  TracePlot* trace_ = nullptr;
  ReleaseDensityPlot* density_ = nullptr;
  AcceptancePlot* acceptance_ = nullptr;
  RecordAcceptancePlot* records_ = nullptr;
  InferenceSummaryTable* summary_ = nullptr;
};

}  // namespace dpsynth::ui
