/// The generating distribution's values drawn dashed over the utility violins.
#include "ui/workspaces/study/analytic_values.h"

#include <QtTest>

using dpsynth::core::study::Generator;
using dpsynth::ui::analyticValue;

class AnalyticValuesTest : public QObject {
  Q_OBJECT

 private slots:
  void betaMeanAndQuantiles() {
    const auto beta = Generator::parse("beta(2,2)");
    QCOMPARE(*analyticValue(beta, "mean"), 0.5);
    QVERIFY(std::abs(*analyticValue(beta, "median") - 0.5) < 1e-12);
    const auto skewed = Generator::parse("beta(0.5,3)");
    QVERIFY(std::abs(*analyticValue(skewed, "mean") - 1.0 / 7.0) < 1e-12);
    QVERIFY(*analyticValue(skewed, "q15") < *analyticValue(skewed, "median"));
    QVERIFY(*analyticValue(skewed, "median") < *analyticValue(skewed, "q90"));
  }

  void countQuantilesAreTheSmallestKWithCdfAtLeastP() {
    // Poisson(1): F(0) = 0.3679, F(1) = 0.7358, F(2) = 0.9197.
    const auto poisson = Generator::parse("poisson(1)");
    QCOMPARE(*analyticValue(poisson, "mean"), 1.0);
    QCOMPARE(*analyticValue(poisson, "q15"), 0.0);
    QCOMPARE(*analyticValue(poisson, "median"), 1.0);
    QCOMPARE(*analyticValue(poisson, "q90"), 2.0);
    // NB2(mu = 2, phi = 1) is geometric with p = 1/3: F(k) = 1 − (2/3)^(k+1); median 1.
    QCOMPARE(*analyticValue(Generator::parse("negbin(2,1)"), "median"), 1.0);
  }

  void mixtureMeanAndMedian() {
    const auto mix = Generator::parse("nbmix(0.5,2,1,2,1)");  // two equal components
    QCOMPARE(*analyticValue(mix, "mean"), 2.0);
    QCOMPARE(*analyticValue(mix, "median"), 1.0);
    QCOMPARE(*analyticValue(Generator::parse("nbmix(0.3,1,5,10,5)"), "mean"), 0.3 * 1 + 0.7 * 10);
  }

  void normalMeanAndQuantiles() {
    // Normal(-3, 2): median = mean = -3; q90 = -3 + 2 · 1.2815516 (the standard normal's 0.9
    // quantile), q15 = -3 − 2 · 1.0364334.
    const auto normal = Generator::parse("normal(-3,2)");
    QCOMPARE(*analyticValue(normal, "mean"), -3.0);
    QVERIFY(std::abs(*analyticValue(normal, "median") + 3.0) < 1e-12);
    QVERIFY(std::abs(*analyticValue(normal, "q90") - (-3 + 2 * 1.2815515655)) < 1e-8);
    QVERIFY(std::abs(*analyticValue(normal, "q15") - (-3 - 2 * 1.0364333895)) < 1e-8);
  }

  void distancesHaveNoAnalyticValue() {
    const auto beta = Generator::parse("beta(2,2)");
    QVERIFY(!analyticValue(beta, "max_ecdf"));
    QVERIFY(!analyticValue(beta, "avg_ecdf"));
    QVERIFY(!analyticValue(beta, "pmse"));
  }
};

QTEST_MAIN(AnalyticValuesTest)
#include "analytic_values_test.moc"
