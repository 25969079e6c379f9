#pragma once
/// The mechanisms' tuning (c, g, k, ε, CW radius, downscale, PH bounds and bins), shared by every
/// checked mechanism, and the choice of a reference dataset for weight functions: a view of the
/// StudioDocument. Every user edit is sent to the document as a typed edit; the fields show the
/// document's values.
#include <QMap>
#include <QWidget>

#include "ui/document/studio_document.h"

class QCheckBox;
class QFormLayout;
class QLabel;
class QPushButton;

namespace dpsynth::ui {

class LoadIndicator;
class TuningField;
struct TuningFieldSpec;

class TuningPanel : public QWidget {
  Q_OBJECT

 public:
  explicit TuningPanel(StudioDocument* document, QWidget* parent = nullptr);

  /// The widget of a field by its key ("c", "epsilon", "lower"), or of a document field.
  TuningField* field(const QString& key) const { return fields_.value(key); }
  TuningField* field(Field field) const;
  QCheckBox* checkBox(const QString& key) const { return checks_.value(key); }
  /// "c", "g", "k", "epsilon", "radius", "radiusRelative", "downscale", "lower", "upper",
  /// "bins".
  QStringList keys() const;

  QPushButton* referenceChooseButton() const { return referenceChoose_; }
  QPushButton* referenceClearButton() const { return referenceClear_; }
  QLabel* referenceLabel() const { return referenceLabel_; }
  /// Progress and Cancel while a chosen reference file is read (the controller connects it).
  LoadIndicator* referenceIndicator() const { return referenceIndicator_; }

 signals:
  /// The user picked a reference CSV ("Weights from a reference dataset…").
  void referenceChosen(const QString& path);
  void referenceCleared();

 private:
  void addField(QFormLayout* form, Field field, TuningFieldSpec spec);
  void addCheck(QFormLayout* form, Field field, const QString& key, const QString& text,
                bool defaultValue, const QString& toolTip);
  void addReferenceRow(QFormLayout* form);
  /// Shows the document's tuning and reference.
  void render();

  StudioDocument* document_;
  QMap<QString, Field> keyFields_;
  QMap<QString, TuningField*> fields_;
  QMap<QString, QCheckBox*> checks_;
  QLabel* referenceLabel_ = nullptr;
  LoadIndicator* referenceIndicator_ = nullptr;
  QPushButton* referenceChoose_ = nullptr;
  QPushButton* referenceClear_ = nullptr;
  bool rendering_ = false;
};

}  // namespace dpsynth::ui
