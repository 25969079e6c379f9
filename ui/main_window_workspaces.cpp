// Hosts the workspaces beside synthesis. Each workspace is a widget of its own under
// ui/workspaces/; this file only creates it, adds its tab and connects it to the window.
#include <QTabWidget>

#include "ui/main_window.h"
#include "ui/panels/data_panel.h"
#include "ui/workspaces/inference/analyze_workspace.h"

namespace dpsynth::ui {

void MainWindow::addWorkspaces() {
  auto* analyze = new AnalyzeWorkspace(workspaces_);
  analyze->setObjectName(QStringLiteral("analyzeWorkspace"));
  workspaces_->addTab(analyze, tr("Analyze a release"));
  analyze->setLoadedData(data_->table());
  connect(data_, &DataPanel::loaded, analyze, [this, analyze] { analyze->setLoadedData(data_->table()); });
}

void MainWindow::showSynthesis() { workspaces_->setCurrentWidget(mainSplitter_); }

}  // namespace dpsynth::ui
