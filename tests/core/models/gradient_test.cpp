#include <QtTest>
#include <algorithm>
#include <cmath>
#include <vector>

#include "core/models/model.h"
#include "core/random/rng.h"
#include "support/finite_difference.h"
#include "support/model_fixtures.h"

using namespace dpsynth::core;
using dpsynth::test::finiteDifference;
using models::Family;

namespace {

constexpr double kRelTol = 1e-5;
constexpr int kPoints = 4;

/// Points around the model's start, jittered by N(0, 0.3²) per coordinate.
std::vector<Eigen::VectorXd> testPoints(const models::Model& model, std::uint64_t seed) {
  auto rng = random::makeRng(seed, 7);
  std::vector<Eigen::VectorXd> points;
  for (int p = 0; p < kPoints; ++p) {
    Eigen::VectorXd u = model.initialPoint();
    for (Eigen::Index j = 0; j < u.size(); ++j) u[j] += random::normal(rng, 0.0, 0.3);
    points.push_back(u);
  }
  return points;
}

bool gradientMatches(const models::Model& model, const Eigen::VectorXd& u, double h) {
  Eigen::VectorXd grad(model.dim());
  const double lp = model.logDensity(u, grad);
  if (!std::isfinite(lp)) {
    qWarning("log density not finite at the test point");
    return false;
  }
  bool ok = true;
  for (int j = 0; j < model.dim(); ++j) {
    const double fd = finiteDifference(model, u, j, h);
    if (std::abs(grad[j] - fd) > kRelTol * std::max(1.0, std::abs(grad[j]))) {
      qWarning("coordinate %d (%s): analytic %.12g, finite difference %.12g", j,
               model.parameterNames()[j].c_str(), grad[j], fd);
      ok = false;
    }
  }
  return ok;
}

/// Which records are clamped at u for bound M.
std::vector<int> clampPattern(const models::SynthesisModel& model, const Eigen::VectorXd& u,
                              const std::vector<double>& alpha, double bound) {
  Eigen::VectorXd f(model.records());
  model.recordLogLik(u, f);
  std::vector<int> pattern(alpha.size());
  for (std::size_t i = 0; i < alpha.size(); ++i) {
    const double v = alpha[i] * f[Eigen::Index(i)];
    pattern[i] = v > bound ? 1 : v < -bound ? -1 : 0;
  }
  return pattern;
}

/// A bound M in the widest gap of the middle half of the sorted |α_i f_i|, so that about half
/// the records are clamped and none sits near the kink. Returns {M, half gap}.
std::pair<double, double> chooseBound(const models::SynthesisModel& model, const Eigen::VectorXd& u,
                                      const std::vector<double>& alpha) {
  Eigen::VectorXd f(model.records());
  model.recordLogLik(u, f);
  std::vector<double> v;
  for (std::size_t i = 0; i < alpha.size(); ++i) {
    if (alpha[i] > 0) v.push_back(std::abs(alpha[i] * f[Eigen::Index(i)]));
  }
  std::sort(v.begin(), v.end());
  double best = 0.0, bound = 0.0;
  for (std::size_t i = v.size() / 4; i + 1 < 3 * v.size() / 4; ++i) {
    if (v[i + 1] - v[i] > best) {
      best = v[i + 1] - v[i];
      bound = 0.5 * (v[i] + v[i + 1]);
    }
  }
  return {bound, 0.5 * best};
}

}  // namespace

class GradientTest : public QObject {
  Q_OBJECT

 private slots:
  void matchesFiniteDifferences_data() {
    QTest::addColumn<int>("family");
    QTest::addColumn<int>("covariates");
    QTest::addColumn<bool>("weighted");
    for (Family f : {Family::poisson, Family::negbin, Family::beta, Family::normal}) {
      for (int k : {0, 2}) {
        for (bool w : {false, true}) {
          QTest::addRow("%s k=%d %s", models::familyName(f).c_str(), k,
                        w ? "weighted" : "unweighted")
              << int(f) << k << w;
        }
      }
    }
  }

  void matchesFiniteDifferences() {
    QFETCH(int, family);
    QFETCH(int, covariates);
    QFETCH(bool, weighted);
    const auto data = dpsynth::test::fixtureDataset(Family(family), 150, covariates, 11);
    models::LikelihoodWeights weights;
    if (weighted) weights.alpha = dpsynth::test::fixtureWeights(data.size(), 12);
    const auto model = models::makeModel(data, {}, weights);
    for (const auto& u : testPoints(*model, 13)) QVERIFY(gradientMatches(*model, u, 1e-4));
  }

  void censoredMatchesFiniteDifferences_data() { matchesFiniteDifferences_data(); }

  void censoredMatchesFiniteDifferences() {
    QFETCH(int, family);
    QFETCH(int, covariates);
    QFETCH(bool, weighted);
    const auto data = dpsynth::test::fixtureDataset(Family(family), 60, covariates, 21);
    std::vector<double> alpha(data.size(), 1.0);
    if (weighted) alpha = dpsynth::test::fixtureWeights(data.size(), 22);
    const auto probe = models::makeModel(data, {}, {alpha});
    for (const auto& u : testPoints(*probe, 23)) {
      // Not a structured binding: clang 14 (the sanitizer build) cannot capture one in a lambda.
      const auto chosen = chooseBound(*probe, u, alpha);
      const double bound = chosen.first, margin = chosen.second;
      QVERIFY2(margin > 1e-6, "no clear gap between clamped and unclamped records");
      const auto model = models::makeModel(data, {}, {alpha, -bound, bound});
      const auto pattern = clampPattern(*model, u, alpha, bound);
      QVERIFY(std::count(pattern.begin(), pattern.end(), 0) > 0);
      QVERIFY(std::count(pattern.begin(), pattern.end(), 0) < std::ptrdiff_t(pattern.size()));
      // The stencil must not cross a kink: shrink h until no record changes side.
      double h = 1e-4;
      auto stencilStable = [&](double step) {
        for (int j = 0; j < model->dim(); ++j) {
          for (double k : {-2.0, -1.0, 1.0, 2.0}) {
            Eigen::VectorXd v = u;
            v[j] += k * step;
            if (clampPattern(*model, v, alpha, bound) != pattern) return false;
          }
        }
        return true;
      };
      while (!stencilStable(h) && h > 1e-7) h /= 10;
      QVERIFY(stencilStable(h));
      QVERIFY(gradientMatches(*model, u, h));
    }
  }
};

QTEST_APPLESS_MAIN(GradientTest)
#include "gradient_test.moc"
