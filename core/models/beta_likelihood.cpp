#include "core/models/beta_likelihood.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "core/models/glm_parameters.h"

namespace dpsynth::core::models {

std::vector<std::string> BetaLikelihood::parameterNames() const {
  std::vector<std::string> names = shape_.interceptOnly
                                       ? std::vector<std::string>{"phi"}
                                       : detail::indexedNames("beta", shape_.coefficients);
  names.emplace_back("lambda");
  return names;
}

Eigen::VectorXd BetaLikelihood::constrain(const Eigen::VectorXd& u) const {
  detail::requireSize(u, dim());
  Eigen::VectorXd theta = u;
  if (shape_.interceptOnly) theta[0] = detail::logistic(u[0]);
  theta[auxIndex()] = kLambdaMin + std::exp(u[auxIndex()]);
  return theta;
}

Eigen::VectorXd BetaLikelihood::unconstrain(const Eigen::VectorXd& theta) const {
  detail::requireSize(theta, dim());
  Eigen::VectorXd u = theta;
  if (shape_.interceptOnly) {
    if (!(theta[0] > 0.0 && theta[0] < 1.0)) {
      throw std::invalid_argument("beta phi must lie in (0, 1)");
    }
    u[0] = detail::logit(theta[0]);
  }
  detail::requireAbove(theta[auxIndex()], kLambdaMin, "beta lambda");
  u[auxIndex()] = std::log(theta[auxIndex()] - kLambdaMin);
  return u;
}

Eigen::VectorXd BetaLikelihood::initialPoint(const Eigen::VectorXd& y) const {
  Eigen::VectorXd u = Eigen::VectorXd::Zero(dim());
  // An empty database (a release whose count is confidential may hold none) starts at φ = 1/2
  // and λ = 1, inside the priors' mass.
  const double mean = y.size() > 0 ? std::clamp(y.mean(), 1e-3, 1.0 - 1e-3) : 0.5;
  const double var = y.size() > 1 ? (y.array() - y.mean()).square().sum() / (y.size() - 1) : 0.0;
  // Moments of Beta(λφ, λ(1−φ)): var = φ(1−φ)/(λ + 1).
  const double lambda = var > 0.0 ? mean * (1.0 - mean) / var - 1.0 : y.size() > 0 ? 1e3 : 1.0;
  u[0] = detail::logit(mean);
  u[auxIndex()] = std::log(std::clamp(lambda - kLambdaMin, 1e-2, 1e4));
  return u;
}

double BetaLikelihood::logPrior(const Eigen::VectorXd& u, Eigen::VectorXd& grad) const {
  double lp = 0.0;
  if (shape_.interceptOnly) {
    // φ ~ Beta(1, 1) seen on u0 = logit φ: density φ(1 − φ).
    const double eta = u[0];
    lp += -detail::log1pExp(-eta) - detail::log1pExp(eta);
    grad[0] += detail::logistic(-eta) - detail::logistic(eta);
  } else {
    lp += detail::addNormalPrior(u.head(shape_.coefficients), kBetaSd,
                                 grad.head(shape_.coefficients));
  }
  // Pareto(x_m, α): density ∝ λ^−(α+1); Jacobian of λ = x_m + e^v is e^v.
  const double v = u[auxIndex()];
  const double excess = std::exp(v);
  const double lambda = kLambdaMin + excess;
  lp += -(kLambdaShape + 1.0) * std::log(lambda) + v;
  grad[auxIndex()] += 1.0 - (kLambdaShape + 1.0) * excess / lambda;
  return lp;
}

BetaLikelihood::PassData BetaLikelihood::passData(const RecordGroups& groups,
                                                  const std::vector<Data>& data) const {
  PassData out;
  out.logY.reserve(data.size());
  out.log1mY.reserve(data.size());
  for (const Data& d : data) {
    out.logY.push_back(d.logY);
    out.log1mY.push_back(d.log1mY);
  }
  CompensatedSum weight;
  for (std::size_t p = 0; p < groups.active; ++p) {
    weight.add(groups.weight[static_cast<Eigen::Index>(p)]);
  }
  out.weight = weight.value();
  return out;
}

bool BetaLikelihood::vectorPass(const PassData& passData, const RecordGroups&,
                                const kernels::Design& design, const Eigen::VectorXd& u,
                                double& logLik, double& gradAux, double* gCoef) const {
  const Params p = params(u);
  kernels::PassSums sums;
  if (!kernels::betaPass(design, passData.logY.data(), passData.log1mY.data(), p.lambda, sums,
                         gCoef)) {
    return false;
  }
  logLik = passData.weight * p.logGammaLambda + sums.logLik;
  gradAux = (passData.weight * p.digammaLambda + sums.aux) * p.lambdaExcess;
  return true;
}

bool BetaLikelihood::vectorValues(const PassData& passData, const RecordGroups&,
                                  const std::vector<Data>&, const kernels::Design& design,
                                  std::size_t first, const Eigen::VectorXd& u, double* out) const {
  const Params p = params(u);
  if (!kernels::betaValues(design, passData.logY.data() + first, passData.log1mY.data() + first,
                           p.lambda, out)) {
    return false;
  }
  for (std::ptrdiff_t k = 0; k < design.n; ++k) out[k] += p.logGammaLambda;
  return true;
}

double BetaLikelihood::draw(random::Rng& rng, double eta, const Params& p) const {
  const double a = detail::finiteOrThrow(p.lambda * detail::logistic(eta), "shape");
  const double b = detail::finiteOrThrow(p.lambda * detail::logistic(-eta), "shape");
  if (!(a > 0.0 && b > 0.0)) {
    throw std::domain_error("cannot simulate: the parameter draw gives a zero beta shape");
  }
  // With shapes far below 1 both gamma variates can underflow (0/0); draw again, which
  // happens with negligible probability for any shape the prior allows.
  double value = random::beta(rng, a, b);
  while (std::isnan(value)) value = random::beta(rng, a, b);
  // A single underflowing gamma variate yields exactly 0 or 1, outside the family's support.
  constexpr double kTiny = std::numeric_limits<double>::min();
  constexpr double kBelowOne = 1.0 - std::numeric_limits<double>::epsilon() / 2.0;
  return std::clamp(value, kTiny, kBelowOne);
}

}  // namespace dpsynth::core::models
