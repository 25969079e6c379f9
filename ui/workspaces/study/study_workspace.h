#pragma once
/// The Studies workspace: build or load a Monte Carlo study config (core/study), run it live
/// into a study folder on a worker thread, and watch the Lipschitz violins (with the ε/2
/// bound), the utility violins (with the generating distribution's analytic value) and the
/// counts table fill in as replicates land. Cancel keeps finished replicates; Run again into
/// the same folder resumes.
#include <QTimer>
#include <QWidget>
#include <functional>
#include <optional>

#include "core/study/study_config.h"
#include "ui/controllers/files_read.h"
#include "ui/services/studio_services.h"
#include "ui/workspaces/study/study_rows.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTabWidget;

namespace dpsynth::ui {

class StudyConfigForm;
class StudyCountsTable;
class StudioDocument;
class StudyJob;
class StudyViolinPlot;

class StudyWorkspace : public QWidget {
  Q_OBJECT

 public:
  /// Bootstraps of the synthesis data take the document's file and choices; without a
  /// document (tests of the form alone) only a bootstrap provider can give one.
  explicit StudyWorkspace(StudioDocument* document = nullptr, const StudioServices& services = {},
                          QWidget* parent = nullptr);
  ~StudyWorkspace() override;

  /// The bundled presets (resources/studies), by file name without ".json".
  static QStringList presetNames();
  /// Loads a preset into the form; false (and a message) when it cannot be read.
  bool loadPreset(const QString& name);
  /// Loads a config file into the form; false (and the core's message) when it cannot.
  bool openConfig(const QString& path);
  bool saveConfig(const QString& path);
  /// Where "Bootstrap the synthesis data" takes its source from (the synthesis workspace's
  /// loaded file and choices); nullopt with `why` set when there is none.
  using BootstrapProvider = std::function<std::optional<core::study::Bootstrap>(QString& why)>;
  void setBootstrapProvider(BootstrapProvider provider) {
    bootstrapProvider_ = std::move(provider);
  }
  /// What else the study takes from Synthesis with its data (mechanisms, ε, tuning, neighbours).
  using SettingsAdopter = std::function<void(core::study::StudyConfig&)>;
  void setSettingsAdopter(SettingsAdopter adopter) { settingsAdopter_ = std::move(adopter); }

  void setOutputFolder(const QString& folder);
  QString outputFolder() const;
  /// Asks whether summaries dpsynth did not write may be replaced (the text names them); a
  /// question box without one.
  using ReplaceQuestion = ui::ReplaceQuestion;
  void setReplaceQuestion(ReplaceQuestion ask) { askReplace_ = std::move(ask); }
  /// Replicates run at a time (0 = every core).
  void setThreads(int threads) { threads_ = threads; }

  /// Starts the form's config into the output folder; false (with the reason in the status
  /// line) when the config has problems, no folder is chosen or a run is going on.
  bool run();
  void cancel();
  bool isRunning() const;

  StudyConfigForm* form() const { return form_; }
  StudyViolinPlot* lipschitzPlot() const { return lipschitz_; }
  StudyViolinPlot* utilityPlot() const { return utility_; }
  QComboBox* measureBox() const { return measure_; }
  QComboBox* presetBox() const { return presets_; }
  StudyCountsTable* countsTable() const { return counts_; }
  QTabWidget* views() const { return views_; }
  QPushButton* runButton() const { return runButton_; }
  QPushButton* cancelButton() const { return cancelButton_; }
  QPushButton* bootstrapButton() const { return bootstrapButton_; }
  QProgressBar* progressBar() const { return progress_; }
  QLabel* statusLabel() const { return status_; }
  const StudyRowSet& rows() const { return rows_; }
  /// Number of times the views were redrawn from the rows (bursts are coalesced).
  int refreshCount() const { return refreshCount_; }

 signals:
  /// A run ended: completed (every replicate in the folder), cancelled, or failed.
  void runEnded(bool completed);
  /// The rows of one more replicate arrived (the views follow within 200 ms).
  void replicateArrived();

 private:
  void buildLayout();
  void refreshViews();
  void refreshUtility();
  void scheduleRefresh();
  void onProgress(int done, int total, double secondsLeft);
  void setRunning(bool running);
  void markStale();
  void useSynthesisData();
  void openWithDialog();
  void saveWithDialog();
  void chooseFolder();
  void exportCounts();
  void setStatus(const QString& text, bool error = false);
  /// Why the summaries of `config` may not be written into the output folder (a file the studio
  /// reads, or the analyst's own file not to be replaced), empty when they may.
  QString summariesProblem(const core::study::StudyConfig& config);

  StudyConfigForm* form_ = nullptr;
  StudyJob* job_ = nullptr;
  StudyViolinPlot* lipschitz_ = nullptr;
  StudyViolinPlot* utility_ = nullptr;
  StudyCountsTable* counts_ = nullptr;
  QComboBox* presets_ = nullptr;
  QComboBox* measure_ = nullptr;
  QTabWidget* views_ = nullptr;
  QLineEdit* folder_ = nullptr;
  QPushButton* runButton_ = nullptr;
  QPushButton* cancelButton_ = nullptr;
  QPushButton* bootstrapButton_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QLabel* status_ = nullptr;
  QTimer refreshTimer_;
  StudyRowSet rows_;
  /// The config of the run whose rows are shown (its generator gives the analytic lines).
  std::optional<core::study::StudyConfig> shown_;
  BootstrapProvider bootstrapProvider_;
  SettingsAdopter settingsAdopter_;
  ReplaceQuestion askReplace_;
  int threads_ = 0;
  int refreshCount_ = 0;
};

}  // namespace dpsynth::ui
