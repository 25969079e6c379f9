#pragma once
/// The frontier workspace (issues 11, 20): a study on replicates of public data (the reference
/// dataset resampled, or a generator) or — outside ε — of the confidential data loaded in
/// Synthesis sweeps ε (and optionally c, g, downscale) for the chosen mechanisms and plots ε
/// against a utility measure, median and interquartile band over replicates, while replicates
/// land. It is an internal study, never a release (the banner says so and names the source);
/// clicking a point loads its settings into the document (one edit, one undo step), where the
/// Synthesis workspace runs a release, marked "tuned on the confidential data" when the points
/// came from them (SPEC §0).
#include <QElapsedTimer>
#include <QTimer>
#include <QWidget>
#include <array>
#include <string>
#include <vector>

#include "core/study/frontier.h"
#include "core/study/study_row.h"
#include "core/study/study_runner.h"
#include "ui/services/studio_services.h"
#include "ui/workspaces/frontier/frontier_form.h"

class QLabel;
class QProgressBar;
class QPushButton;

namespace dpsynth::ui {

class FrontierPlot;
class FrontierRunner;
class StudioDocument;

class FrontierWorkspace : public QWidget {
  Q_OBJECT

 public:
  /// Reads the document's data, reference, tuning and sampler; loads points into it.
  FrontierWorkspace(StudioDocument* document, const StudioServices& services,
                    QWidget* parent = nullptr);
  ~FrontierWorkspace() override;

  /// Starts the study on the form's source; false (with the reason in statusText()) when the
  /// source or the form cannot make one.
  bool start();
  void cancel();
  bool isRunning() const;
  /// Shows the rows of a study folder (`dpsynth study --out DIR`): its replicates.csv.
  bool openStudyFolder(const QString& folder);
  /// Replaces the rows shown (studyHeader() layout) and redraws.
  void setRows(std::vector<core::study::StudyRow> rows);
  const std::vector<core::study::StudyRow>& rows() const { return rows_; }
  /// Takes the document's sampler settings and tuning as the defaults of the form.
  void takeSynthesisDefaults();
  /// Loads a point's mechanism, ε, c, g and downscale into the document as one edit (one undo
  /// step; "reproducible" off: the next run is a release), with "tuned on the confidential
  /// data" set when the rows shown came from them and cleared otherwise; then emits
  /// pointLoaded.
  void loadPoint(const core::study::FrontierPoint& point);

  FrontierForm* form() const { return form_; }
  FrontierPlot* plot() const { return plot_; }
  FrontierRunner* worker() const { return worker_; }
  QPushButton* runButton() const { return run_; }
  QPushButton* cancelButton() const { return cancel_; }
  QProgressBar* progressBar() const { return progress_; }
  QLabel* banner() const { return banner_; }
  QString statusText() const;
  /// The rows shown came from the confidential data (a frontier on them, or a study folder
  /// that bootstrapped a file other than the reference): a point loaded from them is marked.
  bool showsConfidential() const { return showsConfidential_; }

 signals:
  /// A point's settings are in the document; `message` says what was loaded.
  void pointLoaded(const QString& message);
  /// The study in progress ended (completed, cancelled or failed).
  void studyEnded(bool completed);

 private:
  void refreshPoints();
  void onProgress(int done, int total, double elapsed);
  void setRunning(bool running);
  void setStatus(const QString& text);
  /// The reference's availability and the data's family, from Synthesis, into the form.
  void refreshSource();
  /// The banner names the source the next run uses (and warns for the confidential data).
  void showBanner();

  StudioDocument* document_;
  StudioServices services_;
  FrontierForm* form_ = nullptr;
  FrontierPlot* plot_ = nullptr;
  FrontierRunner* worker_ = nullptr;
  QLabel* banner_ = nullptr;
  QLabel* status_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QPushButton* run_ = nullptr;
  QPushButton* cancel_ = nullptr;
  QPushButton* open_ = nullptr;
  std::vector<core::study::StudyRow> rows_;  ///< decoded once, as they land
  QString dataName_;  ///< what the rows shown are replicates of, for messages
  bool showsConfidential_ = false;
  quint64 studyId_ = 0;
  /// Replicates that landed since the last redraw are drawn at most every kRedrawMs.
  QTimer redraw_;
  bool rowsChanged_ = false;
  std::array<int, 3> synthesisSampler_{};  ///< chains, warm-up, draws last taken from Synthesis
};

/// The points with x = the median over replicates of attribute CAP − baseline of each point's
/// cell (the disclosure risk axis, issue 24); points whose rows have no CAP (ph, or a run without
/// covariates as keys) are left out.
std::vector<core::study::FrontierPoint> withAttributeCapGain(
    std::vector<core::study::FrontierPoint> points, const std::vector<core::study::StudyRow>& rows);

}  // namespace dpsynth::ui
