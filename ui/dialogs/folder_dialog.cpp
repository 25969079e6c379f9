#include "ui/dialogs/folder_dialog.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>

namespace dpsynth::ui {

OutputFolderDialog::OutputFolderDialog(QWidget* parent, const QString& title, const QString& start)
    : QFileDialog(parent, title, start) {
  setFileMode(QFileDialog::Directory);
  setOption(QFileDialog::ShowDirsOnly, true);
  setOption(QFileDialog::DontUseNativeDialog, true);  // accept() below is this dialog's
  setLabelText(QFileDialog::Accept, tr("Choose"));
}

void OutputFolderDialog::accept() {
  const QString typed = selectedFiles().value(0);
  if (!typed.isEmpty() && !QFileInfo::exists(typed) &&
      QFileInfo(QFileInfo(typed).absolutePath()).isDir())
    QDir().mkpath(typed);
  QFileDialog::accept();
}

QString chooseOutputFolder(QWidget* parent, const QString& title, const QString& start) {
  OutputFolderDialog dialog(parent, title, start);
  if (dialog.exec() != QDialog::Accepted) return {};
  return dialog.selectedFiles().value(0);
}

}  // namespace dpsynth::ui
