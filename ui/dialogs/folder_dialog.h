#pragma once
/// The folder chooser of the exports: a folder typed that does not exist yet is created (inside
/// an existing one) and chosen, where the plain chooser answered "Directory not found".
#include <QFileDialog>
#include <QString>

namespace dpsynth::ui {

class OutputFolderDialog : public QFileDialog {
  Q_OBJECT

 public:
  OutputFolderDialog(QWidget* parent, const QString& title, const QString& start);
  /// A typed folder that does not exist, inside one that does, is made, then chosen.
  void accept() override;
};

/// Empty when cancelled.
QString chooseOutputFolder(QWidget* parent, const QString& title, const QString& start);

}  // namespace dpsynth::ui
