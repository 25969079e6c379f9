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

SamplerPanel::SamplerPanel(QWidget* parent) : QWidget(parent) {
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
    if (silent_) return;
    const int now = neighbours_->currentData().toInt();
    const int before = now == int(privacy::Neighbours::replaceOne)
                           ? int(privacy::Neighbours::addRemove)
                           : int(privacy::Neighbours::replaceOne);
    emit edited({this, QStringLiteral("neighbours"), before, now, 0});
    emit changed();
  });

  const auto add = [&](TuningFieldSpec spec) {
    spec.slider = false;
    auto* field = new TuningField(spec, this);
    fields_.insert(spec.key, field);
    form->addRow(field);
    const QString key = spec.key;
    connect(field, &TuningField::edited, this,
            [this, key](const QVariant& before, const QVariant& after, int dragId) {
              emit edited({this, key, before, after, dragId});
            });
    connect(field, &TuningField::valueChanged, this, [this] {
      if (!silent_) emit changed();
    });
  };
  add({"chains", tr("chains"), tr("Independent NUTS chains (run in parallel threads)."), 1, 64, 1,
       64, 0, 1, double(defaults.chains)});
  add({"warmup", tr("warm-up"),
       tr("Warm-up iterations per chain (step size and mass matrix adaptation; discarded)."), 0,
       1e6, 0, 1e6, 0, 100, double(defaults.warmup)});
  add({"draws", tr("draws"), tr("Kept draws per chain after warm-up."), 1, 1e7, 1, 1e7, 0, 100,
       double(defaults.draws)});
  add({"threads", tr("threads"),
       tr("Worker threads for the chains; auto = min(chains, cores). Draws do not depend on it."),
       1, 256, 1, 256, 0, 1, QVariant(), tr("auto"), false, 2});
  add({"syntheticDatasets", tr("datasets m"),
       tr("Synthetic datasets to export. Releasing m datasets spends m·ε under basic "
          "composition."),
       1, 1000, 1, 1000, 0, 1, 1.0});
  // SPEC §0 "The size of the data": under add-remove (or with rows dropped for missing values)
  // the number of records is confidential.
  add({"declaredRows", tr("rows (public)"),
       tr("<p>Synthetic records per dataset, <b>declared public</b>: choose the number without "
          "looking at the data. It replaces the number of records everywhere a release "
          "publishes it, and costs no ε.</p>"
          "<p><b>not declared</b> (default): under replace-one the number of records is "
          "public and used as it is; under add-remove, or when rows with missing values are "
          "dropped, the count is confidential and a noisy count at ε<sub>n</sub> is used "
          "instead.</p>"),
       1, double(privacy::kMaxDeclaredRows), 1, double(privacy::kMaxDeclaredRows), 0, 1,
       QVariant(), tr("not declared"), false, 1000});
  add({"sizeEpsilon", tr("size ε\u2099"),
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
  committedSeed_ = defaults.seed.lo;
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
    showReproducible();
    if (silent_) return;
    emit edited({this, QStringLiteral("reproducible"), !on, on, 0});
    emit changed();
  });
  showReproducible();

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
    if (silent_) return;
    emit edited({this, QStringLiteral("tunedOnConfidential"), !on, on, 0});
    emit changed();
  });
}

bool SamplerPanel::tunedOnConfidential() const { return tunedOnConfidential_->isChecked(); }

void SamplerPanel::setTunedOnConfidential(bool tuned) {
  silent_ = true;
  tunedOnConfidential_->setChecked(tuned);
  silent_ = false;
  emit changed();
}

void SamplerPanel::showReproducible() {
  const bool on = reproducible_->isChecked();
  seed_->setEnabled(on);
  // A release's seed is never shown: the field shows the study seed, or says it is unused.
  seed_->setPlaceholderText(on ? QString() : tr("secret"));
  seed_->setText(on ? QString::number(committedSeed_) : QString());
  seed_->setToolTip(
      on ? tr("Seeds the sampler (stream per chain), the synthesis, the row order and the "
              "histogram noise; the same seed gives the same output on every machine.")
         : tr("Unused in a release: the seed comes from the operating system and is never "
              "shown or saved. Turn on 'reproducible (not for release)' to set it."));
}

bool SamplerPanel::reproducible() const { return reproducible_->isChecked(); }

privacy::Neighbours SamplerPanel::neighbours() const {
  return static_cast<privacy::Neighbours>(neighbours_->currentData().toInt());
}

void SamplerPanel::setRelease(bool reproducible, privacy::Neighbours neighbours) {
  silent_ = true;
  reproducible_->setChecked(reproducible);
  neighbours_->setCurrentIndex(neighbours_->findData(int(neighbours)));
  silent_ = false;
  showReproducible();
  emit changed();
}

void SamplerPanel::onSeedEdited() {
  if (!reproducible_->isChecked()) {  // a release has no seed to edit or show
    showReproducible();
    return;
  }
  bool ok = false;
  const quint64 seed = seed_->text().toULongLong(&ok);
  if (!ok) {  // more than 2^64 - 1: put the last good value back
    seed_->setText(QString::number(committedSeed_));
    return;
  }
  if (seed == committedSeed_) return;
  const quint64 before = committedSeed_;
  committedSeed_ = seed;
  emit edited(
      {this, QStringLiteral("seed"), QVariant::fromValue(before), QVariant::fromValue(seed), 0});
  emit changed();
}

core::mcmc::NutsConfig SamplerPanel::nuts() const {
  core::mcmc::NutsConfig nuts;
  nuts.chains = fields_["chains"]->value().toInt();
  nuts.warmup = fields_["warmup"]->value().toInt();
  nuts.draws = fields_["draws"]->value().toInt();
  const QVariant threads = fields_["threads"]->value();
  nuts.threads = threads.isNull() ? 0 : threads.toInt();
  nuts.seed = committedSeed_;
  nuts.metric = metric_;
  return nuts;
}

int SamplerPanel::syntheticDatasets() const {
  return fields_["syntheticDatasets"]->value().toInt();
}

void SamplerPanel::setNuts(const core::mcmc::NutsConfig& nuts, int syntheticDatasets) {
  silent_ = true;
  fields_["chains"]->setValue(double(nuts.chains));
  fields_["warmup"]->setValue(double(nuts.warmup));
  fields_["draws"]->setValue(double(nuts.draws));
  fields_["threads"]->setValue(nuts.threads > 0 ? QVariant(double(nuts.threads)) : QVariant());
  fields_["syntheticDatasets"]->setValue(double(syntheticDatasets));
  committedSeed_ = nuts.seed.lo;
  metric_ = nuts.metric;
  silent_ = false;
  showReproducible();
  emit changed();
}

privacy::SizeSettings SamplerPanel::size() const {
  privacy::SizeSettings size;
  const QVariant rows = fields_["declaredRows"]->value();
  if (!rows.isNull()) size.declaredRows = static_cast<std::size_t>(rows.toDouble());
  size.epsilon = fields_["sizeEpsilon"]->value().toDouble();
  return size;
}

void SamplerPanel::setSize(const privacy::SizeSettings& size) {
  silent_ = true;
  fields_["declaredRows"]->setValue(size.declaredRows ? QVariant(double(*size.declaredRows))
                                                      : QVariant());
  fields_["sizeEpsilon"]->setValue(size.epsilon);
  silent_ = false;
  emit changed();
}

QVariant SamplerPanel::settingValue(const QString& key) const {
  if (key == QLatin1String("seed")) return QVariant::fromValue(committedSeed_);
  if (key == QLatin1String("reproducible")) return reproducible_->isChecked();
  if (key == QLatin1String("neighbours")) return neighbours_->currentData().toInt();
  if (key == QLatin1String("tunedOnConfidential")) return tunedOnConfidential_->isChecked();
  if (auto* f = fields_.value(key)) return f->value();
  return {};
}

void SamplerPanel::setSettingValue(const QString& key, const QVariant& value) {
  if (key == QLatin1String("seed")) {
    committedSeed_ = value.toULongLong();
    showReproducible();
    emit changed();
  } else if (key == QLatin1String("reproducible") || key == QLatin1String("neighbours")) {
    silent_ = true;
    if (key == QLatin1String("reproducible")) {
      reproducible_->setChecked(value.toBool());
    } else {
      neighbours_->setCurrentIndex(neighbours_->findData(value.toInt()));
    }
    silent_ = false;
    showReproducible();
    emit changed();
  } else if (key == QLatin1String("tunedOnConfidential")) {
    setTunedOnConfidential(value.toBool());
  } else if (auto* f = fields_.value(key)) {
    f->setValue(value);
  }
}

}  // namespace dpsynth::ui
