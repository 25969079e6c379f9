#pragma once
/// "Make a release from the loaded data": the class column and the feature columns among the
/// categorical columns of the data, the public levels of each (typed, or loaded from a codebook,
/// an earlier release or public data — never from the data being released: they are published
/// and which values occur is confidential), and ε. The dialog says plainly that this is a real
/// release that spends ε of the data's privacy budget.
#include <QDialog>
#include <string>
#include <vector>

#include "ui/workspaces/inference/release_from_data.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QListWidget;
class QPlainTextEdit;
class QPushButton;

namespace dpsynth::ui {

class MakeReleaseDialog : public QDialog {
  Q_OBJECT

 public:
  MakeReleaseDialog(std::vector<CategoricalColumn> columns, const QString& dataName,
                    QWidget* parent = nullptr);

  std::string classColumn() const;
  std::vector<std::string> features() const;
  double epsilon() const;
  /// The levels as the user declared them. Throws
  /// std::invalid_argument for a malformed line.
  DeclaredLevels declaredLevels() const;

  QComboBox* classBox() const { return class_; }
  QListWidget* featureList() const { return features_; }
  QDoubleSpinBox* epsilonBox() const { return epsilon_; }
  QPlainTextEdit* levelsEdit() const { return levels_; }
  /// Fills the levels of the chosen columns from a public file (declaredLevelsFromFile); says
  /// below the levels what was loaded, or why not. Returns false when the file was refused.
  bool loadLevelsFrom(const QString& path);

 private:
  void updateChoices();
  void updateOk();
  void updateBudget();

  std::vector<CategoricalColumn> columns_;
  QComboBox* class_ = nullptr;
  QListWidget* features_ = nullptr;
  QDoubleSpinBox* epsilon_ = nullptr;
  QPlainTextEdit* levels_ = nullptr;
  QLabel* budget_ = nullptr;
  QPushButton* ok_ = nullptr;
  QCheckBox* levelsPublic_ = nullptr;
  QLabel* levelsSource_ = nullptr;
};

}  // namespace dpsynth::ui
