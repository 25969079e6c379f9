#pragma once
/// The window's left side: data, tuning and (folded) sampler settings in collapsible sections
/// of a scrolling column; below it, always visible whatever the window's height, the list of
/// all ten mechanisms, the guarantee badge and the Run / Cancel / auto-run row.
#include <QWidget>

class QCheckBox;
class QPushButton;

namespace dpsynth::ui {

class CollapsibleSection;
class DataPanel;
class GuaranteeBadge;
class MechanismPanel;
class SamplerPanel;
class TuningPanel;

class ControlPane : public QWidget {
  Q_OBJECT

 public:
  ControlPane(DataPanel* data, MechanismPanel* mechanisms, TuningPanel* tuning,
              SamplerPanel* sampler, QWidget* parent = nullptr);

  GuaranteeBadge* badge() const { return badge_; }
  QPushButton* runButton() const { return run_; }
  QPushButton* cancelButton() const { return cancel_; }
  QCheckBox* autoRunBox() const { return autoRun_; }
  CollapsibleSection* dataSection() const { return dataSection_; }
  CollapsibleSection* tuningSection() const { return tuningSection_; }
  /// Run enabled when idle, Cancel while running.
  void setBusy(bool busy);

 private:
  GuaranteeBadge* badge_ = nullptr;
  QPushButton* run_ = nullptr;
  QPushButton* cancel_ = nullptr;
  QCheckBox* autoRun_ = nullptr;
  CollapsibleSection* dataSection_ = nullptr;
  CollapsibleSection* tuningSection_ = nullptr;
};

}  // namespace dpsynth::ui
