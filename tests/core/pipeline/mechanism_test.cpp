#include "core/pipeline/mechanism.h"

#include <QtTest>

using namespace dpsynth::core::pipeline;

class MechanismTest : public QObject {
  Q_OBJECT
 private slots:
  void namesRoundTrip() {
    QCOMPARE(allMechanisms().size(), std::size_t{10});
    for (Mechanism m : allMechanisms()) QVERIFY(parseMechanism(mechanismName(m)) == m);
    QVERIFY(parseMechanism("lw-final") == Mechanism::lwFinal);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseMechanism("LW"));
  }

  void guarantees() {
    QCOMPARE(guaranteeName(guaranteeOf(Mechanism::unweighted)), std::string("none"));
    for (Mechanism m : {Mechanism::sw, Mechanism::lw, Mechanism::cw, Mechanism::lwFinal,
                        Mechanism::cwFinal, Mechanism::weightedE})
      QCOMPARE(guaranteeName(guaranteeOf(m)), std::string("aDP"));
    for (Mechanism m : {Mechanism::censorUw, Mechanism::ph})
      QCOMPARE(guaranteeName(guaranteeOf(m)), std::string("DP"));
    // censor-w is strict DP only with a weight function from reference data (SPEC §0).
    QCOMPARE(guaranteeName(guaranteeOf(Mechanism::censorW)), std::string("aDP"));
    QCOMPARE(guaranteeName(guaranteeOf(Mechanism::censorW, true)), std::string("DP"));
    QCOMPARE(guaranteeName(guaranteeOf(Mechanism::weightedE, true)), std::string("aDP"));
  }

  void defaultsAreValid() {
    MechanismConfig c;
    QVERIFY(c.validate().empty());
  }

  void epsilonRequiredWhereNeeded() {
    for (Mechanism m : {Mechanism::weightedE, Mechanism::censorUw, Mechanism::censorW}) {
      MechanismConfig c;
      c.mechanism = m;
      QCOMPARE(c.validate().size(), std::size_t{1});
      c.epsilon = 4.0;
      QVERIFY(c.validate().empty());
    }
  }

  void phRefusesMissingBounds() {
    MechanismConfig c;
    c.mechanism = Mechanism::ph;
    c.epsilon = 1.0;
    auto problems = c.validate();
    QCOMPARE(problems.size(), std::size_t{1});
    QVERIFY(problems[0].find("public lower and upper bounds") != std::string::npos);
    c.lower = 5;
    c.upper = 1;
    QCOMPARE(c.validate().size(), std::size_t{1});
    c.upper = 10;
    QVERIFY(c.validate().empty());
  }

  void familyNaturalBoundsFillOnlyUnsetPhBounds() {
    using dpsynth::core::models::Family;
    MechanismConfig c;
    c.mechanism = Mechanism::ph;
    c.epsilon = 1;
    // Beta's (0, 1) is public: it fills what the user left unset, nothing else.
    const MechanismConfig beta = withFamilyDefaults(c, Family::beta);
    QCOMPARE(*beta.lower, 0.0);
    QCOMPARE(*beta.upper, 1.0);
    QVERIFY(beta.problems().empty());
    c.upper = 0.5;
    QCOMPARE(*withFamilyDefaults(c, Family::beta).upper, 0.5);
    QCOMPARE(*withFamilyDefaults(c, Family::beta).lower, 0.0);
    // Counts and the normal family have no natural bounds: still refused without them.
    c.upper.reset();
    for (Family f : {Family::poisson, Family::negbin, Family::normal}) {
      QVERIFY(!naturalBounds(f));
      QVERIFY(!withFamilyDefaults(c, f).lower);
      QVERIFY(!withFamilyDefaults(c, f).problems().empty());
    }
  }

  void badNumbersAreListed() {
    MechanismConfig c;
    c.c = -1;
    c.k = 1.5;
    c.epsilon = 0;
    c.downscale = 0;
    c.radius = -2;
    QCOMPARE(c.validate().size(), std::size_t{5});
  }
};

QTEST_APPLESS_MAIN(MechanismTest)
#include "mechanism_test.moc"
