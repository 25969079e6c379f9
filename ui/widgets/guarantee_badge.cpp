#include "ui/widgets/guarantee_badge.h"

namespace dpsynth::ui {

namespace pipeline = core::pipeline;

QString guaranteeText(pipeline::Mechanism mechanism, const pipeline::MechanismConfig& tuning,
                      std::optional<double> epsilon, int datasets) {
  const QString name = QString::fromStdString(pipeline::mechanismName(mechanism));
  const auto eps = [](double v) { return QString::number(v, 'f', 2); };
  QString text;
  switch (pipeline::guaranteeOf(mechanism)) {
    case pipeline::Guarantee::DP: {
      const auto e = epsilon ? epsilon : tuning.epsilon;
      text = e ? QStringLiteral("ε = %1, strict DP").arg(eps(*e))
               : QStringLiteral("strict DP (set ε)");
      if (mechanism == pipeline::Mechanism::ph && tuning.reproducibleNoise) {
        text += QStringLiteral(" · seeded noise: not for release");
      }
      break;
    }
    case pipeline::Guarantee::aDP:
      text = epsilon ? QStringLiteral("ε_x = %1, asymptotic DP").arg(eps(*epsilon))
                     : QStringLiteral("ε_x after the run, asymptotic DP");
      break;
    case pipeline::Guarantee::none:
      text = epsilon ? QStringLiteral("no guarantee (ε_x = %1 for reference)").arg(eps(*epsilon))
                     : QStringLiteral("no privacy guarantee");
      break;
  }
  // Releasing m datasets spends m·ε under basic composition.
  const auto shown = pipeline::guaranteeOf(mechanism) == pipeline::Guarantee::DP && !epsilon
                         ? tuning.epsilon
                         : epsilon;
  if (datasets > 1 && shown && pipeline::guaranteeOf(mechanism) != pipeline::Guarantee::none)
    text += QStringLiteral(" · %1 datasets spend ε = %2").arg(datasets).arg(eps(datasets * *shown));
  return name + QStringLiteral(": ") + text;
}

GuaranteeBadge::GuaranteeBadge(QWidget* parent) : QLabel(parent) {
  setObjectName(QStringLiteral("guaranteeBadge"));
  setAlignment(Qt::AlignCenter);
  setMargin(4);
  setToolTip(
      tr("Privacy guarantee of the selected mechanism. Strict DP holds for every "
         "database; asymptotic DP (aDP) holds as the sample grows, with the local ε_x "
         "measured on these data."));
}

void GuaranteeBadge::setGuarantee(std::optional<pipeline::Mechanism> mechanism,
                                  const pipeline::MechanismConfig& tuning,
                                  std::optional<double> epsilon, int datasets) {
  if (!mechanism) {
    setText(tr("no mechanism selected"));
    setStyleSheet(QStringLiteral("QLabel { border-radius: 6px; background: #e0e0e0; }"));
    return;
  }
  setText(guaranteeText(*mechanism, tuning, epsilon, datasets));
  QString colour;
  switch (pipeline::guaranteeOf(*mechanism)) {
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
  setStyleSheet(QStringLiteral("QLabel { border-radius: 6px; font-weight: bold; background: %1; }")
                    .arg(colour));
}

}  // namespace dpsynth::ui
