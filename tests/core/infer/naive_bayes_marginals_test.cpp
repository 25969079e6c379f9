#include "core/infer/naive_bayes_marginals.h"

#include <QtTest>

using dpsynth::core::infer::BetaMarginal;
using dpsynth::core::infer::NaiveBayesLayout;
using dpsynth::core::infer::naiveBayesMarginal;
using dpsynth::core::infer::NaiveBayesModel;
using dpsynth::core::infer::naiveBayesPriorMarginal;

namespace {

NaiveBayesModel marginalsModel() {
  NaiveBayesLayout l;
  l.classes = {"a", "b"};
  l.features = {"u", "v"};
  l.levels = {{"0", "1"}, {"x", "y", "z"}};
  return NaiveBayesModel(l, 10, Eigen::VectorXd::Zero(10), 4.0, 2.0);
}

}  // namespace

class NaiveBayesMarginalsTest : public QObject {
  Q_OBJECT

 private slots:
  void priorIsBetaAlphaAndTheRest() {
    const NaiveBayesModel m = marginalsModel();
    const BetaMarginal cls = naiveBayesPriorMarginal(m, 1);
    QCOMPARE(cls.a, 2.0);
    QCOMPARE(cls.b, 2.0);                                          // I = 2
    const BetaMarginal v = naiveBayesPriorMarginal(m, 2 + 2 + 1);  // class a, v = y
    QCOMPARE(v.a, 2.0);
    QCOMPARE(v.b, 4.0);               // J = 3
    QCOMPARE(cls.density(0.5), 1.5);  // Beta(2, 2) at 1/2: 6·¼
    QCOMPARE(cls.density(1.5), 0.0);
  }

  void posteriorAddsTheCountsOfItsVector() {
    const NaiveBayesModel m = marginalsModel();
    // cell order: class a: u0 u1 vx vy vz, class b: u0 u1 vx vy vz
    Eigen::VectorXd counts(10);
    counts << 3, 1, 2, 1, 1, 4, 2, 0, 5, 1;
    const BetaMarginal pa = naiveBayesMarginal(m, counts, 0);  // class a: 4 of 10
    QCOMPARE(pa.a, 6.0);
    QCOMPARE(pa.b, 8.0);
    const BetaMarginal vz_b = naiveBayesMarginal(m, counts, 2 + 5 + 4);  // p(v = z | b)
    QCOMPARE(vz_b.a, 3.0);
    QCOMPARE(vz_b.b, 9.0);  // (2 + 0) + (2 + 5)
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, naiveBayesMarginal(m, counts, 12));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             naiveBayesMarginal(m, Eigen::VectorXd::Zero(3), 0));
  }
};

QTEST_APPLESS_MAIN(NaiveBayesMarginalsTest)
#include "naive_bayes_marginals_test.moc"
