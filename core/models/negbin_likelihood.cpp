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
  for (int j = nonCentredFrom_; j < k; ++j) {  // β_j = κ_j(σ_j) z_j
    double kappa = 0.0, r = 0.0;
    scaleTerms(j, u[k + j], kappa, r);
    theta[j] *= kappa;
  }
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
  for (int j = nonCentredFrom_; j < k; ++j) {  // z_j = β_j / κ_j(σ_j)
    double kappa = 0.0, r = 0.0;
    scaleTerms(j, u[k + j], kappa, r);
    u[j] /= kappa;
  }
  u[2 * k] = -std::log(theta[2 * k]);
  return u;
}

Eigen::VectorXd NegbinLikelihood::initialPoint(const Eigen::VectorXd& y) const {
  Eigen::VectorXd u = Eigen::VectorXd::Zero(dim());  // σ_j = 1, so z_0 = β_0 if non-centred
  u[0] = detail::logMeanCount(y);
  // Method of moments for the overdispersion: var = μ + τμ², kept inside a sane range.
  const double mean = std::max(y.mean(), 0.01);
  const double var = y.size() > 1 ? (y.array() - y.mean()).square().sum() / (y.size() - 1) : 0.0;
  const double tau = std::clamp((var - mean) / (mean * mean), 1e-3, 1e2);
  u[auxIndex()] = std::log(tau);
  if (nonCentredFrom_ == 0) {  // non-centred: z_0 = β_0 / κ_0(σ_0 = 1)
    double kappa = 0.0, r = 0.0;
    scaleTerms(0, 0.0, kappa, r);
    u[0] /= kappa;
  }
  return u;
}

std::vector<double> NegbinLikelihood::dataScales(const Eigen::VectorXd& y, const Eigen::MatrixXd& X) {
  // Fisher information of β at a common mean: Σ_i w xᵢxᵢᵀ with the NB2 weight w = μφ/(μ + φ),
  // μ the mean count and φ from the moments. Only the order of magnitude matters.
  const double mean = std::max(y.mean(), 0.01);
  const double var = y.size() > 1 ? (y.array() - y.mean()).square().sum() / (y.size() - 1) : 0.0;
  const double phi = std::clamp(mean * mean / std::max(var - mean, 1e-12), 1e-3, 1e6);
  const double weight = mean * phi / (mean + phi);
  Eigen::MatrixXd information = weight * (X.transpose() * X);
  information.diagonal().array() += 1e-12 * information.diagonal().maxCoeff();
  const Eigen::MatrixXd covariance =
      information.ldlt().solve(Eigen::MatrixXd::Identity(X.cols(), X.cols()));
  std::vector<double> scales(static_cast<std::size_t>(X.cols()));
  for (Eigen::Index j = 0; j < X.cols(); ++j) {
    const double d = std::sqrt(covariance(j, j));
    scales[static_cast<std::size_t>(j)] = d > 0.0 && std::isfinite(d) ? d : std::numeric_limits<double>::infinity();
  }
  return scales;
}

double NegbinLikelihood::logPrior(const Eigen::VectorXd& u, Eigen::VectorXd& grad) const {
  const int k = shape_.coefficients;
  double lp = 0.0;
  for (int j = 0; j < nonCentredFrom_; ++j) {
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
  for (int j = nonCentredFrom_; j < k; ++j) {
    // β_j = κ z_j: the centred density −β²/(2σ²) − log σ + log half-t(σ) + s (Jacobian of
    // σ = e^s) plus the Jacobian log κ = s + (log r)/2 of z ↦ β; κ²/σ² = r, so
    // −r z²/2 − log(1 + σ²/3)·2 + s + (log r)/2 (constants dropped). r = 1 gives the plain
    // non-centred z ~ Normal(0, 1).
    const double z = u[j];
    const double s = u[k + j];
    double kappa = 0.0, r = 0.0;
    scaleTerms(j, s, kappa, r);
    lp += -0.5 * r * z * z - 0.5 * (kSigmaNu + 1.0) * std::log1p(std::exp(2.0 * s) / kSigmaNu) +
          s + 0.5 * std::log(r);
    grad[j] -= r * z;
    // dr/ds = −2r(1 − r).
    grad[k + j] += r * (1.0 - r) * z * z + r -
                   (kSigmaNu + 1.0) / (1.0 + kSigmaNu * std::exp(-2.0 * s));
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
