#include "core/models/poisson_likelihood.h"

#include <stdexcept>

#include "core/models/glm_parameters.h"

namespace dpsynth::core::models {

std::vector<std::string> PoissonLikelihood::parameterNames() const {
  return detail::indexedNames("beta", shape_.coefficients);
}

Eigen::VectorXd PoissonLikelihood::unconstrain(const Eigen::VectorXd& theta) const {
  detail::requireSize(theta, dim());
  return theta;
}

Eigen::VectorXd PoissonLikelihood::initialPoint(const Eigen::VectorXd& y) const {
  Eigen::VectorXd u = Eigen::VectorXd::Zero(dim());
  u[0] = detail::logMeanCount(y);
  return u;
}

double PoissonLikelihood::logPrior(const Eigen::VectorXd& u, Eigen::VectorXd& grad) const {
  return detail::addNormalPrior(u.head(shape_.coefficients), kBetaSd,
                                grad.head(shape_.coefficients));
}

double PoissonLikelihood::draw(random::Rng& rng, double eta, const Params&) const {
  return static_cast<double>(random::poisson(rng, detail::finiteOrThrow(std::exp(eta), "mean")));
}

}  // namespace dpsynth::core::models
