// Hosts the workspaces beside synthesis. Each workspace is a widget of its own under
// ui/workspaces/, built from (document, services); this file only creates it, adds its tab and
// shows what it reports.
#include <QStatusBar>
#include <QTabWidget>

#include "ui/main_window.h"
#include "ui/workspaces/frontier/frontier_workspace.h"
#include "ui/workspaces/inference/analyze_workspace.h"
#include "ui/workspaces/study/study_workspace.h"

namespace dpsynth::ui {

void MainWindow::addWorkspaces() {
  workspaces_->addTab(new StudyWorkspace(document_, services_, workspaces_), tr("Studies"));
  auto* frontier = new FrontierWorkspace(document_, services_, workspaces_);
  workspaces_->addTab(frontier, tr("Frontier"));
  connect(frontier, &FrontierWorkspace::pointLoaded, this, [this](const QString& message) {
    showSynthesis();
    statusBar()->showMessage(message, 15000);
  });
  auto* analyze = new AnalyzeWorkspace(document_, services_, workspaces_);
  analyze->setObjectName(QStringLiteral("analyzeWorkspace"));
  workspaces_->addTab(analyze, tr("Analyze a release"));
}

}  // namespace dpsynth::ui
