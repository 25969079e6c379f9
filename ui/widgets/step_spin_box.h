#pragma once
/// A QDoubleSpinBox that tells whether the value it is changing comes from a step (wheel notch,
/// arrow key or arrow button) rather than from typing, so that a run of steps can be one undo
/// step instead of one per notch.
#include <QDoubleSpinBox>

namespace dpsynth::ui {

class StepSpinBox : public QDoubleSpinBox {
 public:
  using QDoubleSpinBox::QDoubleSpinBox;

  /// True while stepBy() runs (valueChanged() emitted now comes from a step).
  bool isStepping() const { return stepping_; }

  void stepBy(int steps) override {
    stepping_ = true;
    QDoubleSpinBox::stepBy(steps);
    stepping_ = false;
  }

 private:
  bool stepping_ = false;
};

}  // namespace dpsynth::ui
