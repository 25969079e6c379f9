#pragma once
/// The Synthesis workspace: the data, tuning and release settings on the left with the list of
/// mechanisms and Run; the plots, the results table, the run's progress and its warnings in the
/// centre. A view of the StudioDocument built from (document, services): the panels send typed
/// edits, a run is started with the document's settings through the run service, and what it
/// brings back goes into the document, from which the table, plots and warnings are drawn.
#include <QWidget>
#include <optional>

#include "ui/document/studio_document.h"
#include "ui/services/studio_services.h"

class QCheckBox;
class QPushButton;
class QSplitter;
class QTabWidget;

namespace dpsynth::ui {

class ControlPane;
class DataFitCheck;
class DataPanel;
class GuaranteeBadge;
class MechanismPanel;
class PlotsView;
class ProgressPanel;
class ResultsPanel;
class RunPresenter;
class SamplerPanel;
class SettingsCheck;
class TuningPanel;
class WarningsPanel;

class SynthesisWorkspace : public QWidget {
  Q_OBJECT

 public:
  SynthesisWorkspace(StudioDocument* document, const StudioServices& services,
                     QWidget* parent = nullptr);

  /// Starts a run with the document's settings; false (with a message) when they are not
  /// usable. interactive: problems are shown in a dialog (else only in the status bar).
  bool startRun(bool interactive = true);
  void cancelRun();
  /// Where export dialogs of the table and plots open.
  void setExportFolder(const QString& folder);
  /// Splitter positions kept between sessions of the program.
  void restoreLayout();
  void saveLayout() const;
  /// A short window: the results table gets more than a quarter of the height.
  void fitHeight(int windowHeight);

  DataPanel* dataPanel() const { return data_; }
  MechanismPanel* mechanismPanel() const { return mechanisms_; }
  TuningPanel* tuningPanel() const { return tuning_; }
  SamplerPanel* samplerPanel() const { return sampler_; }
  ControlPane* controlPane() const { return controls_; }
  PlotsView* plotsView() const { return plots_; }
  ResultsPanel* resultsPanel() const { return results_; }
  ProgressPanel* progressPanel() const { return progress_; }
  WarningsPanel* warningsPanel() const { return warnings_; }
  /// Progress and Warnings, beside the results table.
  QTabWidget* bottomTabs() const { return bottomTabs_; }
  GuaranteeBadge* guaranteeBadge() const;
  QPushButton* runButton() const;
  QPushButton* cancelButton() const;
  QCheckBox* autoRunBox() const;
  SettingsCheck* settingsCheck() const { return check_; }
  DataFitCheck* dataFitCheck() const { return fitCheck_; }

 signals:
  /// A run ended: finished, cancelled or failed (ok is true only for finished).
  void runEnded(bool ok);

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  void connectRun();
  /// After a cancelled or failed run (`ended` says which): the last run's table and plots.
  void showPreviousRun(const QString& ended);
  void onFinished(const RunOutput& output);
  /// The document changed: render what depends on it here (badge, results, checks).
  void onDocumentChanged(StudioDocument::Parts parts);
  /// Table, plots and warnings from the document's results.
  void renderResults();
  void updateBadge();
  void followCurrentMechanism();

  StudioDocument* document_;
  StudioServices services_;
  DataPanel* data_ = nullptr;
  MechanismPanel* mechanisms_ = nullptr;
  TuningPanel* tuning_ = nullptr;
  SamplerPanel* sampler_ = nullptr;
  ControlPane* controls_ = nullptr;
  PlotsView* plots_ = nullptr;
  ResultsPanel* results_ = nullptr;
  ProgressPanel* progress_ = nullptr;
  WarningsPanel* warnings_ = nullptr;
  QTabWidget* bottomTabs_ = nullptr;
  QSplitter* mainSplitter_ = nullptr;
  QSplitter* centreSplitter_ = nullptr;
  SettingsCheck* check_ = nullptr;
  DataFitCheck* fitCheck_ = nullptr;
  RunPresenter* presenter_ = nullptr;
  /// The document's resultsSerial() the table, plots and warnings show.
  quint64 shownResults_ = 0;
  /// The table and plots shown carry the outdated mark (settings changed since their run).
  bool viewStale_ = false;
  /// The analyst moved the plots / results divider in this session: keep it where it is.
  bool centreSizedByUser_ = false;
};

}  // namespace dpsynth::ui
