#include "ui/panels/sampler_panel.h"

#include <QFormLayout>
#include <QLineEdit>
#include <QRegularExpressionValidator>
#include <limits>

#include "ui/widgets/tuning_field.h"

namespace dpsynth::ui {

SamplerPanel::SamplerPanel(QWidget* parent) : QWidget(parent) {
  const core::mcmc::NutsConfig defaults;
  auto* form = new QFormLayout(this);
  form->setContentsMargins(0, 0, 0, 0);

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

  seed_ = new QLineEdit(QString::number(defaults.seed.lo), this);
  seed_->setObjectName(QStringLiteral("seed"));
  seed_->setValidator(
      new QRegularExpressionValidator(QRegularExpression(QStringLiteral("[0-9]{1,20}")), seed_));
  seed_->setToolTip(
      tr("Seeds the sampler (stream per chain) and the synthesis; the same seed "
         "gives the same draws on every machine."));
  committedSeed_ = defaults.seed.lo;
  form->addRow(tr("seed"), seed_);
  connect(seed_, &QLineEdit::editingFinished, this, [this] { onSeedEdited(); });
}

void SamplerPanel::onSeedEdited() {
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
  seed_->setText(QString::number(nuts.seed.lo));
  silent_ = false;
  emit changed();
}

QVariant SamplerPanel::settingValue(const QString& key) const {
  if (key == QLatin1String("seed")) return QVariant::fromValue(committedSeed_);
  if (auto* f = fields_.value(key)) return f->value();
  return {};
}

void SamplerPanel::setSettingValue(const QString& key, const QVariant& value) {
  if (key == QLatin1String("seed")) {
    committedSeed_ = value.toULongLong();
    seed_->setText(QString::number(committedSeed_));
    emit changed();
  } else if (auto* f = fields_.value(key)) {
    f->setValue(value);
  }
}

}  // namespace dpsynth::ui
