#pragma once
/// A checkable list of every mechanism: the checked ones run side by side (sharing stages such
/// as the unweighted fit); the selected one drives the guarantee badge. A view of the
/// StudioDocument: a tick is a typed edit of its mechanisms, the selection its focus.
#include <QIcon>
#include <QWidget>
#include <map>
#include <optional>
#include <vector>

#include "core/pipeline/mechanism.h"
#include "ui/document/studio_document.h"

class QListWidget;

class QListWidgetItem;

namespace dpsynth::ui {

class MechanismPanel : public QWidget {
  Q_OBJECT

 public:
  explicit MechanismPanel(StudioDocument* document, QWidget* parent = nullptr);

  /// The mechanisms ticked in the list, in allMechanisms() order (the document's).
  std::vector<core::pipeline::Mechanism> checked() const;

  /// Marks a mechanism's row (warning icon, the text in its tooltip) for a setting that does
  /// not fit; an empty text clears the mark.
  void setWarning(core::pipeline::Mechanism mechanism, const QString& text);
  QString warning(core::pipeline::Mechanism mechanism) const;
  QListWidget* list() const { return list_; }
  /// Marks mechanisms that cannot run with the settings on screen (warning icon, red text, the
  /// reason as tooltip); mechanisms not in the map are unmarked.
  void setProblems(const std::map<core::pipeline::Mechanism, QString>& problems);
  /// The reason a mechanism is marked ("" when it is not).
  QString problemOf(core::pipeline::Mechanism mechanism) const;

 private:
  /// Icon, colour and tooltip of a row from its problem and its warning.
  void decorate(QListWidgetItem* item) const;
  /// Shows the document's checked mechanisms and focus.
  void render();

  StudioDocument* document_;
  QListWidget* list_ = nullptr;
  std::map<core::pipeline::Mechanism, QString> problems_;
  QIcon blankIcon_;
  bool rendering_ = false;
};

}  // namespace dpsynth::ui
