#pragma once
/// A titled section whose contents fold away behind an arrow button (for settings most users
/// leave alone, such as the sampler's).
#include <QWidget>

class QToolButton;

namespace dpsynth::ui {

class CollapsibleSection : public QWidget {
  Q_OBJECT

 public:
  CollapsibleSection(const QString& title, QWidget* content, QWidget* parent = nullptr);

  bool isExpanded() const;
  void setExpanded(bool expanded);
  QWidget* content() const { return content_; }

 private:
  QToolButton* header_ = nullptr;
  QWidget* content_ = nullptr;
};

}  // namespace dpsynth::ui
