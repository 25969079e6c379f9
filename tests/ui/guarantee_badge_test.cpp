#include "ui/widgets/guarantee_badge.h"

#include <QtTest>

namespace core = dpsynth::core;
namespace ui = dpsynth::ui;
using dpsynth::core::pipeline::Mechanism;
using dpsynth::ui::GuaranteeContext;

class GuaranteeBadgeTest : public QObject {
  Q_OBJECT
 private slots:
  void strictDpShowsTheAskedEpsilon() {
    core::pipeline::MechanismConfig c;
    c.epsilon = 5.0;
    QCOMPARE(ui::guaranteeText(Mechanism::censorUw, c), QString("censor-uw: ε = 5.00, strict DP"));
  }

  void censorWIsStrictDpOnlyWithReferenceWeights() {
    core::pipeline::MechanismConfig c;
    c.epsilon = 5.0;
    // Weights from the confidential data move with every record: aDP, never "strict DP".
    const QString fromData = ui::guaranteeText(Mechanism::censorW, c);
    QVERIFY2(!fromData.contains("strict DP"), qPrintable(fromData));
    QVERIFY(fromData.contains("asymptotic DP"));
    QCOMPARE(ui::badgeGuarantee(Mechanism::censorW, {}), core::pipeline::Guarantee::aDP);
    GuaranteeContext reference;
    reference.referenceWeights = true;
    QCOMPARE(ui::guaranteeText(Mechanism::censorW, c, reference),
             QString("censor-w: ε = 5.00, strict DP (reference weights)"));
    QCOMPARE(ui::badgeGuarantee(Mechanism::censorW, reference), core::pipeline::Guarantee::DP);
    // weighted-e stays aDP with reference weights.
    QCOMPARE(ui::badgeGuarantee(Mechanism::weightedE, reference), core::pipeline::Guarantee::aDP);
  }

  void asymptoticDpShowsTheAchievedEpsilon() {
    core::pipeline::MechanismConfig c;
    GuaranteeContext context;
    context.epsilon = 5.24;
    QCOMPARE(ui::guaranteeText(Mechanism::lwFinal, c, context),
             QString("lw-final: ε_x = 5.24, asymptotic DP"));
  }

  void severalDatasetsShowTheCompositionCost() {
    core::pipeline::MechanismConfig c;
    c.epsilon = 2.0;
    GuaranteeContext three;
    three.datasets = 3;
    QCOMPARE(ui::guaranteeText(Mechanism::ph, c, three),
             QString("ph: ε = 2.00, strict DP · 3 datasets spend ε = 6.00"));
    GuaranteeContext four;
    four.datasets = 4;
    four.epsilon = 1.5;
    QCOMPARE(ui::guaranteeText(Mechanism::lw, c, four),
             QString("lw: ε_x = 1.50, asymptotic DP · 4 datasets spend ε = 6.00"));
    // No guarantee, no composition claim.
    four.epsilon = 9.0;
    QVERIFY(!ui::guaranteeText(Mechanism::unweighted, c, four).contains("spend"));
  }

  /// SPEC §0: a noisy published size spends ε_n once, on top of the mechanism's ε.
  void aNoisySizeAddsItsEpsilonOnce() {
    core::pipeline::MechanismConfig c;
    c.epsilon = 2.0;
    GuaranteeContext noisy;
    noisy.sizeEpsilon = 0.1;
    noisy.datasets = 3;
    QCOMPARE(ui::guaranteeText(Mechanism::censorUw, c, noisy),
             QString("censor-uw: ε = 2.00, strict DP + ε_n = 0.10 for the noisy size · 3 "
                     "datasets spend ε = 6.10"));
    noisy.epsilon = 9.0;
    QVERIFY(!ui::guaranteeText(Mechanism::unweighted, c, noisy).contains("ε_n"));
  }

  void reproducibleRunsSayNotForRelease() {
    core::pipeline::MechanismConfig c;
    c.epsilon = 5.0;
    GuaranteeContext seeded;
    seeded.notForRelease = true;
    QCOMPARE(ui::guaranteeText(Mechanism::ph, c, seeded),
             QString("ph: ε = 5.00, strict DP · NOT FOR RELEASE"));
    QVERIFY(!ui::guaranteeText(Mechanism::ph, c).contains("NOT FOR RELEASE"));
    ui::GuaranteeBadge badge;
    badge.setGuarantee(Mechanism::ph, c, seeded);
    QVERIFY(badge.text().contains("NOT FOR RELEASE"));
  }

  void aRefusedReleaseHasNoDpLabel() {
    core::pipeline::MechanismConfig c;
    c.epsilon = 5.0;
    GuaranteeContext refused;
    refused.refused = true;
    refused.epsilon = 5.0;
    const QString text = ui::guaranteeText(Mechanism::censorUw, c, refused);
    QVERIFY2(!text.contains("strict DP"), qPrintable(text));
    QVERIFY(text.contains("refused"));
    QCOMPARE(ui::badgeGuarantee(Mechanism::censorUw, refused), core::pipeline::Guarantee::none);
  }
};

QTEST_MAIN(GuaranteeBadgeTest)
#include "guarantee_badge_test.moc"
