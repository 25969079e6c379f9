// Hosts the workspaces beside synthesis. Each workspace is a widget of its own under
// ui/workspaces/; this file only creates it, adds its tab and connects it to the window.
#include <QTabWidget>

#include "ui/main_window.h"

namespace dpsynth::ui {

void MainWindow::addWorkspaces() {}

void MainWindow::showSynthesis() { workspaces_->setCurrentWidget(mainSplitter_); }

}  // namespace dpsynth::ui
