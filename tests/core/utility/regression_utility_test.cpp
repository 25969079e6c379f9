#include "core/utility/regression_utility.h"

#include <QtTest>
#include <cmath>
#include <stdexcept>

using namespace dpsynth::core::utility;

namespace {

Eigen::VectorXd regUtilVec(std::initializer_list<double> values) {
  Eigen::VectorXd v(static_cast<Eigen::Index>(values.size()));
  Eigen::Index i = 0;
  for (double x : values) v[i++] = x;
  return v;
}

/// Design with an intercept and one numeric column.
Eigen::MatrixXd regUtilDesign(const Eigen::VectorXd& x) {
  Eigen::MatrixXd X(x.size(), 2);
  X.col(0).setOnes();
  X.col(1) = x;
  return X;
}

}  // namespace

class RegressionUtilityTest : public QObject {
  Q_OBJECT

 private slots:
  void normalFitIsClosedFormOls() {
    // x = 1..5, y = (1, 3, 2, 5, 4): x̄ = 3, ȳ = 3, Sxx = 10, Sxy = 8 → b1 = 0.8, b0 = 0.6.
    // Residuals (-0.4, 0.8, -1.0, 1.2, -0.6): RSS = 3.6, s² = 3.6/3 = 1.2.
    // se(b1) = sqrt(s²/Sxx) = sqrt(0.12); se(b0) = sqrt(s² (1/n + x̄²/Sxx)) = sqrt(1.32).
    const Eigen::VectorXd y = regUtilVec({1, 3, 2, 5, 4});
    const GlmFit fit =
        fitGlm(y, regUtilDesign(regUtilVec({1, 2, 3, 4, 5})), RegressionFamily::normal);
    QVERIFY(fit.converged);
    QVERIFY(std::abs(fit.beta[0] - 0.6) < 1e-10);
    QVERIFY(std::abs(fit.beta[1] - 0.8) < 1e-10);
    QVERIFY(std::abs(fit.dispersion - 1.2) < 1e-10);
    QVERIFY(std::abs(fit.se[0] - std::sqrt(1.32)) < 1e-10);
    QVERIFY(std::abs(fit.se[1] - std::sqrt(0.12)) < 1e-10);
  }

  void poissonWithOneBinaryCovariateIsGroupLogMeans() {
    // A saturated two-group model: exp(b0) = mean of group 0, exp(b0 + b1) = mean of group 1;
    // Fisher information gives se(b0) = 1/sqrt(sum y of group 0), se(b1) adds group 1.
    const Eigen::VectorXd y = regUtilVec({1, 2, 3, 4, 6, 8});
    const GlmFit fit =
        fitGlm(y, regUtilDesign(regUtilVec({0, 0, 0, 1, 1, 1})), RegressionFamily::poisson);
    QVERIFY(fit.converged);
    QVERIFY(std::abs(fit.beta[0] - std::log(2.0)) < 1e-9);
    QVERIFY(std::abs(fit.beta[1] - std::log(6.0 / 2.0)) < 1e-9);
    QVERIFY(std::abs(fit.se[0] - 1.0 / std::sqrt(6.0)) < 1e-9);
    QVERIFY(std::abs(fit.se[1] - std::sqrt(1.0 / 6.0 + 1.0 / 18.0)) < 1e-9);
  }

  void ciOverlapOfKnownIntervals() {
    QCOMPARE(ciOverlap(0, 2, 0, 2), 1.0);
    // Half-shifted equal widths: intersection 1 of widths 2 and 2.
    QCOMPARE(ciOverlap(0, 2, 1, 3), 0.5);
    // Nested: [1,2] inside [0,4]: ½(1/4 + 1/1) = 0.625.
    QCOMPARE(ciOverlap(0, 4, 1, 2), 0.625);
    QCOMPARE(ciOverlap(1, 2, 0, 4), 0.625);
    // Disjoint: [0,1] and [3,5]: intersection width 1 − 3 = −2 → ½(−2/1 − 2/2) = −1.5.
    QCOMPARE(ciOverlap(0, 1, 3, 5), -1.5);
    // Touching: 0.
    QCOMPARE(ciOverlap(0, 1, 1, 2), 0.0);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ciOverlap(1, 1, 0, 2));
  }

  void identicalOutcomesGiveFullOverlapAndNoDifference() {
    const Eigen::VectorXd y = regUtilVec({1, 3, 2, 5, 4, 7});
    const Eigen::MatrixXd X = regUtilDesign(regUtilVec({1, 2, 3, 4, 5, 6}));
    const auto r = compareRegressions(y, y, X, {"(Intercept)", "x"}, RegressionFamily::normal);
    QCOMPARE(r.coefficients.size(), std::size_t(2));
    QVERIFY(std::abs(r.meanOverlap - 1.0) < 1e-12);
    QVERIFY(r.maxStandardized < 1e-9);
  }

  void standardizedDifferenceIsInConfidentialSe() {
    // Synthetic y = confidential y + 1: same slope and se, intercept moved by 1.
    const Eigen::VectorXd y = regUtilVec({1, 3, 2, 5, 4});
    const Eigen::MatrixXd X = regUtilDesign(regUtilVec({1, 2, 3, 4, 5}));
    const Eigen::VectorXd ys = (y.array() + 1.0).matrix();
    const auto r = compareRegressions(y, ys, X, {"(Intercept)", "x"}, RegressionFamily::normal);
    QVERIFY(std::abs(r.coefficients[0].standardized - 1.0 / std::sqrt(1.32)) < 1e-9);
    QVERIFY(r.coefficients[1].standardized < 1e-9);
    QVERIFY(std::abs(r.maxStandardized - 1.0 / std::sqrt(1.32)) < 1e-9);
    // Same widths w = 2·1.96·sqrt(1.32), centres 1 apart: overlap (w − 1)/w.
    const double w = 2 * 1.959963984540054 * std::sqrt(1.32);
    QVERIFY(std::abs(r.coefficients[0].overlap - (w - 1) / w) < 1e-9);
    QVERIFY(std::abs(r.meanOverlap - 0.5 * (1 + (w - 1) / w)) < 1e-9);
  }

  void pmseIsZeroForIdenticalData() {
    const Eigen::VectorXd y = regUtilVec({1, 3, 2, 5, 4, 7});
    const Eigen::MatrixXd X = regUtilDesign(regUtilVec({1, 0, 1, 0, 1, 1}));
    QVERIFY(pmse(y, X, y, X) < 1e-20);
  }

  void pmseOfATinyHandCase() {
    // Intercept-only design, y binary: conf y = (0, 0, 1, 1), syn y = (1, 1, 1, 0).
    // The logistic fit on (1, y) is saturated: p̂ = share of synthetic rows among rows with the
    // same y: y = 0 → 1/3, y = 1 → 3/5. c = 1/2.
    // pMSE = (3 (1/3 − 1/2)² + 5 (3/5 − 1/2)²) / 8 = (3/36 + 5/100) / 8 = 1/60.
    const Eigen::VectorXd yc = regUtilVec({0, 0, 1, 1});
    const Eigen::VectorXd ys = regUtilVec({1, 1, 1, 0});
    const Eigen::MatrixXd X = Eigen::MatrixXd::Ones(4, 1);
    // The fit's ridge penalty (10^-6) moves it by far less than the tolerance.
    QVERIFY(std::abs(pmse(yc, X, ys, X) - 1.0 / 60.0) < 1e-7);
  }

  /// A separable pair (every synthetic y above every confidential one): the unpenalised fit
  /// has no maximum and once fell back to p̂ = c, pMSE ≈ 1e-32. The penalised fit puts p̂
  /// near 0 and 1: pMSE near its maximum c(1 − c) = 1/4.
  void pmseOfSeparableFilesIsLarge() {
    Eigen::VectorXd yc(200), ys(200);
    Eigen::VectorXd g(200);
    for (int i = 0; i < 200; ++i) {
      yc[i] = std::sin(0.3 * i);
      ys[i] = 1000.0 + std::cos(0.7 * i);
      g[i] = i % 3 == 0 ? 1.0 : 0.0;
    }
    const Eigen::MatrixXd X = regUtilDesign(g);
    const double separated = pmse(yc, X, ys, X);
    QVERIFY2(separated > 0.2 && separated <= 0.25, qPrintable(QString::number(separated)));
    const Eigen::MatrixXd one = Eigen::MatrixXd::Ones(200, 1);
    QVERIFY(pmse(yc, one, ys, one) > 0.2);
    // The same files interleaved are near 0.
    QVERIFY(pmse(yc, X, Eigen::VectorXd(yc.reverse()), X) < 0.01);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             pmse(yc, X, Eigen::VectorXd::Constant(200, std::nan("")), X));
  }

  void groupMeansPerLevel() {
    // Covariate g with levels a (reference), b, c; a numeric column is skipped.
    Eigen::MatrixXd X(6, 4);
    X << 1, 0, 0, 5,  //
        1, 1, 0, 6,   //
        1, 0, 1, 7,   //
        1, 0, 0, 8,   //
        1, 1, 0, 9,   //
        1, 1, 0, 10;
    const Eigen::VectorXd yc = regUtilVec({1, 2, 3, 4, 5, 6});
    const Eigen::VectorXd ys = regUtilVec({1, 1, 1, 1, 1, 1});
    const auto g = groupMeans(yc, ys, X, {"(Intercept)", "g=b", "g=c", "x"}, {{"g", "a"}});
    QCOMPARE(g.size(), std::size_t(3));
    QCOMPARE(g[0].level, std::string("a"));
    QCOMPARE(g[0].records, std::size_t(2));
    QCOMPARE(g[0].confidential, 2.5);
    QCOMPARE(g[1].level, std::string("b"));
    QCOMPARE(g[1].confidential, 13.0 / 3.0);
    QCOMPARE(g[2].level, std::string("c"));
    QCOMPARE(g[2].confidential, 3.0);
    for (const auto& level : g) QCOMPARE(level.synthetic, 1.0);
    const auto all = measureCovariateUtility(yc, ys, X, {"(Intercept)", "g=b", "g=c", "x"},
                                             RegressionFamily::normal);
    QVERIFY(all.maxGroupMeanDiff.has_value());
    QVERIFY(std::abs(*all.maxGroupMeanDiff - 10.0 / 3.0) < 1e-12);
    QCOMPARE(all.groups[0].level, std::string("(reference)"));
    // Numeric covariates only: no group means.
    const auto none = measureCovariateUtility(yc, ys, regUtilDesign(regUtilVec({1, 2, 3, 4, 5, 7})),
                                              {"(Intercept)", "x"}, RegressionFamily::normal);
    QVERIFY(!none.maxGroupMeanDiff.has_value());
    QVERIFY(none.groups.empty());
  }
};

QTEST_APPLESS_MAIN(RegressionUtilityTest)
#include "regression_utility_test.moc"
