/// The vector regression kernels (AVX2 + FMA, AVX-512) against the generic code, for every
/// instruction set this CPU has (the others are skipped, not passed):
/// - e^x and log x against libm over the whole double range and at the special values (within
///   2 ulp; NaN, ±inf, 0 and subnormals as libm gives them);
/// - log Γ and ψ against Boost.Math in long double (1e-14, as the generic fused function);
/// - each family's uncensored regression log density and gradient against the generic pattern
///   pass at random points: full and partial packets, 8 columns (unrolled) and 20 (generic
///   loop), unequal weights, negbin with integrated scales and beta, to 1e-12 relative;
/// - the Lipschitz pass's per-pattern values: tiled as the pass tiles them and against generic;
/// - the Lipschitz fold against its definition (weights 0, NaN and infinite values, every length);
/// - a point where e^η overflows gives −inf from both paths.
#include "core/models/regression_kernels.h"

#include <QtTest>
#include <boost/math/special_functions/digamma.hpp>
#include <boost/math/special_functions/gamma.hpp>
#include <cmath>
#include <limits>
#include <vector>

#include "core/data/dataset.h"
#include "core/data/regression_samples.h"
#include "core/models/model.h"
#include "core/random/rng.h"

using namespace dpsynth::core;
using models::Family;
using models::kernels::Isa;

namespace {

/// The instruction sets to check on this CPU, widest last; generic is the reference.
std::vector<Isa> vectorIsas() {
  std::vector<Isa> out;
  for (Isa isa : {Isa::avx2, Isa::avx512}) {
    models::kernels::setIsaForTesting(isa);
    if (models::kernels::activeIsa() == isa) out.push_back(isa);
  }
  models::kernels::setIsaForTesting(Isa::avx512);
  return out;
}

double ulps(double got, double want) {
  if (got == want) return 0.0;
  const double spacing =
      std::nextafter(std::abs(want), std::numeric_limits<double>::infinity()) - std::abs(want);
  return std::abs(got - want) / spacing;
}

bool sameSpecial(double got, double want) {
  if (std::isnan(want)) return std::isnan(got);
  return got == want;
}

/// "isa f(x) = got, reference want": an elementary function's value against the reference's.
QString valueAgainst(Isa isa, const char* f, double x, double got, const char* reference,
                     double want) {
  return QString("%1 %2(%3) = %4, %5 %6")
      .arg(models::kernels::isaName(isa), f)
      .arg(x, 0, 'g', 17)
      .arg(got, 0, 'g', 17)
      .arg(reference)
      .arg(want, 0, 'g', 17);
}

/// An elementary function's values at x under each vector instruction set against libm's:
/// where libm's value is special (not finite, or 0 with zeroIsSpecial) the same special, else
/// errorOf(got, want) ≤ 2 in `unit`; prints the worst. Returns at the first failure.
template <class Values, class Libm, class Error>
void checkAgainstLibm(const char* f, const char* label, const char* unit,
                      const std::vector<double>& x, Values values, Libm libm, Error errorOf,
                      bool zeroIsSpecial = false) {
  for (Isa isa : vectorIsas()) {
    models::kernels::setIsaForTesting(isa);
    std::vector<double> got(x.size());
    QVERIFY(values(x.data(), x.size(), got.data()));
    double worst = 0.0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      const double want = libm(x[i]);
      if (!std::isfinite(want) || (zeroIsSpecial && want == 0.0)) {
        QVERIFY2(sameSpecial(got[i], want),
                 qPrintable(valueAgainst(isa, f, x[i], got[i], "libm", want)));
        continue;
      }
      const double err = errorOf(got[i], want);
      worst = std::max(worst, err);
      QVERIFY2(err <= 2.0, qPrintable(valueAgainst(isa, f, x[i], got[i], "libm", want) +
                                      QString(" (%1 %2)").arg(err).arg(unit)));
    }
    qInfo("%s %s: %zu values, worst %.2f %s", models::kernels::isaName(isa), label, x.size(), worst,
          unit);
  }
}

/// A regression dataset of n records with k columns: the survey design's columns and, beyond
/// eight, extra continuous ones of very different scales.
data::Dataset wideDataset(Family family, std::size_t n, int k, std::uint64_t seed) {
  data::Dataset d = data::surveyRegressionSample(family, n, seed);
  if (k <= d.X.cols()) return d;
  auto rng = random::makeRng(seed, 3);
  Eigen::MatrixXd X(d.X.rows(), k);
  X.leftCols(d.X.cols()) = d.X;
  for (Eigen::Index j = d.X.cols(); j < k; ++j) {
    const double scale = std::pow(10.0, static_cast<double>(j % 5) - 2.0);
    for (Eigen::Index i = 0; i < X.rows(); ++i) X(i, j) = scale * random::normal(rng, 0.0, 1.0);
  }
  std::vector<std::string> names = d.designNames;
  for (Eigen::Index j = d.X.cols(); j < k; ++j) {
    std::string name = "z";
    name += std::to_string(j);
    names.push_back(name);
  }
  return data::numericDataset(d.outcomeName, family, std::move(d.y), std::move(X), names);
}

/// logDensity and its gradient at u under the given instruction set.
double densityWith(Isa isa, const models::Model& model, const Eigen::VectorXd& u,
                   Eigen::VectorXd& grad) {
  models::kernels::setIsaForTesting(isa);
  grad.resize(model.dim());
  return model.logDensity(u, grad);
}

}  // namespace

class RegressionKernelsTest : public QObject {
  Q_OBJECT

 private slots:
  void cleanup() { models::kernels::setIsaForTesting(Isa::avx512); }

  void expMatchesLibm() {
    const auto isas = vectorIsas();
    if (isas.empty()) QSKIP("this CPU has neither AVX2 + FMA nor AVX-512");
    std::vector<double> x;
    for (double v = -745.5; v < 710.0; v += 0.0137) x.push_back(v);
    for (double v :
         {0.0, -0.0, 1e-300, -1e-300, 709.78, 709.79, -745.13, -745.14, -708.4,
          std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
          std::numeric_limits<double>::quiet_NaN(), 1e300, -1e300}) {
      x.push_back(v);
    }
    // Subnormal results carry fewer bits: compare them absolutely, in units of the smallest
    // subnormal.
    checkAgainstLibm(
        "exp", "exp", "ulp", x, models::kernels::expValues, [](double v) { return std::exp(v); },
        [](double got, double want) {
          return want < std::numeric_limits<double>::min()
                     ? std::abs(got - want) / std::numeric_limits<double>::denorm_min()
                     : ulps(got, want);
        },
        true);
  }

  void logMatchesLibm() {
    const auto isas = vectorIsas();
    if (isas.empty()) QSKIP("this CPU has neither AVX2 + FMA nor AVX-512");
    std::vector<double> x;
    for (double v = 1e-310; v < 1.7e308; v *= 1.0123) x.push_back(v);
    for (double v = 0.5; v < 2.0; v += 1.0 / 4096.0) x.push_back(v);
    for (double v :
         {1.0, std::nextafter(1.0, 2.0), std::nextafter(1.0, 0.0), 0.0, -0.0, -1.0,
          2.2250738585072014e-308, 1e-310, std::numeric_limits<double>::max(),
          std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
          std::numeric_limits<double>::quiet_NaN()}) {
      x.push_back(v);
    }
    for (Isa isa : isas) {
      models::kernels::setIsaForTesting(isa);
      std::vector<double> got(x.size());
      QVERIFY(models::kernels::logValues(x.data(), x.size(), got.data()));
      double worst = 0.0;
      for (std::size_t i = 0; i < x.size(); ++i) {
        const double want = std::log(x[i]);
        if (!std::isfinite(want)) {
          QVERIFY2(sameSpecial(got[i], want),
                   qPrintable(valueAgainst(isa, "log", x[i], got[i], "libm", want)));
          continue;
        }
        // Near x = 1 the value is tiny: measure against the value's own spacing, but never
        // finer than 1e-16 absolute (the error of log's argument reduction there).
        const double err =
            std::abs(want) < 1e-3 ? std::abs(got[i] - want) / 1e-19 : ulps(got[i], want);
        worst = std::max(worst, std::abs(want) < 1e-3 ? 0.0 : err);
        QVERIFY2(std::abs(want) < 1e-3
                     ? std::abs(got[i] - want) <= 2.3e-16 * std::abs(want) + 1e-300
                     : err <= 2.0,
                 qPrintable(valueAgainst(isa, "log", x[i], got[i], "libm", want)));
      }
      qInfo("%s log: %zu values, worst %.2f ulp", models::kernels::isaName(isa), x.size(), worst);
    }
  }

  /// Negbin's log1p(e^{−|d|}): e in [0, 1], every table centre and the edges between them.
  void log1pUnitMatchesLibm() {
    const auto isas = vectorIsas();
    if (isas.empty()) QSKIP("this CPU has neither AVX2 + FMA nor AVX-512");
    std::vector<double> x;
    for (double v = 1e-300; v < 1.0; v *= 1.01) x.push_back(v);
    for (double v = 0.0; v <= 1.0; v += 1.0 / 65536.0) x.push_back(v);
    for (int j = 0; j <= 32; ++j) {
      const double edge = j / 32.0;  // halfway between centres j/16, and the centres
      for (double y : {std::nextafter(edge, 0.0), edge, std::nextafter(edge, 1.0)}) {
        if (y >= 0.0 && y <= 1.0) x.push_back(y);
      }
    }
    checkAgainstLibm(
        "log1p", "log1p", "ulp", x, models::kernels::log1pUnitValues,
        [](double v) { return std::log1p(v); },
        [](double got, double want) { return want == 0.0 ? std::abs(got) : ulps(got, want); });
  }

  /// log Γ's log (of z ≥ 10 and of the shift's product, which may be tiny, huge, 0 or +inf):
  /// within 2 ulp of max(|log x|, log 2) everywhere, the specials as libm's. Measured against
  /// the value's own ulp, a table log that dropped e·log 2's low part (kLn2Lo) would fail.
  void logAbsoluteMatchesLibm() {
    const auto isas = vectorIsas();
    if (isas.empty()) QSKIP("this CPU has neither AVX2 + FMA nor AVX-512");
    std::vector<double> x;
    for (double v = 4e-324; v < 1.7e308; v = std::max(v * 1.0123, std::nextafter(v, 1.0e308))) {
      x.push_back(v);
    }
    for (double v = 0.5; v < 64.0; v += 1.0 / 1024.0) {
      x.push_back(v);
      x.push_back(std::nextafter(v, 0.0));
    }
    for (double v :
         {0.0, -0.0, -1.0, -1e-300, std::numeric_limits<double>::max(),
          std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
          std::numeric_limits<double>::quiet_NaN()}) {
      x.push_back(v);
    }
    checkAgainstLibm(
        "log", "log for log Γ", "ulp of max(|log x|, log 2)", x, models::kernels::logAbsoluteValues,
        [](double v) { return std::log(v); },
        [](double got, double want) {
          return std::abs(got - want) / (std::max(std::abs(want), std::log(2.0)) * 0x1p-52);
        });
  }

  void logGammaDigammaMatchesBoost() {
    const auto isas = vectorIsas();
    if (isas.empty()) QSKIP("this CPU has neither AVX2 + FMA nor AVX-512");
    std::vector<double> x;
    for (double v = 1e-300; v < 1e12; v *= 1.37) {
      for (double y : {v, 1.0 + v * 1e-3, 2.0 - v * 1e-3}) {
        if (y > 0.0) x.push_back(y);
      }
    }
    // Densely where log Γ(z) and log P cancel most (log Γ(x) is small and z = x + 10).
    for (double v = 1.0 / 4096.0; v < 16.0; v += 1.0 / 4096.0) x.push_back(v);
    for (Isa isa : isas) {
      models::kernels::setIsaForTesting(isa);
      std::vector<double> lg(x.size()), psi(x.size());
      QVERIFY(models::kernels::logGammaDigammaValues(x.data(), x.size(), lg.data(), psi.data()));
      double worstLg = 0.0, worstPsi = 0.0;
      for (std::size_t i = 0; i < x.size(); ++i) {
        const auto wantLg =
            static_cast<double>(boost::math::lgamma(static_cast<long double>(x[i])));
        const auto wantPsi =
            static_cast<double>(boost::math::digamma(static_cast<long double>(x[i])));
        QVERIFY2(std::abs(lg[i] - wantLg) <= 1e-14 * std::max(1.0, std::abs(wantLg)),
                 qPrintable(valueAgainst(isa, "lgamma", x[i], lg[i], "Boost", wantLg)));
        QVERIFY2(std::abs(psi[i] - wantPsi) <= 1e-14 * std::max(1.0, std::abs(wantPsi)),
                 qPrintable(valueAgainst(isa, "digamma", x[i], psi[i], "Boost", wantPsi)));
        worstLg = std::max(worstLg, std::abs(lg[i] - wantLg) / std::max(1.0, std::abs(wantLg)));
        worstPsi =
            std::max(worstPsi, std::abs(psi[i] - wantPsi) / std::max(1.0, std::abs(wantPsi)));
      }
      qInfo("%s log Γ and ψ: %zu values, worst %.2g and %.2g (of max(1, |value|); bound 1e-14)",
            models::kernels::isaName(isa), x.size(), worstLg, worstPsi);
    }
  }

  /// The values go a packet at a time: every length gives each value as the long call does,
  /// and nothing is written past the end.
  void logGammaDigammaAnyLength() {
    const auto isas = vectorIsas();
    if (isas.empty()) QSKIP("this CPU has neither AVX2 + FMA nor AVX-512");
    std::vector<double> x;
    for (int i = 0; i < 40; ++i) x.push_back(0.3 + 1.7 * i);
    for (Isa isa : isas) {
      models::kernels::setIsaForTesting(isa);
      std::vector<double> wantLg(x.size()), wantPsi(x.size());
      QVERIFY(models::kernels::logGammaDigammaValues(x.data(), x.size(), wantLg.data(),
                                                     wantPsi.data()));
      for (std::size_t n = 1; n <= x.size(); ++n) {
        const double sentinel = -12345.0;
        std::vector<double> lg(n + 1, sentinel), psi(n + 1, sentinel);
        QVERIFY(models::kernels::logGammaDigammaValues(x.data(), n, lg.data(), psi.data()));
        QCOMPARE(lg[n], sentinel);
        QCOMPARE(psi[n], sentinel);
        for (std::size_t i = 0; i < n; ++i) {
          QCOMPARE(lg[i], wantLg[i]);
          QCOMPARE(psi[i], wantPsi[i]);
          QVERIFY(std::abs(lg[i] - std::lgamma(x[i])) <= 1e-13 * std::max(1.0, std::abs(lg[i])));
        }
      }
    }
  }

  /// The Lipschitz fold against its definition, written out per record: every length from 0
  /// to 40 (full and partial packets), weights 0 (exactly 0 even against ±∞ and NaN), NaN
  /// values (unbounded), infinities, and earlier maxima above and below the new contributions;
  /// nothing past n is written.
  void foldContributionsMatchesTheDefinition() {
    const auto isas = vectorIsas();
    if (isas.empty()) QSKIP("this CPU has neither AVX2 + FMA nor AVX-512");
    constexpr double kInf = std::numeric_limits<double>::infinity();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    auto rng = random::makeRng(17, 0);
    std::vector<double> alpha, f, before;
    for (int i = 0; i < 40; ++i) {
      alpha.push_back(i % 7 == 3 ? 0.0 : random::uniform01(rng));
      f.push_back(random::normal(rng, 0.0, 30.0));
      before.push_back(i % 3 == 0 ? 0.0 : 20.0 * random::uniform01(rng));
    }
    f[3] = nan;  // weight 0: 0
    f[10] = -kInf;
    f[17] = nan;  // unbounded
    f[24] = kInf;
    f[31] = -0.0;
    alpha[38] = -0.0;
    for (Isa isa : isas) {
      models::kernels::setIsaForTesting(isa);
      for (std::size_t n = 0; n <= alpha.size(); ++n) {
        const double sentinel = -12345.0;
        std::vector<double> perGroup(before.begin(), before.begin() + static_cast<long>(n));
        perGroup.push_back(sentinel);
        double largest = -1.0;
        QVERIFY(models::kernels::foldContributions(alpha.data(), f.data(), n, perGroup.data(),
                                                   largest));
        QCOMPARE(perGroup[n], sentinel);
        double wantLargest = 0.0;
        for (std::size_t i = 0; i < n; ++i) {
          double c = alpha[i] == 0.0 ? 0.0 : std::abs(alpha[i] * f[i]);
          if (std::isnan(c)) c = kInf;
          wantLargest = std::max(wantLargest, c);
          const double want = std::max(before[i], c);
          QVERIFY2(perGroup[i] == want && !std::signbit(perGroup[i]),
                   qPrintable(QString("%1 n = %2, group %3: %4, want %5")
                                  .arg(models::kernels::isaName(isa))
                                  .arg(n)
                                  .arg(i)
                                  .arg(perGroup[i])
                                  .arg(want)));
        }
        QCOMPARE(largest, wantLargest);
      }
    }
  }

  void regressionPassMatchesGeneric_data() {
    QTest::addColumn<int>("family");
    QTest::addColumn<int>("records");
    QTest::addColumn<int>("columns");
    QTest::addColumn<int>("weighted");  // 0: none, 1: α in [0.05, 1], 2: a fifth of α = 0
    for (Family f : {Family::poisson, Family::negbin, Family::beta}) {
      const auto name = models::familyName(f);
      // n = 1500 puts the design's dummies in 12 cells (design_cells.h), n = 203 in 3.
      QTest::newRow((name + " n=1500 k=8").c_str()) << int(f) << 1500 << 8 << 0;
      QTest::newRow((name + " n=1500 k=8 some weights 0").c_str()) << int(f) << 1500 << 8 << 2;
      // 6200 records in 12 cells take the wide AVX-512 packets (four registers a value).
      QTest::newRow((name + " n=6200 k=12").c_str()) << int(f) << 6200 << 12 << 0;
      QTest::newRow((name + " n=6200 k=12 weighted").c_str()) << int(f) << 6200 << 12 << 1;
      QTest::newRow((name + " n=203 k=8 weighted").c_str()) << int(f) << 203 << 8 << 1;
      QTest::newRow((name + " n=37 k=20").c_str()) << int(f) << 37 << 20 << 0;
      QTest::newRow((name + " n=13 k=8").c_str()) << int(f) << 13 << 8 << 1;
    }
  }

  void regressionPassMatchesGeneric() {
    QFETCH(int, family);
    QFETCH(int, records);
    QFETCH(int, columns);
    QFETCH(int, weighted);
    const auto isas = vectorIsas();
    if (isas.empty()) QSKIP("this CPU has neither AVX2 + FMA nor AVX-512");
    const auto f = static_cast<Family>(family);
    const data::Dataset d = wideDataset(f, static_cast<std::size_t>(records), columns, 20261127);
    models::LikelihoodWeights weights;
    if (weighted != 0) {
      auto rng = random::makeRng(5, 1);
      for (int i = 0; i < records; ++i) {
        const double alpha = 0.05 + 0.95 * random::uniform01(rng);
        weights.alpha.push_back(weighted == 2 && random::uniform01(rng) < 0.2 ? 0.0 : alpha);
      }
    }
    const auto model = models::makeModel(d, {f, 1.0}, weights);
    auto rng = random::makeRng(11, 2);
    int compared = 0;
    for (int point = 0; point < 6; ++point) {
      // Coefficients moved by about 0.1 in η (each scaled by its column's range), the
      // family's other coordinates by 0.1 on the sampled scale.
      Eigen::VectorXd beta = model->constrain(model->initialPoint());
      for (Eigen::Index j = 0; j < d.X.cols(); ++j) {
        beta[j] += random::normal(rng, 0.0, 0.1) / std::max(1.0, d.X.col(j).cwiseAbs().maxCoeff());
      }
      Eigen::VectorXd u = model->unconstrain(beta);
      for (Eigen::Index j = d.X.cols(); j < u.size(); ++j) u[j] += random::normal(rng, 0.0, 0.1);
      Eigen::VectorXd want, got;
      const double lpWant = densityWith(Isa::generic, *model, u, want);
      QVERIFY(std::isfinite(lpWant));
      for (Isa isa : isas) {
        const double lp = densityWith(isa, *model, u, got);
        const QString where = QString("%1 point %2").arg(models::kernels::isaName(isa)).arg(point);
        QVERIFY2(
            std::abs(lp - lpWant) <= 1e-12 * std::max(1.0, std::abs(lpWant)),
            qPrintable(where + QString(": %1 vs %2").arg(lp, 0, 'g', 17).arg(lpWant, 0, 'g', 17)));
        const double scale = std::max(1.0, want.cwiseAbs().maxCoeff());
        for (Eigen::Index j = 0; j < u.size(); ++j) {
          QVERIFY2(std::abs(got[j] - want[j]) <= 1e-11 * scale,
                   qPrintable(where + QString(" coordinate %1: %2 vs %3")
                                          .arg(j)
                                          .arg(got[j], 0, 'g', 17)
                                          .arg(want[j], 0, 'g', 17)));
        }
        ++compared;
      }
    }
    QVERIFY(compared > 0);
  }

  /// The Lipschitz pass's per-pattern values: the same bits whether a range starts at a packet
  /// boundary or not, and the generic values to 1e-12; censored models too (their pass never
  /// uses the fused kernel, the values do).
  void patternValuesMatchGeneric() {
    const auto isas = vectorIsas();
    if (isas.empty()) QSKIP("this CPU has neither AVX2 + FMA nor AVX-512");
    for (Family f : {Family::poisson, Family::negbin, Family::beta}) {
      for (int variant = 0; variant < 3; ++variant) {
        // 301 records in short cells; 6200 in 12 cells of ~500 (the wide AVX-512 packets for the
        // whole range, the narrow ones for the tiles); censored.
        const bool censored = variant == 2;
        const std::size_t n = variant == 1 ? 6200 : 301;
        const data::Dataset d = wideDataset(f, n, censored ? 11 : 8, 7);
        models::LikelihoodWeights weights;
        if (censored) {
          weights.lower = -5.0;
          weights.upper = 0.0;
          if (f == Family::beta) weights.upper = 5.0;
        }
        const auto model = models::makeModel(d, {f, 1.0}, weights);
        const auto patterns = static_cast<Eigen::Index>(model->patternCount());
        const Eigen::VectorXd u = model->initialPoint();
        models::kernels::setIsaForTesting(Isa::generic);
        Eigen::VectorXd want(patterns);
        model->patternLogLik(u, 0, static_cast<std::size_t>(patterns), want);
        for (Isa isa : isas) {
          models::kernels::setIsaForTesting(isa);
          Eigen::VectorXd whole(patterns), tiled(patterns);
          model->patternLogLik(u, 0, static_cast<std::size_t>(patterns), whole);
          for (Eigen::Index b = 0; b < patterns; b += 7) {
            const Eigen::Index len = std::min<Eigen::Index>(7, patterns - b);
            model->patternLogLik(u, static_cast<std::size_t>(b), static_cast<std::size_t>(b + len),
                                 tiled.segment(b, len));
          }
          const QString where = QString("%1 %2%3")
                                    .arg(models::kernels::isaName(isa))
                                    .arg(QString::fromStdString(models::familyName(f)))
                                    .arg(censored ? " censored" : (n > 301 ? " n=6200" : ""));
          for (Eigen::Index p = 0; p < patterns; ++p) {
            QVERIFY2(tiled[p] == whole[p], qPrintable(where + QString(" pattern %1").arg(p)));
            QVERIFY2(std::abs(whole[p] - want[p]) <= 1e-12 * std::max(1.0, std::abs(want[p])),
                     qPrintable(where + QString(" pattern %1: %2 vs %3")
                                            .arg(p)
                                            .arg(whole[p], 0, 'g', 17)
                                            .arg(want[p], 0, 'g', 17)));
          }
        }
      }
    }
  }

  void overflowGivesMinusInfinity() {
    const auto isas = vectorIsas();
    if (isas.empty()) QSKIP("this CPU has neither AVX2 + FMA nor AVX-512");
    const data::Dataset d = data::surveyRegressionSample(Family::poisson, 100, 3);
    const auto model = models::makeModel(d, {Family::poisson, 1.0}, {});
    Eigen::VectorXd u = model->initialPoint();
    u.head(3).array() += 800.0;  // e^η overflows for every record
    Eigen::VectorXd grad;
    QCOMPARE(densityWith(Isa::generic, *model, u, grad), -std::numeric_limits<double>::infinity());
    for (Isa isa : isas) {
      QCOMPARE(densityWith(isa, *model, u, grad), -std::numeric_limits<double>::infinity());
    }
  }
};

QTEST_APPLESS_MAIN(RegressionKernelsTest)
#include "regression_kernels_test.moc"
