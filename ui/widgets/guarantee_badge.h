#pragma once
/// The privacy guarantee of the selected mechanism in one coloured line:
/// "ε = 5.00, strict DP" (green), "ε_x = 5.24, asymptotic DP" (amber), "no guarantee" (red),
/// with "NOT FOR RELEASE" for reproducible runs and "release refused" when the DP fit failed its
/// diagnostics (SPEC §0).
#include <QLabel>
#include <optional>

#include "core/pipeline/mechanism.h"

namespace dpsynth::ui {

/// What the badge needs besides the mechanism and its tuning.
struct GuaranteeContext {
  /// The achieved ε (ε_x for aDP) when a result for the settings on screen exists, else nullopt
  /// (the text then shows the ε asked for, or that ε_x is known after the run).
  std::optional<double> epsilon;
  /// The m synthetic datasets an export would release; m > 1 adds the cost m·ε to the text.
  int datasets = 1;
  /// Weights come from a public reference dataset (censor-w is then strict DP).
  bool referenceWeights = false;
  /// A reproducible (seeded) run: its output must not be released.
  bool notForRelease = false;
  /// A result whose DP stage failed its diagnostics: no DP label, release refused.
  bool refused = false;
  /// ε_n of a noisy published size (SPEC §0: add-remove, or complete records after dropping);
  /// 0 when the size is public or declared. Added once to the ε a release spends.
  double sizeEpsilon = 0;
  /// The settings were tuned on the confidential data: the choice is not covered by ε.
  bool tunedOnConfidential = false;
};

class GuaranteeBadge : public QLabel {
  Q_OBJECT

 public:
  explicit GuaranteeBadge(QWidget* parent = nullptr);

  void setGuarantee(std::optional<core::pipeline::Mechanism> mechanism,
                    const core::pipeline::MechanismConfig& tuning,
                    const GuaranteeContext& context = {});
};

/// The guarantee the badge shows: guaranteeOf(mechanism, referenceWeights), none when refused.
core::pipeline::Guarantee badgeGuarantee(core::pipeline::Mechanism mechanism,
                                         const GuaranteeContext& context);

/// The badge text without markup (tests and the status bar use it).
QString guaranteeText(core::pipeline::Mechanism mechanism,
                      const core::pipeline::MechanismConfig& tuning,
                      const GuaranteeContext& context = {});

}  // namespace dpsynth::ui
