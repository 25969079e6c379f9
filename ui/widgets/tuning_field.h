#pragma once
/// One tuning value as a slider + spin box pair, with an optional "auto" check box, a
/// reset-to-default button and a tooltip that states the formula the value enters.
#include <QVariant>
#include <QWidget>

#include "ui/document/settings_field.h"

class QCheckBox;
class QDoubleSpinBox;
class QLabel;
class QSlider;
class QToolButton;

namespace dpsynth::ui {

struct TuningFieldSpec {
  /// The panels list their fields positionally; the optional tail has its defaults here (an
  /// aggregate initialised without it warned under -Wmissing-field-initializers).
  TuningFieldSpec(QString key_, QString label_, QString toolTip_, double minimum_, double maximum_,
                  double sliderMinimum_, double sliderMaximum_, int decimals_, double step_,
                  QVariant defaultValue_, QString autoText_ = {}, bool slider_ = true,
                  double autoDisplay_ = 0)
      : key(std::move(key_)),
        label(std::move(label_)),
        toolTip(std::move(toolTip_)),
        minimum(minimum_),
        maximum(maximum_),
        sliderMinimum(sliderMinimum_),
        sliderMaximum(sliderMaximum_),
        decimals(decimals_),
        step(step_),
        defaultValue(std::move(defaultValue_)),
        autoText(std::move(autoText_)),
        slider(slider_),
        autoDisplay(autoDisplay_) {}

  QString key;                                  ///< settings key ("c", "epsilon", ...)
  QString label;                                ///< short label ("c", "ε")
  QString toolTip;                              ///< what it does and the formula it enters
  double minimum = 0, maximum = 1;              ///< spin box range
  double sliderMinimum = 0, sliderMaximum = 1;  ///< slider range (a sub-range is fine)
  int decimals = 2;
  double step = 0.01;
  QVariant defaultValue;  ///< a double, or null for "auto"/"not set"
  QString autoText;       ///< non-empty: an optional value with a check box of this text
  bool slider = true;
  /// What the disabled spin box shows while "auto" is checked (and offers when it is
  /// unchecked), so that the box never suggests a meaningless number such as its minimum.
  double autoDisplay = 0;
};

class TuningField : public QWidget {
  Q_OBJECT

 public:
  explicit TuningField(TuningFieldSpec spec, QWidget* parent = nullptr);

  /// A double, or a null QVariant when the auto box is checked.
  QVariant value() const;
  /// Programmatic change (undo, session load): not reported as edited(), but valueChanged().
  void setValue(const QVariant& value);
  /// The user's reset: reported as an edit.
  void resetToDefault();
  /// What "auto" will use here (PH bins: ⌈√n⌉ of the data loaded), shown in the greyed box
  /// instead of the spec's placeholder, and offered when auto is unticked.
  void setAutoValue(double value);
  /// Marks the field as blocking a mechanism (red label, the reason as tooltip); "" clears.
  void setProblem(const QString& text);
  QString problem() const { return problem_; }

  /// Marks the field (a warning sign before its label, the text as tooltip) before a run, for
  /// a value that does not fit the data or the family; an empty text clears the mark.
  void setWarning(const QString& text);
  QString warning() const { return warning_; }

  const TuningFieldSpec& spec() const { return spec_; }
  QDoubleSpinBox* spinBox() const { return spin_; }
  QSlider* slider() const { return slider_; }
  QCheckBox* autoBox() const { return auto_; }
  QToolButton* resetButton() const { return reset_; }

 signals:
  /// A user edit. dragId != 0 for the steps of one slider drag (they merge into one undo step).
  void edited(const QVariant& before, const QVariant& after, int dragId);
  /// Any change of value, user or programmatic.
  void valueChanged(const QVariant& value);

 private:
  int toSlider(double value) const;
  double fromSlider(int position) const;
  void showValue(const QVariant& value);
  void onSpinChanged();
  void onSliderMoved(int position);
  void onAutoToggled();
  void commit(int dragId);
  /// The undo-merge id of a run of wheel notches / arrow steps: one undo step per series, which
  /// ends when the field loses focus, a value is typed or set programmatically.
  int stepSeries();

  TuningFieldSpec spec_;
  QLabel* label_ = nullptr;
  QSlider* slider_ = nullptr;
  QDoubleSpinBox* spin_ = nullptr;
  QCheckBox* auto_ = nullptr;
  QToolButton* reset_ = nullptr;
  QVariant committed_;
  bool updating_ = false;
  int dragId_ = 0;
  bool spinTouched_ = false;  ///< the spin box has shown a real value
  int seriesId_ = 0;
  QString warning_;
  QString problem_;

  /// Label, colours and tooltips from the problem and the warning.
  void showMarks();
};

/// A document value as a field widget shows it: a double, or null for auto / unset / none.
QVariant widgetValueOf(const FieldValue& value);
/// A field widget's value as a typed document value (null: nullopt, auto).
FieldValue documentValueOf(const QVariant& value);

}  // namespace dpsynth::ui
