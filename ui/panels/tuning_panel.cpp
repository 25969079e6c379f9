#include "ui/panels/tuning_panel.h"

#include <QCheckBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>
#include <cmath>

#include "ui/widgets/load_indicator.h"
#include "ui/widgets/tuning_field.h"

namespace dpsynth::ui {
namespace {

QVariant optionalToVariant(const std::optional<double>& v) { return v ? QVariant(*v) : QVariant(); }

}  // namespace

TuningPanel::TuningPanel(StudioDocument* document, QWidget* parent)
    : QWidget(parent), document_(document) {
  const auto defaults = defaultTuning();
  auto* form = new QFormLayout(this);
  form->setContentsMargins(0, 0, 0, 0);
  form->setRowWrapPolicy(QFormLayout::DontWrapRows);

  addField(form, Field::c,
           {"c", tr("c"),
            tr("Weight scale of LW and CW: α_i = clamp(c·(1 − f̃_i) + g, 0, 1), with f̃_i the "
               "record's normalised |log-likelihood| (LW) or isolation risk (CW)."),
            0, 10, 0, 2, 2, 0.01, defaults.c});
  addField(form, Field::g,
           {"g", tr("g"), tr("Weight shift of LW and CW: α_i = clamp(c·(1 − f̃_i) + g, 0, 1)."), -1,
            1, -0.5, 0.5, 2, 0.01, defaults.g});
  addField(form, Field::k,
           {"k", tr("k"),
            tr("Re-weighting of lw-final / cw-final: α^w_i = clamp(k·α_i·Δ_{α,x}/Δ_i, 0, 1). "
               "auto searches k so that Δ stays within 1% of the LW/CW bound without "
               "exceeding it."),
            0.001, 1, 0.5, 1, 3, 0.005, optionalToVariant(defaults.k), tr("auto"), true, 0.95});
  addField(form, Field::epsilon,
           {"epsilon", tr("ε"),
            tr("Target ε. Strict DP for censor-uw, ph, and censor-w with weights from a "
               "reference dataset: each contribution is clamped to an interval [L, U] set by "
               "ε, the family and the neighbour relation; PH noise has scale "
               "(sensitivity)/ε. Weighted-e drops records with bound > ε/2; sw uses "
               "a = min(1, (ε/2)/Δ_x), or matches LW's Δ when none."),
            0.01, 1000, 0.1, 20, 2, 0.1, optionalToVariant(defaults.epsilon), tr("none")});
  addField(form, Field::radius,
           {"radius", tr("CW radius"),
            tr("Isolation risk of CW: IR_i = #{j : |y_j − y_i| > r_i}/n with r_i = r·|y_i| "
               "(relative) or r (absolute)."),
            0, 1e9, 0, 1, 3, 0.01, defaults.radius});
  addCheck(form, Field::radiusRelative, "radiusRelative", tr("relative radius (r·|y_i|)"),
           defaults.radiusRelative,
           tr("Checked: the CW ball around y_i has radius r·|y_i|; unchecked: radius r."));
  addField(form, Field::downscale,
           {"downscale", tr("downscale"),
            tr("Weighted-e and censor-w multiply the LW weights by d ∈ (0, 1]; auto uses "
               "d = min(1, (ε/2)/Δ_{α,x}) from the LW fit (the reference's LW fit when "
               "weights come from a reference dataset)."),
            0.001, 1, 0.05, 1, 3, 0.01, optionalToVariant(defaults.downscale), tr("auto")});
  addReferenceRow(form);
  addField(form, Field::lower,
           {"lower", tr("PH lower"),
            tr("Public lower bound a of the perturbed histogram. It must come from public "
               "knowledge, never from the confidential data (beta family: 0)."),
            -1e12, 1e12, 0, 1, 4, 1, QVariant(), tr("unset"), false});
  addField(form, Field::upper,
           {"upper", tr("PH upper"),
            tr("Public upper bound b of the perturbed histogram (beta family: 1)."), -1e12, 1e12, 0,
            1, 4, 1, QVariant(), tr("unset"), false, 1});
  addField(form, Field::bins,
           {"bins", tr("PH bins"),
            tr("Number of histogram bins m; auto = ⌈√n⌉. D_j = C_j + discrete Laplace "
               "noise of scale 2/ε."),
            1, 100000, 1, 200, 0, 1, QVariant(), tr("auto"), true, 20});
  connect(document_, &StudioDocument::changed, this, [this](StudioDocument::Parts parts) {
    if (parts & (StudioDocument::kTuning | StudioDocument::kReference | StudioDocument::kData |
                 StudioDocument::kChoice))
      render();
  });
  render();
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
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Reference dataset (public) for weight functions"), {},
        tr("Data files (*.csv *.tsv *.txt *.sav *.zsav *.por *.dta *.sas7bdat *.xpt);;"
           "CSV files (*.csv *.tsv *.txt);;"
           "SPSS, Stata and SAS files (*.sav *.zsav *.por *.dta *.sas7bdat *.xpt);;All files (*)"));
    if (!path.isEmpty()) emit referenceChosen(path);
  });
  connect(referenceClear_, &QPushButton::clicked, this, [this] { emit referenceCleared(); });
}

void TuningPanel::addField(QFormLayout* form, Field documentField, TuningFieldSpec spec) {
  auto* field = new TuningField(spec, this);
  const QString key = spec.key;
  fields_.insert(key, field);
  keyFields_.insert(key, documentField);
  form->addRow(field);
  connect(field, &TuningField::edited, this,
          [this, documentField](const QVariant&, const QVariant& after, int dragId) {
            if (!rendering_) document_->edit(documentField, documentValueOf(after), dragId);
          });
  // A value set on the field from outside (a script, a test) is an edit like a typed one;
  // after a user's edit the document already holds it, and the same value is no new step.
  connect(field, &TuningField::valueChanged, this, [this, documentField](const QVariant& v) {
    if (!rendering_) document_->edit(documentField, documentValueOf(v));
  });
}

void TuningPanel::addCheck(QFormLayout* form, Field documentField, const QString& key,
                           const QString& text, bool defaultValue, const QString& toolTip) {
  auto* box = new QCheckBox(text, this);
  box->setObjectName(key);
  box->setChecked(defaultValue);
  box->setToolTip(toolTip);
  checks_.insert(key, box);
  keyFields_.insert(key, documentField);
  form->addRow(box);
  connect(box, &QCheckBox::toggled, this, [this, documentField](bool on) {
    if (!rendering_) document_->edit(documentField, on);
  });
}

QStringList TuningPanel::keys() const {
  return {"c",         "g",     "k",     "epsilon", "radius", "radiusRelative",
          "downscale", "lower", "upper", "bins"};
}

TuningField* TuningPanel::field(Field documentField) const {
  for (auto it = keyFields_.begin(); it != keyFields_.end(); ++it)
    if (it.value() == documentField) return fields_.value(it.key());
  return nullptr;
}

void TuningPanel::render() {
  rendering_ = true;
  // Auto bins are ⌈√n⌉ of the data loaded: shown as such, not as a placeholder.
  if (const auto dataset = document_->dataset())
    fields_["bins"]->setAutoValue(std::ceil(std::sqrt(double(dataset->size()))));
  for (auto it = fields_.begin(); it != fields_.end(); ++it) {
    const QVariant shown = widgetValueOf(document_->value(keyFields_.value(it.key())));
    // Unchanged fields are left alone: setting them would end a series of wheel notches.
    if (it.value()->value() != shown) it.value()->setValue(shown);
  }
  for (auto it = checks_.begin(); it != checks_.end(); ++it)
    it.value()->setChecked(std::get<bool>(document_->value(keyFields_.value(it.key()))));
  const QString path = document_->reference().path();
  referenceClear_->setEnabled(!path.isEmpty());
  referenceLabel_->setText(
      path.isEmpty()
          ? tr("censor-w / weighted-e weights: from the confidential data (censor-w is aDP)")
          : tr("censor-w / weighted-e weights: from reference %1 (censor-w is strict DP)")
                .arg(QFileInfo(path).fileName()));
  rendering_ = false;
}

}  // namespace dpsynth::ui
