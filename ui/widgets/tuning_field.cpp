#include "ui/widgets/tuning_field.h"

#include <QApplication>
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPalette>
#include <QSignalBlocker>
#include <QSlider>
#include <QStyle>
#include <QToolButton>
#include <cmath>

#include "ui/widgets/step_spin_box.h"

namespace dpsynth::ui {
namespace {

constexpr int kSliderSteps = 1000;
/// Drag ids are unique over all fields so that drags of different fields never merge.
int nextDragId() {
  static int id = 0;
  return ++id;
}

}  // namespace

TuningField::TuningField(TuningFieldSpec spec, QWidget* parent)
    : QWidget(parent), spec_(std::move(spec)) {
  setObjectName(spec_.key);
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(4);

  label_ = new QLabel(spec_.label, this);
  label_->setMinimumWidth(64);
  layout->addWidget(label_);

  if (spec_.slider) {
    slider_ = new QSlider(Qt::Horizontal, this);
    slider_->setRange(0, kSliderSteps);
    slider_->setMinimumWidth(60);
    layout->addWidget(slider_, 1);
  }
  spin_ = new StepSpinBox(this);
  spin_->setRange(spec_.minimum, spec_.maximum);
  spin_->setDecimals(spec_.decimals);
  spin_->setSingleStep(spec_.step);
  spin_->setKeyboardTracking(false);  // one change per committed number, not per keystroke
  spin_->setMinimumWidth(72);
  layout->addWidget(spin_, spec_.slider ? 0 : 1);

  if (!spec_.autoText.isEmpty()) {
    auto_ = new QCheckBox(spec_.autoText, this);
    layout->addWidget(auto_);
  }
  reset_ = new QToolButton(this);
  reset_->setText(QStringLiteral("↺"));
  reset_->setToolTip(tr("Reset %1 to its default (%2)")
                         .arg(spec_.label, spec_.defaultValue.isNull()
                                               ? spec_.autoText
                                               : QString::number(spec_.defaultValue.toDouble())));
  reset_->setAutoRaise(true);
  layout->addWidget(reset_);

  for (QWidget* w : std::initializer_list<QWidget*>{label_, slider_, spin_, auto_}) {
    if (w) w->setToolTip(spec_.toolTip);
  }

  committed_ = spec_.defaultValue;
  showValue(committed_);

  connect(spin_, &QDoubleSpinBox::valueChanged, this, [this] { onSpinChanged(); });
  if (slider_) {
    connect(slider_, &QSlider::valueChanged, this, [this](int p) { onSliderMoved(p); });
    connect(slider_, &QSlider::sliderPressed, this, [this] { dragId_ = nextDragId(); });
  }
  if (auto_) connect(auto_, &QCheckBox::toggled, this, [this] { onAutoToggled(); });
  connect(reset_, &QToolButton::clicked, this, [this] { resetToDefault(); });
  // A series of wheel notches or arrow steps ends when the value is typed or the field is left.
  connect(spin_, &QDoubleSpinBox::editingFinished, this, [this] { seriesId_ = 0; });
  connect(qApp, &QApplication::focusChanged, this, [this](QWidget* old, QWidget*) {
    if (old && (old == spin_ || old == slider_ || spin_->isAncestorOf(old))) seriesId_ = 0;
  });
}

int TuningField::stepSeries() {
  if (seriesId_ == 0) seriesId_ = nextDragId();
  return seriesId_;
}

void TuningField::setProblem(const QString& text) {
  if (text == problem_) return;
  problem_ = text;
  showMarks();
}

void TuningField::setWarning(const QString& text) {
  if (text == warning_) return;
  warning_ = text;
  showMarks();
}

void TuningField::showMarks() {
  // A problem (its mechanism will not run) outranks a warning (the value does not fit the
  // data). The field is tinted through its palette: a style sheet would replace the style's
  // spin buttons.
  QString tip = spec_.toolTip.toHtmlEscaped();
  if (!warning_.isEmpty())
    tip = QStringLiteral("<p><b>%1</b></p>").arg(warning_.toHtmlEscaped()) + tip;
  if (!problem_.isEmpty())
    tip = QStringLiteral("<p><b>%1</b></p>").arg(problem_.toHtmlEscaped()) + tip;
  for (QWidget* w : std::initializer_list<QWidget*>{label_, slider_, spin_, auto_}) {
    if (w) w->setToolTip(problem_.isEmpty() && warning_.isEmpty() ? spec_.toolTip : tip);
  }
  if (problem_.isEmpty() && warning_.isEmpty()) {
    label_->setText(spec_.label);
    label_->setStyleSheet({});
    spin_->setPalette(QPalette());  // inherited again
    return;
  }
  const bool problem = !problem_.isEmpty();
  label_->setText(QStringLiteral("⚠ ") + spec_.label);
  label_->setStyleSheet(problem ? QStringLiteral("color: #b01c1c; font-weight: bold;")
                                : QStringLiteral("color: #b35c00; font-weight: bold;"));
  QPalette tinted = spin_->palette();
  tinted.setColor(QPalette::Base, problem ? QColor(0xff, 0xd6, 0xd6) : QColor(0xff, 0xe8, 0xc0));
  spin_->setPalette(tinted);
}

QVariant TuningField::value() const {
  if (auto_ && auto_->isChecked()) return {};
  return spin_->value();
}

int TuningField::toSlider(double value) const {
  const double span = spec_.sliderMaximum - spec_.sliderMinimum;
  if (span <= 0) return 0;
  const double t = std::clamp((value - spec_.sliderMinimum) / span, 0.0, 1.0);
  return static_cast<int>(std::lround(t * kSliderSteps));
}

double TuningField::fromSlider(int position) const {
  const double v =
      spec_.sliderMinimum + (spec_.sliderMaximum - spec_.sliderMinimum) * position / kSliderSteps;
  const double scale = std::pow(10.0, spec_.decimals);
  return std::round(v * scale) / scale;
}

void TuningField::showValue(const QVariant& value) {
  updating_ = true;
  const bool isAuto = value.isNull() && auto_;
  if (auto_) {
    const QSignalBlocker block(auto_);
    auto_->setChecked(isAuto);
  }
  {
    const QSignalBlocker block(spin_);
    if (!isAuto) {
      spin_->setValue(value.toDouble());
    } else if (!spinTouched_) {
      spin_->setValue(spec_.autoDisplay);
    }
    if (slider_) {
      const QSignalBlocker blockSlider(slider_);
      slider_->setValue(toSlider(spin_->value()));
    }
  }
  spin_->setEnabled(!isAuto);
  if (slider_) slider_->setEnabled(!isAuto);
  if (!isAuto) spinTouched_ = true;
  updating_ = false;
}

void TuningField::setAutoValue(double value) {
  spec_.autoDisplay = value;
  if (auto_ && auto_->isChecked()) {
    const QSignalBlocker block(spin_);
    spin_->setValue(value);
    if (slider_) {
      const QSignalBlocker blockSlider(slider_);
      slider_->setValue(toSlider(value));
    }
  }
}

void TuningField::setValue(const QVariant& value) {
  seriesId_ = 0;  // undo/redo or a session: the next step starts a new undo step
  showValue(value);
  committed_ = this->value();
  emit valueChanged(committed_);
}

void TuningField::resetToDefault() {
  showValue(spec_.defaultValue);
  commit(0);
}

void TuningField::onSpinChanged() {
  if (updating_) return;
  if (slider_) {
    const QSignalBlocker block(slider_);
    slider_->setValue(toSlider(spin_->value()));
  }
  // Wheel notches and arrow steps in a row are one edit; a typed value is one edit.
  if (static_cast<StepSpinBox*>(spin_)->isStepping()) {
    commit(stepSeries());
  } else {
    seriesId_ = 0;
    commit(0);
  }
}

void TuningField::onSliderMoved(int position) {
  if (updating_) return;
  {
    const QSignalBlocker block(spin_);
    spin_->setValue(fromSlider(position));
  }
  // A drag is one edit; so are the wheel notches and arrow keys of one visit to the slider.
  commit(slider_->isSliderDown() ? dragId_ : stepSeries());
}

void TuningField::onAutoToggled() {
  if (updating_) return;
  const bool isAuto = auto_->isChecked();
  spin_->setEnabled(!isAuto);
  if (slider_) slider_->setEnabled(!isAuto);
  commit(0);
}

void TuningField::commit(int dragId) {
  const QVariant now = value();
  if (now == committed_) return;
  const QVariant before = committed_;
  committed_ = now;
  emit edited(before, now, dragId);
  emit valueChanged(now);
}

QVariant widgetValueOf(const FieldValue& value) {
  if (const auto* d = std::get_if<double>(&value)) return *d;
  if (const auto* o = std::get_if<std::optional<double>>(&value))
    return *o ? QVariant(**o) : QVariant();
  if (const auto* i = std::get_if<int>(&value)) return *i > 0 ? QVariant(double(*i)) : QVariant();
  if (const auto* b = std::get_if<bool>(&value)) return *b;
  return {};
}

FieldValue documentValueOf(const QVariant& value) {
  if (value.isNull() || !value.isValid()) return std::optional<double>();
  return std::optional<double>(value.toDouble());
}

}  // namespace dpsynth::ui
