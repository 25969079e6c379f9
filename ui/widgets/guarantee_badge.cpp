#include "ui/widgets/guarantee_badge.h"

namespace dpsynth::ui {

namespace pipeline = core::pipeline;

pipeline::Guarantee badgeGuarantee(pipeline::Mechanism mechanism, const GuaranteeContext& context) {
  if (context.refused) return pipeline::Guarantee::none;
  return pipeline::guaranteeOf(mechanism, context.referenceWeights);
}

QString guaranteeText(pipeline::Mechanism mechanism, const pipeline::MechanismConfig& tuning,
                      const GuaranteeContext& context) {
  const QString name = QString::fromStdString(pipeline::mechanismName(mechanism));
  const auto eps = [](double v) { return QString::number(v, 'f', 2); };
  const auto epsilon = context.epsilon;
  const auto guarantee = badgeGuarantee(mechanism, context);
  const bool weighted = pipeline::usesReferenceWeights(mechanism);
  QString text;
  if (context.refused) {
    text = QStringLiteral("release refused: the DP fit failed its diagnostics, no DP label");
  } else {
    switch (guarantee) {
      case pipeline::Guarantee::DP: {
        const auto e = epsilon ? epsilon : tuning.epsilon;
        text = e ? QStringLiteral("ε = %1, strict DP").arg(eps(*e))
                 : QStringLiteral("strict DP (set ε)");
        if (weighted) text += QStringLiteral(" (reference weights)");
        break;
      }
      case pipeline::Guarantee::aDP:
        text = epsilon ? QStringLiteral("ε_x = %1, asymptotic DP").arg(eps(*epsilon))
                       : QStringLiteral("ε_x after the run, asymptotic DP");
        if (weighted && !context.referenceWeights) text += QStringLiteral(" (weights from data)");
        break;
      case pipeline::Guarantee::none:
        text = epsilon ? QStringLiteral("no guarantee (ε_x = %1 for reference)").arg(eps(*epsilon))
                       : QStringLiteral("no privacy guarantee");
        break;
    }
    // A noisy size spends ε_n once, whatever m (SPEC §0).
    if (context.sizeEpsilon > 0 && guarantee != pipeline::Guarantee::none)
      text += QStringLiteral(" + ε_n = %1 for the noisy size").arg(eps(context.sizeEpsilon));
    // Releasing m datasets spends m·ε under basic composition.
    const auto shown = guarantee == pipeline::Guarantee::DP && !epsilon ? tuning.epsilon : epsilon;
    if (context.datasets > 1 && shown && guarantee != pipeline::Guarantee::none) {
      text += QStringLiteral(" · %1 datasets spend ε = %2")
                  .arg(context.datasets)
                  .arg(eps(context.datasets * *shown + context.sizeEpsilon));
    }
  }
  if (context.tunedOnConfidential)
    text += QStringLiteral(" · tuned on the confidential data, not covered by ε");
  if (context.notForRelease) text += QStringLiteral(" · NOT FOR RELEASE");
  return name + QStringLiteral(": ") + text;
}

GuaranteeBadge::GuaranteeBadge(QWidget* parent) : QLabel(parent) {
  setObjectName(QStringLiteral("guaranteeBadge"));
  setAlignment(Qt::AlignCenter);
  setWordWrap(true);
  setMargin(4);
  // Two lines' room from the start: a text that wraps to a second line no longer pushes the
  // mechanism list above it.
  setMinimumHeight(2 * fontMetrics().lineSpacing() + 2 * margin() + 4);
  setToolTip(
      tr("Privacy guarantee of the selected mechanism. Strict DP holds for every database "
         "under the chosen neighbour relation; asymptotic DP (aDP) holds as the sample grows, "
         "with the local ε_x measured on these data. NOT FOR RELEASE: a reproducible (seeded) "
         "run, for studies and tests only."));
}

void GuaranteeBadge::setGuarantee(std::optional<pipeline::Mechanism> mechanism,
                                  const pipeline::MechanismConfig& tuning,
                                  const GuaranteeContext& context) {
  if (!mechanism) {
    setText(tr("no mechanism selected"));
    setStyleSheet(QStringLiteral("QLabel { border-radius: 6px; background: #e0e0e0; }"));
    return;
  }
  setText(guaranteeText(*mechanism, tuning, context));
  QString colour;
  switch (badgeGuarantee(*mechanism, context)) {
    case pipeline::Guarantee::DP:
      colour = QStringLiteral("#cdebd3; color: #14502a");
      break;
    case pipeline::Guarantee::aDP:
      colour = QStringLiteral("#fbe7c0; color: #6b4a00");
      break;
    case pipeline::Guarantee::none:
      colour = QStringLiteral("#f6d0d0; color: #7a1010");
      break;
  }
  // A seeded run keeps its guarantee's colour inside a red dashed frame: not for release.
  const QString border =
      context.notForRelease ? QStringLiteral("border: 2px dashed #b00020;") : QString();
  setStyleSheet(
      QStringLiteral("QLabel { border-radius: 6px; font-weight: bold; background: %1; %2 }")
          .arg(colour, border));
}

}  // namespace dpsynth::ui
