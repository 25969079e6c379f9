/// The fused log Γ + ψ of the beta regression's gradient against Boost.Math's separate
/// functions in long double, from 1e-300 to 1e12: log Γ to 1e-14 absolute (the log-likelihood
/// is a sum of them) and ψ to 1e-14 relative away from its zero near 1.4616 (absolute there);
/// the same for the block version that the beta regression's gradient runs in packets.
#include "core/models/special_math.h"

#include <QtTest>
#include <boost/math/special_functions/digamma.hpp>
#include <boost/math/special_functions/gamma.hpp>
#include <cmath>
#include <vector>

class SpecialMathTest : public QObject {
  Q_OBJECT

 private slots:
  void fusedLogGammaDigammaMatchesBoost() {
    int checked = 0;
    for (double x = 1e-300; x < 1e12; x *= 1.37) {
      for (double y : {x, 1.0 + x * 1e-3, 2.0 - x * 1e-3}) {
        if (!(y > 0.0)) continue;
        double psi = 0.0;
        const double lg = dpsynth::core::models::detail::logGammaDigamma(y, psi);
        const long double wantLg = boost::math::lgamma(static_cast<long double>(y));
        const long double wantPsi = boost::math::digamma(static_cast<long double>(y));
        const double lgTol = 1e-14 * std::max(1.0, std::abs(static_cast<double>(wantLg)));
        QVERIFY2(std::abs(lg - static_cast<double>(wantLg)) <= lgTol,
                 qPrintable(QString("lgamma(%1): %2 vs %3")
                                .arg(y, 0, 'g', 17)
                                .arg(lg, 0, 'g', 17)
                                .arg(static_cast<double>(wantLg), 0, 'g', 17)));
        const double psiTol = 1e-14 * std::max(1.0, std::abs(static_cast<double>(wantPsi)));
        QVERIFY2(std::abs(psi - static_cast<double>(wantPsi)) <= psiTol,
                 qPrintable(QString("digamma(%1): %2 vs %3")
                                .arg(y, 0, 'g', 17)
                                .arg(psi, 0, 'g', 17)
                                .arg(static_cast<double>(wantPsi), 0, 'g', 17)));
        ++checked;
      }
    }
    QVERIFY(checked > 3000);
  }

  /// The block version (every lane shifted by ten) to the same tolerances, up to 1e12.
  void blockLogGammaDigammaMatchesBoost() {
    std::vector<double> xs;
    for (double x = 1e-300; x < 1e12; x *= 1.37) xs.push_back(x);
    for (double x : {1.0, 2.0, 1.4616321449683623, 9.999, 10.0, 10.5}) xs.push_back(x);
    while (xs.size() % 4 != 0) xs.push_back(3.0);
    const auto n = static_cast<Eigen::Index>(xs.size());
    Eigen::ArrayXd lg(n), psi(n);
    dpsynth::core::models::detail::logGammaDigammaBlock(xs.data(), xs.size(), lg.data(),
                                                        psi.data());
    for (Eigen::Index i = 0; i < n; ++i) {
      const long double y = xs[std::size_t(i)];
      const double wantLg = static_cast<double>(boost::math::lgamma(y));
      const double wantPsi = static_cast<double>(boost::math::digamma(y));
      QVERIFY2(std::abs(lg[i] - wantLg) <= 1e-14 * std::max(1.0, std::abs(wantLg)),
               qPrintable(QString("lgamma(%1): %2 vs %3")
                              .arg(xs[std::size_t(i)], 0, 'g', 17)
                              .arg(lg[i], 0, 'g', 17)
                              .arg(wantLg, 0, 'g', 17)));
      QVERIFY2(std::abs(psi[i] - wantPsi) <= 1e-14 * std::max(1.0, std::abs(wantPsi)),
               qPrintable(QString("digamma(%1): %2 vs %3")
                              .arg(xs[std::size_t(i)], 0, 'g', 17)
                              .arg(psi[i], 0, 'g', 17)
                              .arg(wantPsi, 0, 'g', 17)));
    }
  }
};

QTEST_APPLESS_MAIN(SpecialMathTest)
#include "special_math_test.moc"
