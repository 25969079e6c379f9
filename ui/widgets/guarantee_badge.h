#pragma once
/// The privacy guarantee of the selected mechanism in one coloured line:
/// "ε = 5.00, strict DP" (green), "ε_x = 5.24, asymptotic DP" (amber), "no guarantee" (red).
#include <QLabel>
#include <optional>

#include "core/pipeline/mechanism.h"

namespace dpsynth::ui {

class GuaranteeBadge : public QLabel {
  Q_OBJECT

 public:
  explicit GuaranteeBadge(QWidget* parent = nullptr);

  /// epsilon: the achieved ε (ε_x for aDP) when a result exists, else nullopt (the text then
  /// shows the ε asked for, or that ε_x is known after the run).
  /// datasets: the m synthetic datasets an export would release; m > 1 adds the composition
  /// cost m·ε to the text.
  void setGuarantee(std::optional<core::pipeline::Mechanism> mechanism,
                    const core::pipeline::MechanismConfig& tuning, std::optional<double> epsilon,
                    int datasets = 1);
};

/// The badge text without markup (tests and the status bar use it).
QString guaranteeText(core::pipeline::Mechanism mechanism,
                      const core::pipeline::MechanismConfig& tuning, std::optional<double> epsilon,
                      int datasets = 1);

}  // namespace dpsynth::ui
