#include "core/privacy/weights.h"

#include <QtTest>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/privacy/lipschitz.h"
#include "core/random/rng.h"
#include "support/fake_synthesis_model.h"

using namespace dpsynth::core;
using namespace dpsynth::core::privacy;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

Eigen::VectorXd vec(std::initializer_list<double> values) {
  Eigen::VectorXd v(static_cast<Eigen::Index>(values.size()));
  Eigen::Index i = 0;
  for (double x : values) v[i++] = x;
  return v;
}

bool near(const std::vector<double>& got, const std::vector<double>& want, double tol = 1e-12) {
  if (got.size() != want.size()) return false;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (std::abs(got[i] - want[i]) > tol) {
      qWarning("index %zu: got %.17g, want %.17g", i, got[i], want[i]);
      return false;
    }
  }
  return true;
}

}  // namespace

class WeightsTest : public QObject {
  Q_OBJECT

 private slots:
  void lwHandComputed() {
    // f = {1,3,5,2,9}: min 1, range 8, so f~ = {0, .25, .5, .125, 1}.
    const Eigen::VectorXd f = vec({1, 3, 5, 2, 9});
    QVERIFY(near(lwWeights(f, 1.0, 0.0), {1.0, 0.75, 0.5, 0.875, 0.0}));
    // 0.8 (1 - f~) + 0.1
    QVERIFY(near(lwWeights(f, 0.8, 0.1), {0.9, 0.7, 0.5, 0.8, 0.1}));
    // 2 (1 - f~) - 0.5 = {1.5, 1, .5, 1.25, -.5}, clipped to [0, 1].
    QVERIFY(near(lwWeights(f, 2.0, -0.5), {1.0, 1.0, 0.5, 1.0, 0.0}));
    // g alone above 1 clips every weight to 1.
    QVERIFY(near(lwWeights(f, 0.0, 1.7), {1, 1, 1, 1, 1}));
  }

  void lwAllEqual() {
    // No spread: f~ == 0, so alpha = clamp(c + g).
    const Eigen::VectorXd f = vec({4, 4, 4, 4, 4});
    QVERIFY(near(lwWeights(f, 0.7, 0.2), {0.9, 0.9, 0.9, 0.9, 0.9}));
    QVERIFY(near(lwWeights(f, 1.0, 0.5), {1, 1, 1, 1, 1}));
    QVERIFY(lwWeights(Eigen::VectorXd(), 1.0, 0.0).empty());
  }

  void lwRejectsBadInput() {
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, lwWeights(vec({1, 2}), -0.1, 0.0));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, lwWeights(vec({1, 2}), kNaN, 0.0));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, lwWeights(vec({1, 2}), 1.0, kNaN));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, lwWeights(vec({1, kNaN}), 1.0, 0.0));
  }

  void cwHandComputed() {
    // y = {1,2,2,5,10}, r = 1 (inclusive): neighbours of 1 and 2 are {1,2,2}; 5 and 10 are
    // alone. IR = {2/5, 2/5, 2/5, 4/5, 4/5}.
    const Eigen::VectorXd y = vec({1, 2, 2, 5, 10});
    const Eigen::VectorXd ir = isolationRisk(y, 1.0, false);
    QVERIFY((ir - vec({0.4, 0.4, 0.4, 0.8, 0.8})).cwiseAbs().maxCoeff() < 1e-15);
    QVERIFY(near(cwWeights(y, 1.0, false, 1.0, 0.0), {0.6, 0.6, 0.6, 0.2, 0.2}));
    // Relative r = 0.5: radii {.5, 1, 1, 2.5, 5}: counts {1, 3, 3, 1, 2} -> IR {.8,.4,.4,.8,.6}.
    const Eigen::VectorXd rel = isolationRisk(y, 0.5, true);
    QVERIFY((rel - vec({0.8, 0.4, 0.4, 0.8, 0.6})).cwiseAbs().maxCoeff() < 1e-15);
    QVERIFY(near(cwWeights(y, 0.5, true, 1.0, 0.1), {0.3, 0.7, 0.7, 0.3, 0.5}));
    // Clipping: 3 (1 - IR) - 1 = {.8, .8, .8, -.4, -.4}.
    QVERIFY(near(cwWeights(y, 1.0, false, 3.0, -1.0), {0.8, 0.8, 0.8, 0.0, 0.0}));
  }

  void isolationRiskMatchesBruteForce() {
    random::Rng rng = random::makeRng(20240611);
    const int n = 500;
    Eigen::VectorXd y(n);
    for (int i = 0; i < n; ++i) {
      // Half on a coarse grid (many exact ties, distances exactly equal to the radius), half
      // continuous.
      y[i] = (i % 2 == 0) ? std::round(random::normal(rng, 0.0, 4.0)) * 0.5
                          : random::normal(rng, 0.0, 3.0);
    }
    for (bool relative : {false, true}) {
      for (double r : {0.0, 0.5, 1.0, 2.75}) {
        const double radius = relative ? r / 2.0 : r;
        const Eigen::VectorXd fast = isolationRisk(y, radius, relative);
        for (int i = 0; i < n; ++i) {
          const double ri = relative ? radius * std::abs(y[i]) : radius;
          int outside = 0;
          for (int j = 0; j < n; ++j) outside += std::abs(y[j] - y[i]) > ri ? 1 : 0;
          QCOMPARE(fast[i], static_cast<double>(outside) / n);
        }
      }
    }
  }

  void isolationRiskRejectsBadInput() {
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, isolationRisk(vec({1, 2}), -1.0, false));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, isolationRisk(vec({1, 2}), kNaN, false));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, isolationRisk(vec({1, kNaN}), 1.0, false));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, cwWeights(vec({1, 2}), 1.0, false, -1, 0));
  }

  void reweightHandComputed() {
    // Δ = 2, k = 0.9: 0.9*1*2/2 = .9; 0.9*.5*2/.5 = 1.8 -> 1; alpha 0 stays 0; Δ_i = 0 -> 1;
    // 0.9*.4*2/1 = .72.
    const std::vector<double> alpha = {1.0, 0.5, 0.0, 0.8, 0.4};
    const Eigen::VectorXd delta = vec({2.0, 0.5, 0.0, 0.0, 1.0});
    QVERIFY(near(reweight(alpha, delta, 0.9), {0.9, 1.0, 0.0, 1.0, 0.72}));
  }

  void reweightProperties() {
    random::Rng rng = random::makeRng(7);
    const int n = 400;
    std::vector<double> alpha(n);
    Eigen::VectorXd delta(n);
    for (int i = 0; i < n; ++i) {
      alpha[i] = (i % 7 == 0) ? 0.0 : random::uniform01(rng);
      delta[i] = (i % 11 == 0) ? 0.0 : 5.0 * random::uniform01(rng);
    }
    const double overall = delta.maxCoeff();
    for (double k : {0.3, 0.9, 0.95, 1.0}) {
      const std::vector<double> out = reweight(alpha, delta, k);
      QCOMPARE(out.size(), alpha.size());
      for (int i = 0; i < n; ++i) {
        QVERIFY(out[i] >= 0.0 && out[i] <= 1.0);
        if (alpha[i] == 0.0) {
          QCOMPARE(out[i], 0.0);
          continue;
        }
        QVERIFY(out[i] >= k * alpha[i]);  // Δ/Δ_i >= 1
        if (delta[i] <= k * overall) QVERIFY(out[i] >= alpha[i] * (1.0 - 1e-14));
        if (delta[i] == 0.0) QCOMPARE(out[i], 1.0);
      }
    }
  }

  void reweightFollowsOwnRecordBound() {
    // Fake model f_i(mu, log_tau) = -(y_i - mu)^2 e^{log_tau}/2 + log_tau/2; y = {0, 2, 3};
    // draws A = (0, 0), B = (3, 0). f under A = {0, -2, -4.5}, under B = {-4.5, -.5, 0}.
    // alpha = {.5, .2, .3}: |alpha f| under A = {0, .4, 1.35}, under B = {2.25, .1, 0}.
    // Δ_i = {2.25, .4, 1.35}, Δ = 2.25. Record 1 peaks under A, where the draw's maximum is
    // 1.35 (record 2), not its own .4.
    const std::vector<double> alpha = {0.5, 0.2, 0.3};
    dpsynth::test::FakeSynthesisModel model({0.0, 2.0, 3.0});
    Eigen::MatrixXd draws(2, 2);
    draws << 0.0, 0.0, 3.0, 0.0;
    const LipschitzResult lip = computeLipschitz(model, draws, alpha);
    QVERIFY((lip.perRecord - vec({2.25, 0.4, 1.35})).cwiseAbs().maxCoeff() < 1e-12);
    QVERIFY((lip.perDrawMax - vec({1.35, 2.25})).cwiseAbs().maxCoeff() < 1e-12);
    // k = .5: {.5*.5*1, .5*.2*2.25/.4, .5*.3*2.25/1.35} = {.25, .5625, .25}. Using the
    // per-draw maximum of draw A for record 1 would give .5*.2*2.25/1.35 = .1667 instead.
    QVERIFY(near(reweight(alpha, lip.perRecord, 0.5), {0.25, 0.5625, 0.25}));
  }

  void reweightRejectsBadInput() {
    const std::vector<double> alpha = {0.5, 0.5};
    const Eigen::VectorXd delta = vec({1.0, 2.0});
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, reweight(alpha, delta, 0.0));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, reweight(alpha, delta, 1.01));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, reweight(alpha, delta, kNaN));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, reweight(alpha, vec({1.0}), 0.9));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, reweight({0.5, 1.5}, delta, 0.9));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, reweight(alpha, vec({1.0, -1.0}), 0.9));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, reweight(alpha, vec({1.0, kNaN}), 0.9));
  }

  void truncateAboveExactlyAboveHalfEpsilon() {
    const std::vector<double> alpha = {1.0, 0.5, 0.3, 0.8, 0.6};
    const Eigen::VectorXd delta = vec({1.0, 2.0, 2.5, std::nextafter(2.5, 3.0), 3.0});
    std::size_t truncated = 99;
    const std::vector<double> out = truncateAbove(alpha, delta, 2.5, &truncated);
    // Δ_i == ε/2 is kept; only strictly greater is set to 0.
    QVERIFY(near(out, {1.0, 0.5, 0.3, 0.0, 0.0}, 0.0));
    QCOMPARE(truncated, std::size_t{2});
    QVERIFY(near(truncateAbove(alpha, delta, 10.0), alpha, 0.0));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, truncateAbove(alpha, vec({1.0}), 2.5));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, truncateAbove(alpha, delta, 0.0));
  }

  void downscaleMultiplies() {
    QVERIFY(near(downscale({1.0, 0.5, 0.0}, 0.5), {0.5, 0.25, 0.0}, 0.0));
    QVERIFY(near(downscale({1.0, 0.3}, 1.0), {1.0, 0.3}, 0.0));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, downscale({1.0}, 0.0));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, downscale({1.0}, 1.5));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, downscale({1.0}, kNaN));
  }
};

QTEST_APPLESS_MAIN(WeightsTest)
#include "weights_test.moc"
