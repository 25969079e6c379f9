#pragma once
/// Release and sampler settings: the neighbour relation, the "reproducible (not for release)"
/// switch beside the seed, chains, warm-up, draws, threads, the number of synthetic datasets
/// to release, and whether the settings were tuned on the confidential data (SPEC §0: a choice
/// the release note then states as not covered by ε). A view of the StudioDocument: user edits
/// are sent to it as typed edits, and the widgets show its values.
#include <QMap>
#include <QWidget>

#include "ui/document/studio_document.h"

class QCheckBox;
class QComboBox;
class QLineEdit;

namespace dpsynth::ui {

class TuningField;

class SamplerPanel : public QWidget {
  Q_OBJECT

 public:
  explicit SamplerPanel(StudioDocument* document, QWidget* parent = nullptr);

  /// The widget of a field by its key ("chains", "warmup", "draws", "threads",
  /// "syntheticDatasets", "declaredRows", "sizeEpsilon").
  TuningField* field(const QString& key) const { return fields_.value(key); }
  QLineEdit* seedEdit() const { return seed_; }
  QCheckBox* reproducibleBox() const { return reproducible_; }
  QCheckBox* tunedOnConfidentialBox() const { return tunedOnConfidential_; }
  QComboBox* neighboursBox() const { return neighbours_; }

 private:
  void onSeedEdited();
  /// Shows the document's release and sampler settings.
  void render();

  StudioDocument* document_;
  QMap<QString, TuningField*> fields_;
  QMap<QString, Field> keyFields_;
  QLineEdit* seed_ = nullptr;
  QCheckBox* reproducible_ = nullptr;
  QCheckBox* tunedOnConfidential_ = nullptr;
  QComboBox* neighbours_ = nullptr;
  bool rendering_ = false;
};

}  // namespace dpsynth::ui
