#include "ui/panels/sampler_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QRegularExpressionValidator>
#include <limits>

#include "ui/widgets/tuning_field.h"

namespace dpsynth::ui {

namespace privacy = core::privacy;

SamplerPanel::SamplerPanel(StudioDocument* document, QWidget* parent)
    : QWidget(parent), document_(document) {
  const core::mcmc::NutsConfig defaults;
  auto* form = new QFormLayout(this);
  form->setContentsMargins(0, 0, 0, 0);

  neighbours_ = new QComboBox(this);
  neighbours_->setObjectName(QStringLiteral("neighboursBox"));
  neighbours_->addItem(tr("replace-one"), int(privacy::Neighbours::replaceOne));
  neighbours_->addItem(tr("add-remove"), int(privacy::Neighbours::addRemove));
  neighbours_->setToolTip(
      tr("<p>Which two databases the guarantee treats as neighbours.</p>"
         "<p><b>replace-one</b> (default, bounded DP): the number of records is public and one "
         "record's values change. Censoring clamps each record's log-likelihood to [L, U] with "
         "U − L ≤ ε/2: [−ε/2, 0] for count families, [−ε/4, ε/4] for beta and normal. The "
         "perturbed histogram's counts have sensitivity 2.</p>"
         "<p><b>add-remove</b> (unbounded DP): one record is added or removed. Censoring needs "
         "only max(|L|, |U|) ≤ ε/2: [−ε/2, 0] for count families, [−ε/2, ε/2] for beta and "
         "normal. The histogram's counts have sensitivity 1 (half the noise).</p>"
         "<p>The relation is stated in every sidecar and release note.</p>"));
  form->addRow(tr("neighbours"), neighbours_);
  connect(neighbours_, &QComboBox::currentIndexChanged, this, [this] {
    if (rendering_) return;
    document_->edit(Field::neighbours,
                    static_cast<privacy::Neighbours>(neighbours_->currentData().toInt()));
  });

  const auto add = [&](Field documentField, TuningFieldSpec spec) {
    spec.slider = false;
    auto* field = new TuningField(spec, this);
    fields_.insert(spec.key, field);
    keyFields_.insert(spec.key, documentField);
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
  };
  add(Field::chains,
      {"chains", tr("chains"), tr("Independent NUTS chains (run in parallel threads)."), 1, 64, 1,
       64, 0, 1, double(defaults.chains)});
  add(Field::warmup,
      {"warmup", tr("warm-up"),
       tr("Warm-up iterations per chain (step size and mass matrix adaptation; discarded)."), 0,
       1e6, 0, 1e6, 0, 100, double(defaults.warmup)});
  add(Field::draws, {"draws", tr("draws"), tr("Kept draws per chain after warm-up."), 1, 1e7, 1,
                     1e7, 0, 100, double(defaults.draws)});
  add(Field::threads,
      {"threads", tr("threads"),
       tr("Worker threads for the chains; auto = min(chains, cores). Draws do not depend on it."),
       1, 256, 1, 256, 0, 1, QVariant(), tr("auto"), false, 2});
  add(Field::syntheticDatasets,
      {"syntheticDatasets", tr("datasets m"),
       tr("Synthetic datasets to export. Releasing m datasets spends m·ε under basic "
          "composition."),
       1, 1000, 1, 1000, 0, 1, 1.0});
  // SPEC §0 "The size of the data": under add-remove (or with rows dropped for missing values)
  // the number of records is confidential.
  add(Field::declaredRows,
      {"declaredRows", tr("rows (public)"),
       tr("<p>Synthetic records per dataset, <b>declared public</b>: choose the number without "
          "looking at the data. It replaces the number of records everywhere a release "
          "publishes it, and costs no ε.</p>"
          "<p><b>not declared</b> (default): under replace-one the number of records is "
          "public and used as it is; under add-remove, or when rows with missing values are "
          "dropped, the count is confidential and a noisy count at ε<sub>n</sub> is used "
          "instead.</p>"),
       1, double(privacy::kMaxDeclaredRows), 1, double(privacy::kMaxDeclaredRows), 0, 1, QVariant(),
       tr("not declared"), false, 1000});
  add(Field::sizeEpsilon,
      {"sizeEpsilon", tr("size ε\u2099"),
       tr("<p>ε<sub>n</sub> of the noisy number of records, used when the number of records is "
          "confidential (add-remove, or rows dropped for missing values) and no public size is "
          "declared: the count plus exact two-sided geometric noise, P(k) ∝ exp(−ε<sub>n</sub>"
          "|k|). It is added to every published ε. Default 0.1 (the count then moves by about "
          "14 records).</p>"),
       0.001, 1e6, 0.001, 10, 3, 0.05, privacy::kDefaultSizeEpsilon});

  seed_ = new QLineEdit(QString::number(defaults.seed.lo), this);
  seed_->setObjectName(QStringLiteral("seed"));
  seed_->setValidator(
      new QRegularExpressionValidator(QRegularExpression(QStringLiteral("[0-9]{1,20}")), seed_));
  seed_->setToolTip(
      tr("Seeds the sampler (stream per chain) and the synthesis; the same seed "
         "gives the same draws on every machine."));
  reproducible_ = new QCheckBox(tr("reproducible (not for release)"), this);
  reproducible_->setObjectName(QStringLiteral("reproducibleBox"));
  reproducible_->setChecked(false);
  reproducible_->setToolTip(
      tr("<p><b>Off</b> (a release): the sampler, the synthesis, the row order and the "
         "histogram noise take a 128-bit seed from the operating system. It is kept in memory "
         "only, never shown and never saved, so nobody can replay the release.</p>"
         "<p><b>On</b>: the seed field drives everything, runs repeat bit for bit, and the "
         "badge, the results and every exported file say NOT FOR RELEASE. For studies and "
         "tests only.</p>"));
  auto* seedRow = new QHBoxLayout;
  seedRow->setContentsMargins(0, 0, 0, 0);
  seedRow->addWidget(seed_, 1);
  seedRow->addWidget(reproducible_);
  form->addRow(tr("seed"), seedRow);
  connect(seed_, &QLineEdit::editingFinished, this, [this] { onSeedEdited(); });
  connect(reproducible_, &QCheckBox::toggled, this, [this](bool on) {
    if (!rendering_) document_->edit(Field::reproducible, on);
  });

  tunedOnConfidential_ = new QCheckBox(tr("on the confidential data"), this);
  tunedOnConfidential_->setObjectName(QStringLiteral("tunedOnConfidentialBox"));
  // Shown like a warning when on; the guarantee badge then says "not covered by ε".
  tunedOnConfidential_->setStyleSheet(QStringLiteral("QCheckBox:checked { color: #8a1c1c; }"));
  tunedOnConfidential_->setToolTip(
      tr("<p>On when the mechanism, ε and tuning were chosen on the confidential data "
         "themselves, e.g. a point of a Frontier run on a bootstrap of them. That choice "
         "changes with one record and ε does not cover it: the release note says so, and the "
         "report records \"tuning_source\".</p>"
         "<p>Loading a Frontier point sets it from the Frontier's source (public reference "
         "data or a generator: off); new data turns it off.</p>"));
  form->addRow(tr("tuned"), tunedOnConfidential_);
  connect(tunedOnConfidential_, &QCheckBox::toggled, this, [this](bool on) {
    if (!rendering_) document_->edit(Field::tunedOnConfidential, on);
  });
  connect(document_, &StudioDocument::changed, this, [this](StudioDocument::Parts parts) {
    if (parts & (StudioDocument::kSampler | StudioDocument::kData)) render();
  });
  render();
}

void SamplerPanel::render() {
  rendering_ = true;
  const StudioSettings& settings = document_->settings();
  for (auto it = fields_.begin(); it != fields_.end(); ++it) {
    const QVariant shown = widgetValueOf(document_->value(keyFields_.value(it.key())));
    if (it.value()->value() != shown) it.value()->setValue(shown);
  }
  // threads: 0 is auto; the other integer fields are never 0.
  neighbours_->setCurrentIndex(neighbours_->findData(int(settings.run.neighbours)));
  reproducible_->setChecked(settings.reproducible);
  tunedOnConfidential_->setChecked(settings.run.tunedOnConfidential);
  const bool on = settings.reproducible;
  seed_->setEnabled(on);
  // A release's seed is never shown: the field shows the study seed, or says it is unused.
  seed_->setPlaceholderText(on ? QString() : tr("secret"));
  seed_->setText(on ? QString::number(settings.run.nuts.seed.lo) : QString());
  seed_->setToolTip(
      on ? tr("Seeds the sampler (stream per chain), the synthesis, the row order and the "
              "histogram noise; the same seed gives the same output on every machine.")
         : tr("Unused in a release: the seed comes from the operating system and is never "
              "shown or saved. Turn on 'reproducible (not for release)' to set it."));
  rendering_ = false;
}

void SamplerPanel::onSeedEdited() {
  const StudioSettings& settings = document_->settings();
  if (!settings.reproducible) {  // a release has no seed to edit or show
    render();
    return;
  }
  bool ok = false;
  const quint64 seed = seed_->text().toULongLong(&ok);
  if (!ok) {  // more than 2^64 - 1: put the last good value back
    render();
    return;
  }
  document_->edit(Field::seed, std::uint64_t(seed));
}

}  // namespace dpsynth::ui
