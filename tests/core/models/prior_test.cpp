#include <QtTest>
#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <functional>
#include <numbers>
#include <vector>

#include "core/models/model.h"
#include "support/model_fixtures.h"

using namespace dpsynth::core;
using models::Family;

/// With every weight 0 the pseudo posterior is the prior. Integrating exp(logDensity) over one
/// unconstrained coordinate (trapezoid rule on a wide, fine grid) and normalising must give the
/// documented prior of the constrained parameter, which checks the prior, the transform and its
/// log-Jacobian together.
namespace {

constexpr double kTol = 1e-4;

/// Normalised cumulative integral of exp(logDensity(t)) on a uniform grid over [lo, hi].
class GridCdf {
 public:
  GridCdf(const std::function<double(double)>& logDensity, double lo, double hi, int n)
      : lo_(lo), step_((hi - lo) / (n - 1)) {
    std::vector<double> logd(std::size_t(n), 0.0);
    for (int i = 0; i < n; ++i) logd[std::size_t(i)] = logDensity(lo + i * step_);
    const double top = *std::max_element(logd.begin(), logd.end());
    cdf_.assign(std::size_t(n), 0.0);
    for (int i = 1; i < n; ++i) {
      const double a = std::exp(logd[std::size_t(i - 1)] - top);
      const double b = std::exp(logd[std::size_t(i)] - top);
      cdf_[std::size_t(i)] = cdf_[std::size_t(i - 1)] + 0.5 * step_ * (a + b);
    }
    const double total = cdf_.back();
    for (auto& c : cdf_) c /= total;
  }

  /// Linear interpolation between grid points.
  double at(double t) const {
    const double x = (t - lo_) / step_;
    const auto i = std::size_t(std::clamp(std::floor(x), 0.0, double(cdf_.size() - 2)));
    const double w = x - double(i);
    return (1.0 - w) * cdf_[i] + w * cdf_[i + 1];
  }

 private:
  double lo_;
  double step_;
  std::vector<double> cdf_;
};

/// The prior as a model with every weight 0. Coefficient tests read β_j off coordinate j, which
/// is β_j in the direct form; the sampled forms of regressions (θ = R*β, negbin's z_j) are tied
/// to it by reparameterisation_test.
std::unique_ptr<models::SynthesisModel> priorOnly(
    Family family, int covariates, double sdScale = 1.0,
    models::Parameterisation form = models::Parameterisation::automatic) {
  const auto d = dpsynth::test::fixtureDataset(family, 20, covariates, 4);
  models::ModelSpec spec{family, sdScale};
  spec.parameterisation = form;
  return models::makeModel(d, spec, {std::vector<double>(d.size(), 0.0)});
}

/// Marginal CDF of coordinate j with the others held at the model's initial point.
GridCdf coordinateCdf(const models::Model& model, int j, double lo, double hi) {
  const Eigen::VectorXd start = model.initialPoint();
  return GridCdf(
      [&](double t) {
        Eigen::VectorXd u = start;
        u[j] = t;
        return model.logDensity(u);
      },
      lo, hi, 40001);
}

double normalCdf(double sd, double x) {
  return boost::math::cdf(boost::math::normal_distribution<>(0.0, sd), x);
}
double halfCauchyCdf(double scale, double x) {
  return 2.0 / std::numbers::pi * std::atan(x / scale);
}

bool close(double got, double want, const char* what) {
  if (std::abs(got - want) <= kTol) return true;
  qWarning("%s: quadrature %.8f, prior %.8f", what, got, want);
  return false;
}

}  // namespace

class PriorTest : public QObject {
  Q_OBJECT

 private slots:
  void normalSigmaIsHalfCauchy() {
    for (double scale : {1.0, 2.0}) {
      const auto model = priorOnly(Family::normal, 2, scale);
      const auto cdf = coordinateCdf(*model, 3, -40.0, 40.0);
      for (double x : {0.5, 5.0, 10.0, 80.0}) {
        QVERIFY(close(cdf.at(std::log(x)), halfCauchyCdf(5.0 * scale, x), "normal sigma"));
      }
    }
  }

  void normalBetaIsNormal() {
    const auto model = priorOnly(Family::normal, 2, 2.0, models::Parameterisation::direct);
    for (int j : {0, 2}) {
      const auto cdf = coordinateCdf(*model, j, -250.0, 250.0);
      for (double x : {-30.0, 0.0, 7.0, 25.0}) {
        QVERIFY(close(cdf.at(x), normalCdf(20.0, x), "normal beta"));
      }
    }
  }

  void poissonBetaIsNormal() {
    const auto model = priorOnly(Family::poisson, 1, 1.0, models::Parameterisation::direct);
    for (int j : {0, 1}) {
      const auto cdf = coordinateCdf(*model, j, -120.0, 120.0);
      for (double x : {-15.0, 0.0, 3.0, 12.0}) {
        QVERIFY(close(cdf.at(x), normalCdf(10.0, x), "poisson beta"));
      }
    }
  }

  void betaPhiIsUniform() {
    const auto model = priorOnly(Family::beta, 0);
    const auto cdf = coordinateCdf(*model, 0, -40.0, 40.0);
    for (double p : {0.05, 0.3, 0.5, 0.9}) {
      QVERIFY(close(cdf.at(std::log(p / (1.0 - p))), p, "beta phi"));
    }
  }

  void betaLambdaIsPareto() {
    for (int k : {0, 2}) {
      const auto model = priorOnly(Family::beta, k);
      const auto cdf = coordinateCdf(*model, k + 1, -40.0, 40.0);
      for (double x : {0.11, 0.3, 1.0, 20.0}) {
        QVERIFY(close(cdf.at(std::log(x - 0.1)), 1.0 - std::pow(0.1 / x, 1.5), "beta lambda"));
      }
    }
  }

  void betaRegressionCoefficientIsNormal() {
    const auto model = priorOnly(Family::beta, 2, 1.0, models::Parameterisation::direct);
    const auto cdf = coordinateCdf(*model, 1, -30.0, 30.0);
    for (double x : {-4.0, 0.5, 2.5}) {
      QVERIFY(close(cdf.at(x), normalCdf(2.5, x), "beta coefficient"));
    }
  }

  /// φ = 1/τ with τ ~ half-Cauchy(0, 5): P(φ ≤ x) = 1 − P(τ < 1/x).
  void negbinPhiIsInverseHalfCauchy() {
    const auto model = priorOnly(Family::negbin, 1);
    const int index = model->dim() - 1;
    const auto cdf = coordinateCdf(*model, index, -40.0, 40.0);
    for (double x : {0.05, 0.5, 3.0, 100.0}) {
      // φ ≤ x ⟺ log τ ≥ −log x.
      QVERIFY(close(1.0 - cdf.at(-std::log(x)), 1.0 - halfCauchyCdf(5.0, 1.0 / x), "negbin phi"));
    }
  }

  /// σ_j is half-Student-t(3, 0, 1) once β_j ~ Normal(0, σ_j) is integrated out (2-D quadrature).
  void negbinSigmaIsHalfStudentT() {
    const auto model = priorOnly(Family::negbin, 0);
    const Eigen::VectorXd start = model->initialPoint();
    const auto marginal = [&](double s) {
      const double sigma = std::exp(s);
      const int n = 241;
      const double lo = -12.0 * sigma, step = 24.0 * sigma / (n - 1);
      std::vector<double> logd(n);
      for (int i = 0; i < n; ++i) {
        Eigen::VectorXd u = start;
        u[0] = lo + i * step;
        u[1] = s;
        logd[std::size_t(i)] = model->logDensity(u);
      }
      const double top = *std::max_element(logd.begin(), logd.end());
      double sum = 0.0;
      for (int i = 0; i < n; ++i) {
        sum += (i == 0 || i == n - 1 ? 0.5 : 1.0) * std::exp(logd[std::size_t(i)] - top);
      }
      return top + std::log(sum * step);
    };
    const GridCdf cdf(marginal, -25.0, 15.0, 4001);
    const boost::math::students_t_distribution<> t3(3.0);
    for (double x : {0.1, 0.7, 1.0, 4.0}) {
      QVERIFY(close(cdf.at(std::log(x)), 2.0 * boost::math::cdf(t3, x) - 1.0, "negbin sigma"));
    }
  }
};

QTEST_APPLESS_MAIN(PriorTest)
#include "prior_test.moc"
