/// The exact sampler's envelope is only as good as its cell bounds: a bound below the target
/// anywhere makes every draw from that region inexact, silently. These tests draw many random
/// problems (family, outcomes, weights, clamp), many random boxes (bounded, unbounded, huge,
/// tiny, at the supports' edges) and many points in each, and check
/// lower <= ℓ(θ) <= upper at every point, with no tolerance beyond the bound's own margin. They
/// also check that ℓ is the model's clamped log pseudo-likelihood (models::makeModel) plus the
/// stated prior ratio, so that the sampler targets what MCMC targets.
#include <QtTest>
#include <cmath>
#include <limits>
#include <vector>

#include "core/data/dataset.h"
#include "core/models/model.h"
#include "core/privacy/cell_target.h"
#include "core/privacy/location_prior.h"
#include "core/random/rng.h"

using namespace dpsynth::core;
using namespace dpsynth::core::privacy;
using models::Family;

namespace {

constexpr double kBoundsInf = std::numeric_limits<double>::infinity();

/// Outcomes of a random problem: counts (some repeated, some large), beta values (some near 0
/// and 1), normal values on a random scale.
Eigen::VectorXd randomOutcomes(Family family, int n, random::Rng& rng) {
  Eigen::VectorXd y(n);
  const double spread = std::exp(4.0 * random::uniform01(rng) - 1.0);
  const double centre = 10.0 * random::standardNormal(rng);
  for (int i = 0; i < n; ++i) {
    switch (family) {
      case Family::poisson:
      case Family::negbin: {
        const double mean = std::exp(6.0 * random::uniform01(rng) - 2.0);
        y[i] = static_cast<double>(
            random::negativeBinomial(rng, mean, 0.5 + 5 * random::uniform01(rng)));
        break;
      }
      case Family::beta: {
        const double u = random::uniform01(rng);
        y[i] = u < 0.1 ? 1e-6 * random::uniformOpen01(rng)
                       : (u > 0.9 ? 1.0 - 1e-6 * random::uniformOpen01(rng)
                                  : random::beta(rng, 0.5 + 3 * random::uniform01(rng), 2.0));
        break;
      }
      case Family::normal:
        y[i] = centre + spread * random::standardNormal(rng);
        break;
    }
  }
  return y;
}

ExactProblem randomProblem(Family family, random::Rng& rng) {
  ExactProblem p;
  p.family = family;
  const int sizes[] = {1, 3, 12, 60};
  const int n = sizes[random::uniformIndex(rng, 4)];
  p.y = randomOutcomes(family, n, rng);
  if (random::uniform01(rng) < 0.5) {
    for (int i = 0; i < n; ++i) {
      const double u = random::uniform01(rng);
      p.alpha.push_back(u < 0.1 ? 0.0 : (u > 0.8 ? 1.0 : random::uniform01(rng)));
    }
  }
  const double u = random::uniform01(rng);
  const double width = u < 0.2 ? 1e4 : std::exp(6.0 * random::uniform01(rng) - 3.0);
  p.lower = -width;
  p.upper = models::isCountFamily(family) ? 0.0 : width * random::uniform01(rng);
  p.sdScale = std::exp(4.0 * random::uniform01(rng) - 2.0);
  return p;
}

/// An interval of an axis: the whole support, a tail, a random piece, or a tiny piece.
std::pair<double, double> randomInterval(const PriorAxis& axis, random::Rng& rng) {
  const double lowest = axis.lowest(), highest = axis.highest();
  auto at = [&](double q) { return axis.draw(lowest, highest, q); };
  const double kind = random::uniform01(rng);
  if (kind < 0.05) return {lowest, highest};
  if (kind < 0.15) return {lowest, at(random::uniform01(rng))};
  if (kind < 0.25) return {at(random::uniform01(rng)), highest};
  if (kind < 0.3) return {lowest, at(1e-12 * random::uniformOpen01(rng))};
  if (kind < 0.35) return {at(1.0 - 1e-9 * random::uniformOpen01(rng)), highest};
  if (kind < 0.38) {  // far out, where squares and exponentials overflow
    const double far = std::pow(10.0, 150.0 + 150.0 * random::uniform01(rng));
    if (axis.kind() == PriorAxis::Kind::cauchy && random::uniform01(rng) < 0.5)
      return {lowest, -far};
    if (axis.kind() == PriorAxis::Kind::unit) return {1.0 - 1e-16, highest};
    return {far, highest};
  }
  double a = at(random::uniform01(rng)), b = at(random::uniform01(rng));
  if (kind < 0.7) {
    // Tiny: a relative width of 10^-1 .. 10^-9 of the base probability around a point.
    const double q = random::uniformOpen01(rng);
    const double w = std::pow(10.0, -1.0 - 8.0 * random::uniform01(rng));
    a = at(std::max(0.0, q - w));
    b = at(std::min(1.0, q + w));
  }
  if (a > b) std::swap(a, b);
  if (!(a < b)) b = axis.draw(a, highest, 0.5);
  return {a, b};
}

/// A point near where the likelihood peaks (moment estimates), on the target's axes.
Point centreOf(const ExactProblem& p) {
  const double mean = p.y.mean();
  const double var = p.y.size() > 1 ? (p.y.array() - mean).square().sum() / (p.y.size() - 1) : 1.0;
  switch (p.family) {
    case Family::poisson:
      return {std::log(std::max(mean, 0.1)), 0.0};
    case Family::negbin:
      return {std::log(std::max(mean, 0.1)),
              std::clamp((var - mean) / std::max(mean * mean, 0.01), 0.01, 10.0)};
    case Family::beta:
      return {std::clamp(mean, 0.01, 0.99),
              std::clamp(mean * (1 - mean) / std::max(var, 1e-6) - 1.0, 0.5, 1e4)};
    case Family::normal:
      return {mean, std::sqrt(std::max(var, 1e-6))};
  }
  return {};
}

/// An interval of relative width 10^-4 .. 10^-0.5 around a value of the axis: where the
/// likelihood is peaked the mean-value form is the bound that binds, so its errors show here.
std::pair<double, double> intervalAround(const PriorAxis& axis, double centre, random::Rng& rng) {
  const double w = std::pow(10.0, -0.5 - 3.5 * random::uniform01(rng));
  const double shift = (random::uniform01(rng) - 0.5) * w;
  if (axis.kind() == PriorAxis::Kind::cauchy) {
    const double scale = 1.0 + std::abs(centre);
    return {centre + (shift - w) * scale, centre + (shift + w) * scale};
  }
  if (axis.kind() == PriorAxis::Kind::unit) {
    const double lo = std::clamp(centre * std::exp(shift - w), 1e-9, 1.0 - 2e-9);
    return {lo, std::clamp(centre * std::exp(shift + w), lo + 1e-9, 1.0 - 1e-9)};
  }
  return {centre * std::exp(shift - w), centre * std::exp(shift + w)};
}

/// The model's clamped log pseudo-likelihood at θ, through makeModel and recordLogLik.
double modelClampedSum(const ExactProblem& p, const models::SynthesisModel& model,
                       const Eigen::VectorXd& u) {
  Eigen::VectorXd f(p.y.size());
  model.recordLogLik(u, f);
  double sum = 0.0;
  for (Eigen::Index i = 0; i < f.size(); ++i) {
    const double a = p.alpha.empty() ? 1.0 : p.alpha[static_cast<std::size_t>(i)];
    if (a == 0.0) continue;
    sum += std::clamp(a * f[i], p.lower, p.upper);
  }
  return sum;
}

double priorRatio(const ExactProblem& p, double beta) {
  switch (p.family) {
    case Family::poisson:
      return LocationPrior::normal(10.0).logRatio(beta);
    case Family::negbin:
      return LocationPrior::negbinIntercept().logRatio(beta);
    case Family::normal:
      return LocationPrior::normal(10.0 * p.sdScale).logRatio(beta);
    case Family::beta:
      return 0.0;
  }
  return 0.0;
}

}  // namespace

class CellBoundsTest : public QObject {
  Q_OBJECT

 private:
  void checkFamily(Family family, std::uint64_t seed) {
    random::Rng rng = random::makeRng(seed);
    long checks = 0, meanValueTight = 0;
    for (int problem = 0; problem < 40; ++problem) {
      const ExactProblem p = randomProblem(family, rng);
      const auto target = makeCellTarget(p);
      const Point centre = centreOf(p);
      for (int b = 0; b < 150; ++b) {
        Box box;
        const bool peaked = b % 2 == 0;
        for (int j = 0; j < target->dim(); ++j) {
          const auto [lo, hi] =
              peaked ? intervalAround(target->axis(j), centre[static_cast<std::size_t>(j)], rng)
                     : randomInterval(target->axis(j), rng);
          box.lo[static_cast<std::size_t>(j)] = lo;
          box.hi[static_cast<std::size_t>(j)] = hi;
        }
        const BoxBound bound = target->bound(box);
        QVERIFY2(!std::isnan(bound.upper) && !std::isnan(bound.lower),
                 qPrintable(QString("NaN bound on [%1, %2] x [%3, %4]")
                                .arg(box.lo[0], 0, 'g', 17)
                                .arg(box.hi[0], 0, 'g', 17)
                                .arg(box.lo[1], 0, 'g', 17)
                                .arg(box.hi[1], 0, 'g', 17)));
        QVERIFY(bound.upper < kBoundsInf);
        double top = -kBoundsInf;
        for (int k = 0; k < 25; ++k) {
          Point theta{};
          bool ok = true;
          for (int j = 0; j < target->dim(); ++j) {
            const auto jj = static_cast<std::size_t>(j);
            // The ends too (where finite): a bound that misses a corner is caught there.
            const double u = k == 0 ? 1e-15 : (k == 1 ? 1.0 - 1e-15 : random::uniformOpen01(rng));
            theta[jj] = target->axis(j).draw(box.lo[jj], box.hi[jj], u);
            ok = ok && std::isfinite(theta[jj]) &&
                 (target->axis(j).kind() == PriorAxis::Kind::cauchy || theta[jj] > 0.0) &&
                 (target->axis(j).kind() != PriorAxis::Kind::unit || theta[jj] < 1.0);
          }
          if (!ok) continue;
          const double l = target->logTarget(theta);
          // The model's own arithmetic gives NaN where two huge parameters meet (σ and μ both
          // beyond 1e150, λ beyond 1e250): the sampler redraws such points (exact_sampler.h).
          if (std::isnan(l) && std::max(std::abs(theta[0]), std::abs(theta[1])) > 1e150) continue;
          QVERIFY2(!std::isnan(l), "NaN target");
          top = std::max(top, l);
          if (!(l <= bound.upper) || !(l >= bound.lower)) {
            QFAIL(qPrintable(QString("%1: problem %2 box [%3, %4] x [%5, %6]: l(%7, %8) = %9 "
                                     "outside [%10, %11]")
                                 .arg(QString::fromStdString(models::familyName(family)))
                                 .arg(problem)
                                 .arg(box.lo[0], 0, 'g', 17)
                                 .arg(box.hi[0], 0, 'g', 17)
                                 .arg(box.lo[1], 0, 'g', 17)
                                 .arg(box.hi[1], 0, 'g', 17)
                                 .arg(theta[0], 0, 'g', 17)
                                 .arg(theta[1], 0, 'g', 17)
                                 .arg(l, 0, 'g', 17)
                                 .arg(bound.lower, 0, 'g', 17)
                                 .arg(bound.upper, 0, 'g', 17)));
          }
          ++checks;
        }
        if (std::isfinite(top) && bound.upper - top < 1e-2 * (1.0 + std::abs(top)))
          ++meanValueTight;
      }
    }
    qInfo("%s: %ld points checked, %ld boxes with a bound within 1%% of the best point",
          models::familyName(family).c_str(), checks, meanValueTight);
    QVERIFY(checks > 100000);
    // The bounds are not merely valid but tight on the small boxes (a bound of +∞ would pass
    // the check above).
    QVERIFY(meanValueTight > 1000);
  }

  void checkAgainstModel(Family family, std::uint64_t seed) {
    random::Rng rng = random::makeRng(seed);
    for (int problem = 0; problem < 30; ++problem) {
      const ExactProblem p = randomProblem(family, rng);
      const auto target = makeCellTarget(p);
      data::Dataset data;
      data.family = family;
      data.y = p.y;
      data.X = Eigen::MatrixXd::Ones(p.y.size(), 1);
      data.designNames = {"(Intercept)"};
      models::ModelSpec spec;
      spec.family = family;
      spec.sdScale = p.sdScale;
      const auto model = models::makeModel(data, spec, {p.alpha, p.lower, p.upper});
      for (int k = 0; k < 50; ++k) {
        Point theta{};
        for (int j = 0; j < target->dim(); ++j) {
          const PriorAxis& axis = target->axis(j);
          theta[static_cast<std::size_t>(j)] =
              axis.draw(axis.lowest(), axis.highest(), 0.02 + 0.96 * random::uniform01(rng));
        }
        const Eigen::VectorXd u = target->unconstrained(theta, rng);
        QCOMPARE(u.size(), static_cast<Eigen::Index>(model->dim()));
        const double want = modelClampedSum(p, *model, u) + priorRatio(p, theta[0]);
        const double got = target->logTarget(theta);
        QVERIFY2(std::abs(got - want) <= 1e-9 * (1.0 + std::abs(want)),
                 qPrintable(QString("%1 vs %2").arg(got, 0, 'g', 17).arg(want, 0, 'g', 17)));
      }
    }
  }

 private slots:
  void poissonBoundsHoldEverywhere() { checkFamily(Family::poisson, 11); }
  void negbinBoundsHoldEverywhere() { checkFamily(Family::negbin, 12); }
  void betaBoundsHoldEverywhere() { checkFamily(Family::beta, 13); }
  void normalBoundsHoldEverywhere() { checkFamily(Family::normal, 14); }

  void targetIsTheModelsClampedLikelihoodPlusThePriorRatio() {
    for (Family f : {Family::poisson, Family::negbin, Family::beta, Family::normal})
      checkAgainstModel(f, 20 + static_cast<std::uint64_t>(f));
  }

  void invalidProblemsAreRefused() {
    ExactProblem p;
    p.family = Family::poisson;
    p.y = Eigen::VectorXd::Constant(3, 1.5);  // not counts
    p.lower = -1.0;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, makeCellTarget(p));
    p.y = Eigen::VectorXd::Constant(3, 1.0);
    p.lower = 0.5;  // L must be < 0
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, makeCellTarget(p));
    p.lower = -1.0;
    p.alpha = {1.0, 2.0, 0.5};
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, makeCellTarget(p));
    p.family = Family::beta;
    p.alpha.clear();
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, makeCellTarget(p));  // y = 1 is outside (0, 1)
  }
};

QTEST_APPLESS_MAIN(CellBoundsTest)
#include "cell_bounds_test.moc"
