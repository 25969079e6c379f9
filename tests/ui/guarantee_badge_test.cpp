#include <QtTest>

#include "ui/widgets/guarantee_badge.h"

using namespace dpsynth;
using core::pipeline::Mechanism;

class GuaranteeBadgeTest : public QObject {
  Q_OBJECT
 private slots:
  void strictDpShowsTheAskedEpsilon() {
    core::pipeline::MechanismConfig c;
    c.epsilon = 5.0;
    QCOMPARE(ui::guaranteeText(Mechanism::censorW, c, std::nullopt),
             QString("censor-w: ε = 5.00, strict DP"));
  }

  void asymptoticDpShowsTheAchievedEpsilon() {
    core::pipeline::MechanismConfig c;
    QCOMPARE(ui::guaranteeText(Mechanism::lwFinal, c, 5.24),
             QString("lw-final: ε_x = 5.24, asymptotic DP"));
  }

  void severalDatasetsShowTheCompositionCost() {
    core::pipeline::MechanismConfig c;
    c.epsilon = 2.0;
    QCOMPARE(ui::guaranteeText(Mechanism::ph, c, std::nullopt, 3),
             QString("ph: ε = 2.00, strict DP · 3 datasets spend ε = 6.00"));
    QCOMPARE(ui::guaranteeText(Mechanism::lw, c, 1.5, 4),
             QString("lw: ε_x = 1.50, asymptotic DP · 4 datasets spend ε = 6.00"));
    // No guarantee, no composition claim.
    QVERIFY(!ui::guaranteeText(Mechanism::unweighted, c, 9.0, 4).contains("spend"));
  }
};

QTEST_MAIN(GuaranteeBadgeTest)
#include "guarantee_badge_test.moc"
