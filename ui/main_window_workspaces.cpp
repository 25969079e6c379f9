// Hosts the workspaces beside synthesis. Each workspace is a widget of its own under
// ui/workspaces/; this file only creates it, adds its tab and connects it to the window.
#include <QStatusBar>
#include <QTabWidget>

#include "ui/main_window.h"
#include "ui/panels/data_panel.h"
#include "ui/workspaces/frontier/frontier_workspace.h"
#include "ui/workspaces/inference/analyze_workspace.h"
#include "ui/workspaces/study/study_workspace.h"
#include "ui/workspaces/study/synthesis_bootstrap.h"

namespace dpsynth::ui {

void MainWindow::addWorkspaces() {
  auto* studies = new StudyWorkspace(workspaces_);
  workspaces_->addTab(studies, tr("Studies"));
  studies->setBootstrapProvider([this](QString& why) -> std::optional<core::study::Bootstrap> {
    return studyBootstrapOf(*data_, why);
  });
  auto* frontier = new FrontierWorkspace(this, workspaces_);
  workspaces_->addTab(frontier, tr("Frontier"));
  connect(frontier, &FrontierWorkspace::pointLoaded, this, [this](const QString& message) {
    showSynthesis();
    statusBar()->showMessage(message, 15000);
  });
  auto* analyze = new AnalyzeWorkspace(workspaces_);
  analyze->setObjectName(QStringLiteral("analyzeWorkspace"));
  workspaces_->addTab(analyze, tr("Analyze a release"));
  analyze->setLoadedData(data_->table());
  connect(data_, &DataPanel::loaded, analyze,
          [this, analyze] { analyze->setLoadedData(data_->table()); });
}

void MainWindow::showSynthesis() { workspaces_->setCurrentWidget(mainSplitter_); }

}  // namespace dpsynth::ui
