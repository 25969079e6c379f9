#include "core/infer/naive_bayes_release.h"

#include <QtTest>
#include <cmath>

#include "core/random/rng.h"

using dpsynth::core::infer::naiveBayesCounts;
using dpsynth::core::infer::NaiveBayesLayout;
using dpsynth::core::infer::NaiveBayesModel;

namespace {

NaiveBayesLayout nbReleaseLayout() {
  NaiveBayesLayout l;
  l.classes = {"a", "b"};
  l.features = {"f", "g"};
  l.levels = {{"0", "1"}, {"x", "y", "z"}};
  return l;
}

/// log η = −Σ |m − T| / b, the whole sum.
double nbReleaseLogEta(const Eigen::VectorXd& m, const Eigen::VectorXd& T, double b) {
  return -(m - T).cwiseAbs().sum() / b;
}

}  // namespace

class NaiveBayesReleaseTest : public QObject {
  Q_OBJECT

 private slots:
  void cellsAreClassMajorThenFeatureThenLevel() {
    const NaiveBayesLayout l = nbReleaseLayout();
    QCOMPARE(l.cellsPerClass(), 5);
    QCOMPARE(l.cell(0, 0, 0), 0);
    QCOMPARE(l.cell(0, 1, 2), 4);
    QCOMPARE(l.cell(1, 0, 1), 6);
    QCOMPARE(l.cell(1, 1, 0), 7);
    const Eigen::VectorXd n =
        naiveBayesCounts(l, std::vector<std::vector<int>>{{0, 1, 2}, {1, 0, 0}, {1, 0, 2}});
    Eigen::VectorXd expected(10);
    expected << 0, 1, 0, 0, 1, 2, 0, 1, 0, 1;
    QCOMPARE(n, expected);
  }

  void invalidInputIsRejected() {
    NaiveBayesLayout one = nbReleaseLayout();
    one.classes = {"a"};
    QVERIFY(!one.validate().empty());
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             NaiveBayesModel(nbReleaseLayout(), 3, Eigen::VectorXd::Zero(9), 1.0));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             NaiveBayesModel(nbReleaseLayout(), 3, Eigen::VectorXd::Zero(10), 0.0));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             NaiveBayesModel(nbReleaseLayout(), 0, Eigen::VectorXd::Zero(10), 1.0));
  }

  void aNameGivenTwiceIsRejected() {
    // "u=0|0|1" would make two cells of one level: records land in the first only, and the
    // second publishes a count of pure noise.
    QVERIFY(nbReleaseLayout().validate().empty());
    NaiveBayesLayout level = nbReleaseLayout();
    level.levels[1] = {"x", "y", "x"};
    QCOMPARE(level.validate(), std::vector<std::string>{"feature 'g': level 'x' is named twice"});
    NaiveBayesLayout klass = nbReleaseLayout();
    klass.classes = {"a", "b", "a"};
    QCOMPARE(klass.validate(),
             std::vector<std::string>{"class 'a' is named twice in the class levels"});
    NaiveBayesLayout feature = nbReleaseLayout();
    feature.features = {"f", "f"};
    QCOMPARE(feature.validate(), std::vector<std::string>{"feature 'f' is named twice"});
  }

  void moveStatisticHandComputed() {
    // I = 2, K = 1, J = 2: cells (a,0) (a,1) (b,0) (b,1).
    NaiveBayesLayout l;
    l.classes = {"a", "b"};
    l.features = {"f"};
    l.levels = {{"0", "1"}};
    Eigen::VectorXd m(4);
    m << 1.5, 0.0, 0.5, 2.0;
    const NaiveBayesModel model(l, 2, m, 0.5);
    Eigen::VectorXd T(4);
    T << 1, 0, 1, 0;  // records (a,0) and (b,0)
    const double from[] = {1, 0}, to[] = {1, 1};
    // Cell (b,0): |0.5 − 1| → |0.5 − 0|, 0.5 → 0.5; cell (b,1): |2 − 0| → |2 − 1|, 2 → 1.
    // Δ log η = ((0.5 + 2) − (0.5 + 1)) / 0.5 = 2.
    QCOMPARE(model.moveStatistic(T, from, to), 2.0);
    Eigen::VectorXd moved(4);
    moved << 1, 0, 0, 1;
    QCOMPARE(T, moved);
    QCOMPARE(model.moveStatistic(T, to, from), -2.0);
    moved << 1, 0, 1, 0;
    QCOMPARE(T, moved);
    QCOMPARE(model.moveStatistic(T, from, from), 0.0);
  }

  void moveStatisticMatchesTheWholeSum() {
    const NaiveBayesLayout l = nbReleaseLayout();
    Eigen::VectorXd m(10);
    m << 0.3, 2.2, -1.0, 0.7, 1.9, 3.1, 0.0, 0.4, 2.6, -0.2;
    const NaiveBayesModel model(l, 4, m, 0.8);
    dpsynth::core::random::Rng rng = dpsynth::core::random::makeRng(5);
    const Eigen::VectorXd theta = model.initialTheta(rng);
    Eigen::VectorXd T = Eigen::VectorXd::Zero(10);
    double record[3], other[3];
    for (int i = 0; i < 4; ++i) {
      model.drawRecord(theta, rng, record);
      model.addStatistic(record, T);
    }
    for (int trial = 0; trial < 200; ++trial) {
      model.drawRecord(theta, rng, other);
      const Eigen::VectorXd before = T;
      const double delta = model.moveStatistic(T, record, other);
      QVERIFY(std::abs(delta - (nbReleaseLogEta(m, T, 0.8) - nbReleaseLogEta(m, before, 0.8))) <
              1e-12);
      Eigen::VectorXd direct = before;
      Eigen::VectorXd tFrom = Eigen::VectorXd::Zero(10), tTo = Eigen::VectorXd::Zero(10);
      model.addStatistic(record, tFrom);
      model.addStatistic(other, tTo);
      QCOMPARE(T, Eigen::VectorXd(direct - tFrom + tTo));
      std::copy(other, other + 3, record);
    }
  }

  void drawThetaIsOnTheSimplices() {
    const NaiveBayesModel model(nbReleaseLayout(), 4, Eigen::VectorXd::Zero(10), 1.0);
    dpsynth::core::random::Rng rng = dpsynth::core::random::makeRng(9);
    const Eigen::VectorXd theta = model.drawTheta(Eigen::VectorXd::Constant(10, 2.0), rng);
    QCOMPARE(theta.size(), 12);
    QVERIFY((theta.array() > 0).all());
    QVERIFY(std::abs(theta.head(2).sum() - 1) < 1e-12);
    QVERIFY(std::abs(theta.segment(2, 2).sum() - 1) < 1e-12);
    QVERIFY(std::abs(theta.segment(4, 3).sum() - 1) < 1e-12);
    QVERIFY(std::abs(theta.segment(7, 2).sum() - 1) < 1e-12);
    QVERIFY(std::abs(theta.segment(9, 3).sum() - 1) < 1e-12);
    const auto names = model.parameterNames();
    QCOMPARE(names.front(), std::string("p[a]"));
    QCOMPARE(names[4], std::string("p[g=x|a]"));
    QCOMPARE(names.back(), std::string("p[g=z|b]"));
  }
};

QTEST_APPLESS_MAIN(NaiveBayesReleaseTest)
#include "naive_bayes_release_test.moc"
