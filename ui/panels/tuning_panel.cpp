#include "ui/panels/tuning_panel.h"

#include <QCheckBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include "ui/studio_settings.h"
#include "ui/widgets/load_indicator.h"
#include "ui/widgets/tuning_field.h"

namespace dpsynth::ui {
namespace {

QVariant optionalToVariant(const std::optional<double>& v) { return v ? QVariant(*v) : QVariant(); }
std::optional<double> variantToOptional(const QVariant& v) {
  if (v.isNull() || !v.isValid()) return std::nullopt;
  return v.toDouble();
}

}  // namespace

TuningPanel::TuningPanel(QWidget* parent) : QWidget(parent) {
  const auto defaults = defaultTuning();
  auto* form = new QFormLayout(this);
  form->setContentsMargins(0, 0, 0, 0);
  form->setRowWrapPolicy(QFormLayout::DontWrapRows);

  addField(form, {"c", tr("c"),
                  tr("Weight scale of LW and CW: α_i = clamp(c·(1 − f̃_i) + g, 0, 1), with f̃_i the "
                     "record's normalised |log-likelihood| (LW) or isolation risk (CW)."),
                  0, 10, 0, 2, 2, 0.01, defaults.c});
  addField(form,
           {"g", tr("g"), tr("Weight shift of LW and CW: α_i = clamp(c·(1 − f̃_i) + g, 0, 1)."), -1,
            1, -0.5, 0.5, 2, 0.01, defaults.g});
  addField(form,
           {"k", tr("k"),
            tr("Re-weighting of lw-final / cw-final: α^w_i = clamp(k·α_i·Δ_{α,x}/Δ_i, 0, 1). "
               "auto searches k so that Δ stays within 1% of the LW/CW bound without "
               "exceeding it."),
            0.001, 1, 0.5, 1, 3, 0.005, optionalToVariant(defaults.k), tr("auto"), true, 0.95});
  addField(form, {"epsilon", tr("ε"),
                  tr("Target ε. Strict DP for censor-uw, ph, and censor-w with weights from a "
                     "reference dataset: each contribution is clamped to an interval [L, U] set by "
                     "ε, the family and the neighbour relation; PH noise has scale "
                     "(sensitivity)/ε. Weighted-e drops records with bound > ε/2; sw uses "
                     "a = min(1, (ε/2)/Δ_x), or matches LW's Δ when none."),
                  0.01, 1000, 0.1, 20, 2, 0.1, optionalToVariant(defaults.epsilon), tr("none")});
  addField(form, {"radius", tr("CW radius"),
                  tr("Isolation risk of CW: IR_i = #{j : |y_j − y_i| > r_i}/n with r_i = r·|y_i| "
                     "(relative) or r (absolute)."),
                  0, 1e9, 0, 1, 3, 0.01, defaults.radius});
  addCheck(form, "radiusRelative", tr("relative radius (r·|y_i|)"), defaults.radiusRelative,
           tr("Checked: the CW ball around y_i has radius r·|y_i|; unchecked: radius r."));
  addField(form, {"downscale", tr("downscale"),
                  tr("Weighted-e and censor-w multiply the LW weights by d ∈ (0, 1]; auto uses "
                     "d = min(1, (ε/2)/Δ_{α,x}) from the LW fit (the reference's LW fit when "
                     "weights come from a reference dataset)."),
                  0.001, 1, 0.05, 1, 3, 0.01, optionalToVariant(defaults.downscale), tr("auto")});
  addReferenceRow(form);
  addField(form, {"lower", tr("PH lower"),
                  tr("Public lower bound a of the perturbed histogram. It must come from public "
                     "knowledge, never from the confidential data (beta family: 0)."),
                  -1e12, 1e12, 0, 1, 4, 1, QVariant(), tr("unset"), false});
  addField(form, {"upper", tr("PH upper"),
                  tr("Public upper bound b of the perturbed histogram (beta family: 1)."), -1e12,
                  1e12, 0, 1, 4, 1, QVariant(), tr("unset"), false, 1});
  addField(form, {"bins", tr("PH bins"),
                  tr("Number of histogram bins m; auto = ⌈√n⌉. D_j = C_j + discrete Laplace "
                     "noise of scale 2/ε."),
                  1, 100000, 1, 200, 0, 1, QVariant(), tr("auto"), true, 20});
}

void TuningPanel::addReferenceRow(QFormLayout* form) {
  referenceLabel_ = new QLabel(this);
  referenceLabel_->setObjectName(QStringLiteral("referenceLabel"));
  referenceLabel_->setWordWrap(true);
  referenceChoose_ = new QPushButton(tr("Weights from a reference dataset…"), this);
  referenceChoose_->setObjectName(QStringLiteral("referenceChooseButton"));
  referenceClear_ = new QPushButton(tr("Clear"), this);
  referenceClear_->setObjectName(QStringLiteral("referenceClearButton"));
  const QString tip =
      tr("<p>censor-w and weighted-e: fit the unweighted model on a <b>public</b> reference "
         "dataset (public data, or an earlier period already released) with the same outcome, "
         "covariates and family, turn it into a weight function α(y, X), and apply it record by "
         "record to the confidential data. Downscale auto uses the reference too.</p>"
         "<p>Weights computed from the confidential data itself move with every record, so "
         "censor-w is then only asymptotic DP (aDP). With reference weights censor-w is strict "
         "DP; weighted-e stays aDP.</p>");
  referenceChoose_->setToolTip(tip);
  referenceLabel_->setToolTip(tip);
  referenceClear_->setToolTip(
      tr("Take the weights from the confidential data again (censor-w: "
         "aDP)."));
  auto* buttons = new QHBoxLayout;
  buttons->setContentsMargins(0, 0, 0, 0);
  buttons->addWidget(referenceChoose_, 1);
  buttons->addWidget(referenceClear_);
  auto* box = new QVBoxLayout;
  box->setContentsMargins(0, 4, 0, 4);
  box->addLayout(buttons);
  referenceIndicator_ = new LoadIndicator(this);
  referenceIndicator_->setObjectName(QStringLiteral("referenceLoadIndicator"));
  box->addWidget(referenceIndicator_);
  box->addWidget(referenceLabel_);
  form->addRow(box);
  connect(referenceChoose_, &QPushButton::clicked, this, [this] {
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Reference dataset (public) for weight functions"),
                                     {}, tr("Data files (*.csv *.tsv *.txt *.sav *.zsav *.por *.dta *.sas7bdat *.xpt);;"
         "CSV files (*.csv *.tsv *.txt);;"
         "SPSS, Stata and SAS files (*.sav *.zsav *.por *.dta *.sas7bdat *.xpt);;All files (*)"));
    if (!path.isEmpty()) emit referenceChosen(path);
  });
  connect(referenceClear_, &QPushButton::clicked, this, [this] { emit referenceCleared(); });
  showReferenceFile({});
}

void TuningPanel::showReferenceFile(const QString& path) {
  referenceClear_->setEnabled(!path.isEmpty());
  referenceLabel_->setText(
      path.isEmpty()
          ? tr("censor-w / weighted-e weights: from the confidential data (censor-w is aDP)")
          : tr("censor-w / weighted-e weights: from reference %1 (censor-w is strict DP)")
                .arg(QFileInfo(path).fileName()));
}

void TuningPanel::addField(QFormLayout* form, TuningFieldSpec spec) {
  auto* field = new TuningField(spec, this);
  const QString key = spec.key;
  fields_.insert(key, field);
  form->addRow(field);
  connect(field, &TuningField::edited, this,
          [this, key](const QVariant& before, const QVariant& after, int dragId) {
            emit edited({this, key, before, after, dragId});
          });
  connect(field, &TuningField::valueChanged, this, [this] {
    if (!silent_) emit changed();
  });
}

void TuningPanel::addCheck(QFormLayout* form, const QString& key, const QString& text,
                           bool defaultValue, const QString& toolTip) {
  auto* box = new QCheckBox(text, this);
  box->setObjectName(key);
  box->setChecked(defaultValue);
  box->setToolTip(toolTip);
  checks_.insert(key, box);
  form->addRow(box);
  connect(box, &QCheckBox::toggled, this, [this, key](bool on) {
    if (silent_) return;
    emit edited({this, key, !on, on, 0});
    emit changed();
  });
}

QStringList TuningPanel::keys() const {
  return {"c",         "g",     "k",     "epsilon", "radius", "radiusRelative",
          "downscale", "lower", "upper", "bins"};
}

QVariant TuningPanel::settingValue(const QString& key) const {
  if (auto* f = fields_.value(key)) return f->value();
  if (auto* b = checks_.value(key)) return b->isChecked();
  return {};
}

void TuningPanel::setSettingValue(const QString& key, const QVariant& value) {
  if (auto* f = fields_.value(key)) {
    f->setValue(value);  // emits changed() through valueChanged
  } else if (auto* b = checks_.value(key)) {
    silent_ = true;
    b->setChecked(value.toBool());
    silent_ = false;
    emit changed();
  }
}

core::pipeline::MechanismConfig TuningPanel::tuning() const {
  core::pipeline::MechanismConfig config;
  config.c = fields_["c"]->value().toDouble();
  config.g = fields_["g"]->value().toDouble();
  config.k = variantToOptional(fields_["k"]->value());
  config.epsilon = variantToOptional(fields_["epsilon"]->value());
  config.radius = fields_["radius"]->value().toDouble();
  config.radiusRelative = checks_["radiusRelative"]->isChecked();
  config.downscale = variantToOptional(fields_["downscale"]->value());
  config.lower = variantToOptional(fields_["lower"]->value());
  config.upper = variantToOptional(fields_["upper"]->value());
  const auto bins = variantToOptional(fields_["bins"]->value());
  config.bins = bins ? static_cast<int>(*bins) : 0;
  return config;
}

void TuningPanel::setTuning(const core::pipeline::MechanismConfig& config) {
  silent_ = true;
  fields_["c"]->setValue(config.c);
  fields_["g"]->setValue(config.g);
  fields_["k"]->setValue(optionalToVariant(config.k));
  fields_["epsilon"]->setValue(optionalToVariant(config.epsilon));
  fields_["radius"]->setValue(config.radius);
  checks_["radiusRelative"]->setChecked(config.radiusRelative);
  fields_["downscale"]->setValue(optionalToVariant(config.downscale));
  fields_["lower"]->setValue(optionalToVariant(config.lower));
  fields_["upper"]->setValue(optionalToVariant(config.upper));
  fields_["bins"]->setValue(config.bins > 0 ? QVariant(double(config.bins)) : QVariant());
  silent_ = false;
  emit changed();
}

}  // namespace dpsynth::ui
