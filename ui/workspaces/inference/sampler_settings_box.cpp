#include "ui/workspaces/inference/sampler_settings_box.h"

#include <QFormLayout>
#include <QLineEdit>
#include <QSpinBox>
#include <algorithm>

#include "core/random/seed.h"

namespace dpsynth::ui {

SamplerSettingsBox::SamplerSettingsBox(QWidget* parent) : QGroupBox(tr("Sampler"), parent) {
  auto* form = new QFormLayout(this);
  iterations_ = new QSpinBox(this);
  iterations_->setRange(2, 10'000'000);
  iterations_->setValue(4000);
  iterations_->setToolTip(tr("Sweeps per chain, warm-up included"));
  form->addRow(tr("Iterations:"), iterations_);
  warmup_ = new QSpinBox(this);
  warmup_->setRange(0, 10'000'000);
  warmup_->setValue(1000);
  form->addRow(tr("Warm-up:"), warmup_);
  chains_ = new QSpinBox(this);
  chains_->setRange(1, 64);
  chains_->setValue(4);
  form->addRow(tr("Chains:"), chains_);
  seed_ = new QLineEdit(this);
  seed_->setPlaceholderText(tr("random"));
  seed_->setToolTip(tr("A number makes the run reproducible; empty draws a fresh seed"));
  form->addRow(tr("Seed:"), seed_);
}

std::optional<std::uint64_t> SamplerSettingsBox::seed() const {
  bool ok = false;
  const qulonglong v = seed_->text().trimmed().toULongLong(&ok);
  if (!ok) return std::nullopt;
  return static_cast<std::uint64_t>(v);
}

QString SamplerSettingsBox::problem() const {
  if (warmup_->value() >= iterations_->value())
    return tr("The warm-up must be below the iterations.");
  if (!seed_->text().trimmed().isEmpty() && !seed()) {
    return tr("The seed must be a whole number from 0 to 18446744073709551615 (or empty).");
  }
  return {};
}

core::infer::DaConfig SamplerSettingsBox::config() const {
  core::infer::DaConfig c;
  c.iterations = iterations_->value();
  c.warmup = warmup_->value();
  c.chains = chains_->value();
  c.threads = 0;
  const auto s = seed();
  c.seed = s ? core::random::Seed(*s) : core::random::osSeed();
  c.progressEvery = std::max(1, c.iterations / 200);
  return c;
}

}  // namespace dpsynth::ui
