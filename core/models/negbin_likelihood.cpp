#include "core/models/negbin_likelihood.h"

#include <algorithm>

#include "core/models/glm_parameters.h"

namespace dpsynth::core::models {

std::vector<std::string> NegbinLikelihood::parameterNames() const {
  auto names = detail::indexedNames("beta", shape_.coefficients);
  const auto sigmas = detail::indexedNames("sigma", shape_.coefficients);
  names.insert(names.end(), sigmas.begin(), sigmas.end());
  names.emplace_back("phi");
  return names;
}

Eigen::VectorXd NegbinLikelihood::constrain(const Eigen::VectorXd& u) const {
  detail::requireSize(u, dim());
  const int k = shape_.coefficients;
  Eigen::VectorXd theta(dim());
  theta.head(k) = u.head(k);
  theta.segment(k, k) = u.segment(k, k).array().exp();
  theta[2 * k] = std::exp(-u[2 * k]);
  return theta;
}

Eigen::VectorXd NegbinLikelihood::unconstrain(const Eigen::VectorXd& theta) const {
  detail::requireSize(theta, dim());
  const int k = shape_.coefficients;
  for (int j = 0; j < k; ++j) detail::requireAbove(theta[k + j], 0.0, "negbin sigma");
  detail::requireAbove(theta[2 * k], 0.0, "negbin phi");
  Eigen::VectorXd u(dim());
  u.head(k) = theta.head(k);
  u.segment(k, k) = theta.segment(k, k).array().log();
  u[2 * k] = -std::log(theta[2 * k]);
  return u;
}

Eigen::VectorXd NegbinLikelihood::initialPoint(const Eigen::VectorXd& y) const {
  Eigen::VectorXd u = Eigen::VectorXd::Zero(dim());  // σ_j = 1
  u[0] = detail::logMeanCount(y);
  // Method of moments for the overdispersion: var = μ + τμ², kept inside a sane range.
  const double mean = std::max(y.mean(), 0.01);
  const double var = y.size() > 1 ? (y.array() - y.mean()).square().sum() / (y.size() - 1) : 0.0;
  const double tau = std::clamp((var - mean) / (mean * mean), 1e-3, 1e2);
  u[auxIndex()] = std::log(tau);
  return u;
}

double NegbinLikelihood::logPrior(const Eigen::VectorXd& u, Eigen::VectorXd& grad) const {
  const int k = shape_.coefficients;
  double lp = 0.0;
  for (int j = 0; j < k; ++j) {
    const double beta = u[j];
    const double s = u[k + j];
    const double invVar = std::exp(-2.0 * s);
    const double var = std::exp(2.0 * s);
    // β_j | σ_j: −log σ_j − β²/(2σ²). σ_j half-t(3): −2 log(1 + σ²/3), Jacobian +log σ_j;
    // the two log σ_j cancel.
    lp += -0.5 * beta * beta * invVar - 0.5 * (kSigmaNu + 1.0) * std::log1p(var / kSigmaNu);
    grad[j] -= beta * invVar;
    grad[k + j] += beta * beta * invVar - (kSigmaNu + 1.0) / (1.0 + kSigmaNu * invVar);
  }
  lp += detail::addLogHalfCauchyPrior(u[2 * k], kTauScale, grad[2 * k]);
  return lp;
}

double NegbinLikelihood::draw(random::Rng& rng, double eta, const Params& p) const {
  const double mu = detail::finiteOrThrow(std::exp(eta), "mean");
  detail::finiteOrThrow(p.phi, "dispersion");
  return static_cast<double>(random::negativeBinomial(rng, mu, p.phi));
}

}  // namespace dpsynth::core::models
