#include "core/models/normal_likelihood.h"

#include "core/exec/cancellation.h"
#include "core/models/glm_parameters.h"

namespace dpsynth::core::models {

std::vector<std::string> NormalLikelihood::parameterNames() const {
  auto names = detail::indexedNames("beta", shape_.coefficients);
  names.emplace_back("sigma");
  return names;
}

Eigen::VectorXd NormalLikelihood::constrain(const Eigen::VectorXd& u) const {
  detail::requireSize(u, dim());
  Eigen::VectorXd theta = u;
  theta[auxIndex()] = std::exp(u[auxIndex()]);
  return theta;
}

Eigen::VectorXd NormalLikelihood::unconstrain(const Eigen::VectorXd& theta) const {
  detail::requireSize(theta, dim());
  detail::requireAbove(theta[auxIndex()], 0.0, "normal sigma");
  Eigen::VectorXd u = theta;
  u[auxIndex()] = std::log(theta[auxIndex()]);
  return u;
}

Eigen::VectorXd NormalLikelihood::initialPoint(const Eigen::VectorXd& y) const {
  Eigen::VectorXd u = Eigen::VectorXd::Zero(dim());
  u[0] = y.size() > 0 ? y.mean() : 0.0;  // none: an empty database starts at the prior's centre
  const double var = y.size() > 1 ? (y.array() - y.mean()).square().sum() / (y.size() - 1) : 0.0;
  u[auxIndex()] = var > 0.0 ? 0.5 * std::log(var) : std::log(shape_.sdScale);
  return u;
}

void NormalLikelihood::regressionStart(const Eigen::VectorXd& y, const Eigen::MatrixXd& X,
                                       Eigen::VectorXd& u, const std::stop_token& stop) const {
  const int k = shape_.coefficients;
  const double n = static_cast<double>(y.size());
  const double priorVar = kBetaSd * shape_.sdScale * kBetaSd * shape_.sdScale;
  const Eigen::MatrixXd xtx = X.transpose() * X;
  exec::throwIfStopped(stop);
  const Eigen::VectorXd xty = X.transpose() * y;
  double var = std::exp(2.0 * u[auxIndex()]);
  for (int iteration = 0; iteration < 5; ++iteration) {
    exec::throwIfStopped(stop);
    Eigen::MatrixXd a = xtx;
    a.diagonal().array() += var / priorVar;
    const Eigen::VectorXd beta = a.ldlt().solve(xty);
    const double rss = (y - X * beta).squaredNorm();
    if (!beta.allFinite() || !std::isfinite(rss) || !(rss > 0.0)) return;
    u.head(k) = beta;
    var = rss / n;
  }
  u[auxIndex()] = 0.5 * std::log(var);
}

double NormalLikelihood::logPrior(const Eigen::VectorXd& u, Eigen::VectorXd& grad) const {
  const int k = shape_.coefficients;
  double lp = detail::addNormalPrior(u.head(k), kBetaSd * shape_.sdScale, grad.head(k));
  lp += detail::addLogHalfCauchyPrior(u[k], kSigmaScale * shape_.sdScale, grad[k]);
  return lp;
}

double NormalLikelihood::draw(random::Rng& rng, double eta, const Params& p) const {
  return random::normal(rng, detail::finiteOrThrow(eta, "mean"),
                        detail::finiteOrThrow(p.sigma, "standard deviation"));
}

}  // namespace dpsynth::core::models
