/// The privacy model of SPEC §0 checked on the mechanism as executed, not on values the code
/// clamped itself: the censoring interval per family and neighbour relation bounds how far one
/// record moves the log pseudo-likelihood (and a clamp twice as wide is caught), and a weight
/// function fitted on reference data makes each record's weight depend on that record alone.
#include <QtTest>
#include <cmath>
#include <vector>

#include "core/models/model.h"
#include "core/pipeline/pipeline.h"
#include "core/privacy/neighbours.h"
#include "support/model_fixtures.h"

namespace models = dpsynth::core::models;
namespace pipeline = dpsynth::core::pipeline;
namespace privacy = dpsynth::core::privacy;
using models::Family;
using privacy::Neighbours;

namespace {

/// u(x, θ) = the censored log pseudo-likelihood: the model's log density minus that of the
/// same model with every weight 0 (prior and Jacobian only), so nothing is taken on trust.
double pseudoLogLik(const dpsynth::core::data::Dataset& d, privacy::ClampInterval c,
                    const Eigen::VectorXd& u) {
  const auto censored = models::makeModel(d, {}, {{}, c.lower, c.upper});
  const auto prior = models::makeModel(d, {}, {std::vector<double>(d.size(), 0.0)});
  return censored->logDensity(u) - prior->logDensity(u);
}

/// sup over a grid of θ of |u(x, θ) − u(x', θ)|.
double largestChange(const dpsynth::core::data::Dataset& x,
                     const dpsynth::core::data::Dataset& neighbour, privacy::ClampInterval c) {
  const auto probe = models::makeModel(x, {});
  double worst = 0;
  for (double a = -8; a <= 8; a += 0.5) {
    for (double b = -8; b <= 8; b += 0.5) {
      Eigen::VectorXd u = Eigen::VectorXd::Zero(probe->dim());
      u[0] = a;
      if (probe->dim() > 1) u[probe->dim() - 1] = b;
      const double ux = pseudoLogLik(x, c, u), un = pseudoLogLik(neighbour, c, u);
      if (std::isfinite(ux) && std::isfinite(un)) worst = std::max(worst, std::abs(ux - un));
    }
  }
  return worst;
}

pipeline::RunSettings small(Family family) {
  pipeline::RunSettings s;
  s.model.family = family;
  s.nuts.chains = 2;
  s.nuts.warmup = 150;
  s.nuts.draws = 150;
  s.nuts.seed = 41;
  return s;
}

}  // namespace

class CensoringTest : public QObject {
  Q_OBJECT
 private slots:
  void intervalFollowsFamilyAndRelation() {
    const double eps = 4;
    for (Family f : {Family::poisson, Family::negbin}) {
      for (Neighbours n : {Neighbours::replaceOne, Neighbours::addRemove}) {
        const auto c = privacy::censorInterval(f, n, eps);
        QCOMPARE(c.lower, -2.0);  // log-pmf <= 0: [-ε/2, 0] is exact for both relations
        QCOMPARE(c.upper, 0.0);
        QCOMPARE(privacy::clampSensitivity(c, n), 2.0);
      }
    }
    for (Family f : {Family::beta, Family::normal}) {
      const auto r = privacy::censorInterval(f, Neighbours::replaceOne, eps);
      QCOMPARE(r.lower, -1.0);
      QCOMPARE(r.upper, 1.0);
      QCOMPARE(privacy::clampSensitivity(r, Neighbours::replaceOne), 2.0);  // U - L = ε/2
      const auto a = privacy::censorInterval(f, Neighbours::addRemove, eps);
      QCOMPARE(a.lower, -2.0);
      QCOMPARE(a.upper, 2.0);
      QCOMPARE(privacy::clampSensitivity(a, Neighbours::addRemove), 2.0);  // max(|L|, |U|)
    }
    QCOMPARE(privacy::histogramSensitivity(Neighbours::replaceOne), 2);
    QCOMPARE(privacy::histogramSensitivity(Neighbours::addRemove), 1);
    QCOMPARE(privacy::parseNeighbours("add-remove"), Neighbours::addRemove);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, privacy::parseNeighbours("swap"));
  }

  void oneReplacedRecordMovesTheExponentByAtMostHalfEpsilon() {
    const double eps = 2;
    // Beta: log-densities of both signs, the case that makes replace-one need U - L = ε/2.
    std::vector<double> y{0.3, 0.45, 0.5, 0.52, 0.6, 0.41, 0.55, 0.48};
    const auto x = dpsynth::test::makeDataset(Family::beta, y);
    y[2] = 0.001;  // replace one record by an extreme value
    const auto neighbour = dpsynth::test::makeDataset(Family::beta, y);
    const auto interval = privacy::censorInterval(Family::beta, Neighbours::replaceOne, eps);
    const double change = largestChange(x, neighbour, interval);
    QVERIFY2(change <= eps / 2 + 1e-9, qPrintable(QString::number(change)));
    QVERIFY(change > 0.9 * eps / 2);  // the bound is reached: the grid sees the extremes
    // The old symmetric clamp [-ε/2, ε/2] under replace-one lets one record move the exponent
    // by up to ε: a 2ε mechanism. The check must see it.
    const double broken = largestChange(x, neighbour, {-eps / 2, eps / 2});
    QVERIFY2(broken > eps / 2 + 0.1, qPrintable(QString::number(broken)));

    // Poisson: one-sided [-ε/2, 0] is exact for replace-one.
    std::vector<double> counts{0, 5, 4, 6, 2, 5, 4, 3};  // log p(0 | λ) → 0 as λ → 0
    const auto cx = dpsynth::test::makeDataset(Family::poisson, counts);
    counts[0] = 60;
    const auto cn = dpsynth::test::makeDataset(Family::poisson, counts);
    const double cchange = largestChange(
        cx, cn, privacy::censorInterval(Family::poisson, Neighbours::replaceOne, eps));
    QVERIFY2(cchange <= eps / 2 + 1e-9, qPrintable(QString::number(cchange)));
    QVERIFY(cchange > 0.9 * eps / 2);
  }

  void addRemoveNeedsOnlyTheLargerBound() {
    const double eps = 2;
    std::vector<double> y{0.3, 0.45, 0.5, 0.52, 0.6, 0.41, 0.55, 0.48};
    const auto x = dpsynth::test::makeDataset(Family::beta, y);
    y.pop_back();  // one record removed
    const auto neighbour = dpsynth::test::makeDataset(Family::beta, y);
    const auto interval = privacy::censorInterval(Family::beta, Neighbours::addRemove, eps);
    const double change = largestChange(x, neighbour, interval);
    QVERIFY2(change <= eps / 2 + 1e-9, qPrintable(QString::number(change)));
    QVERIFY(change > 0.9 * eps / 2);
  }

  void referenceWeightsDependOnTheirOwnRecordOnly() {
    std::vector<double> ref, data;
    for (int i = 0; i < 60; ++i) {
      ref.push_back(3 + (i * 7) % 9);
      data.push_back(2 + (i * 5) % 11);
    }
    const auto reference = std::make_shared<const dpsynth::core::data::Dataset>(
        dpsynth::test::makeDataset(Family::poisson, ref));
    data[0] = 7;  // a typical record (weight inside (0, 1)) ...
    auto changed = data;
    changed[0] = 40;  // ... replaced by an outlying one
    pipeline::MechanismConfig c;
    c.mechanism = pipeline::Mechanism::censorW;
    c.epsilon = 8;
    auto weightsOf = [&](const std::vector<double>& y, bool withReference) {
      auto s = small(Family::poisson);
      if (withReference) s.weightReference = reference;
      const auto run =
          pipeline::runMechanisms(dpsynth::test::makeDataset(Family::poisson, y), {c}, s);
      return run.mechanisms.front();
    };
    const auto a = weightsOf(data, true), b = weightsOf(changed, true);
    QCOMPARE(a.claimed, pipeline::Guarantee::DP);
    QVERIFY(a.referenceWeights);
    for (std::size_t i = 1; i < data.size(); ++i)
      QVERIFY2(a.final->alpha[i] == b.final->alpha[i], qPrintable(QString::number(i)));  // bitwise
    QVERIFY(a.final->alpha[0] != b.final->alpha[0]);
    // Weights from the same data move when one record changes: aDP, never DP.
    const auto u = weightsOf(data, false), v = weightsOf(changed, false);
    QCOMPARE(u.claimed, pipeline::Guarantee::aDP);
    int moved = 0;
    for (std::size_t i = 1; i < data.size(); ++i) moved += u.final->alpha[i] != v.final->alpha[i];
    QVERIFY(moved > 0);
  }

  /// The same with covariates: the changed record moves its outcome and its covariates (which
  /// change the released data's design, and with it the QR transform of its model's space).
  /// Every other record's weight stays within rounding of where it was.
  void referenceWeightsIgnoreAnotherRecordsCovariates() {
    const Eigen::Index n = 60;
    const Eigen::MatrixXd refX = dpsynth::test::fixtureCovariates(n, 2, 31);
    Eigen::MatrixXd x = dpsynth::test::fixtureCovariates(n, 2, 32);
    const auto reference =
        std::make_shared<const dpsynth::core::data::Dataset>(dpsynth::test::makeDataset(
            Family::poisson, dpsynth::test::fixtureOutcomes(Family::poisson, refX, n, 31), refX));
    Eigen::VectorXd y = dpsynth::test::fixtureOutcomes(Family::poisson, x, n, 32);
    Eigen::VectorXd changedY = y;
    Eigen::MatrixXd changedX = x;
    changedY[0] = 45;
    changedX(0, 0) = 1 - x(0, 0);
    changedX(0, 1) = 4.5;  // far outside the other records' covariate
    pipeline::MechanismConfig c;
    c.mechanism = pipeline::Mechanism::censorW;
    c.epsilon = 8;
    auto s = small(Family::poisson);
    s.weightReference = reference;
    const auto a =
        pipeline::runMechanisms(dpsynth::test::makeDataset(Family::poisson, y, x), {c}, s)
            .mechanisms.front();
    const auto b = pipeline::runMechanisms(
                       dpsynth::test::makeDataset(Family::poisson, changedY, changedX), {c}, s)
                       .mechanisms.front();
    QCOMPARE(a.claimed, pipeline::Guarantee::DP);
    double largest = 0;
    int inside = 0;
    for (std::size_t i = 1; i < a.final->alpha.size(); ++i) {
      largest = std::max(largest, std::abs(a.final->alpha[i] - b.final->alpha[i]));
      inside += a.final->alpha[i] > 0 && a.final->alpha[i] < 1;
    }
    QVERIFY2(largest == 0, qPrintable(QString::number(largest)));
    QVERIFY(inside > 5);  // weights inside (0, 1): the comparison has power
    QVERIFY(std::abs(a.final->alpha[0] - b.final->alpha[0]) > 1e-6);
  }
};

QTEST_APPLESS_MAIN(CensoringTest)
#include "censoring_test.moc"
