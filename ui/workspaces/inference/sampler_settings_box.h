#pragma once
/// Sampler settings of a release analysis: sweeps per chain (warm-up included), warm-up,
/// chains and an optional seed (empty: the operating system's randomness). Defaults are short
/// enough to run interactively on a small release and long enough for R-hat and ESS.
#include <QGroupBox>
#include <cstdint>
#include <optional>

#include "core/infer/da_sampler.h"

class QLineEdit;
class QSpinBox;

namespace dpsynth::ui {

class SamplerSettingsBox : public QGroupBox {
  Q_OBJECT

 public:
  explicit SamplerSettingsBox(QWidget* parent = nullptr);

  /// The settings as a DaConfig (seed: the one typed, or fresh OS randomness).
  core::infer::DaConfig config() const;
  /// The seed typed, if any.
  std::optional<std::uint64_t> seed() const;
  /// A message when the settings cannot run (warm-up not below iterations, a bad seed).
  QString problem() const;

  QSpinBox* iterationsBox() const { return iterations_; }
  QSpinBox* warmupBox() const { return warmup_; }
  QSpinBox* chainsBox() const { return chains_; }
  QLineEdit* seedEdit() const { return seed_; }

 private:
  QSpinBox* iterations_ = nullptr;
  QSpinBox* warmup_ = nullptr;
  QSpinBox* chains_ = nullptr;
  QLineEdit* seed_ = nullptr;
};

}  // namespace dpsynth::ui
