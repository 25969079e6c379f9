#include "core/models/poisson_likelihood.h"

#include <cmath>
#include <stdexcept>

#include "core/models/glm_parameters.h"
#include "core/models/sufficient_stats.h"

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

PoissonLikelihood::PassData PoissonLikelihood::passData(const RecordGroups& groups,
                                                        const std::vector<Data>& data) const {
  CompensatedSum constant;
  std::vector<CompensatedSum> linear(static_cast<std::size_t>(groups.X.cols()));
  for (std::size_t p = 0; p < groups.active; ++p) {
    const auto row = static_cast<Eigen::Index>(p);
    const double w = groups.weight[row];
    constant.add(-w * data[p].logGammaY1);
    const double wy = w * groups.y[row];
    for (Eigen::Index j = 0; j < groups.X.cols(); ++j) {
      linear[static_cast<std::size_t>(j)].add(wy * groups.X(row, j));
    }
  }
  PassData out{constant.value(), {}, {}};
  for (const CompensatedSum& t : linear) out.linear.push_back(t.value());
  out.logGammaY1.reserve(data.size());
  for (const Data& d : data) out.logGammaY1.push_back(d.logGammaY1);
  return out;
}

bool PoissonLikelihood::vectorPass(const PassData& passData, const RecordGroups&,
                                   const kernels::Design& design, const Eigen::VectorXd&,
                                   double& logLik, double& gradAux, double* gCoef) const {
  kernels::PassSums sums;
  if (!kernels::poissonPass(design, sums, gCoef)) return false;
  double linear = 0.0;
  for (int j = 0; j < design.k; ++j) {
    linear += passData.linear[static_cast<std::size_t>(j)] * design.coef[j];
    gCoef[j] += passData.linear[static_cast<std::size_t>(j)];
  }
  logLik = passData.constant + linear + sums.logLik;
  gradAux = 0.0;
  return true;
}

bool PoissonLikelihood::vectorValues(const PassData& passData, const RecordGroups& groups,
                                     const std::vector<Data>& data, const kernels::Design& design,
                                     std::size_t first, const Eigen::VectorXd&, double* out) const {
  if (passData.logGammaY1.size() != data.size()) return false;
  return kernels::poissonValues(design, groups.y.data() + first, passData.logGammaY1.data() + first,
                                out);
}

double PoissonLikelihood::draw(random::Rng& rng, double eta, const Params&) const {
  // Any mean, however large (a draw in the prior's tail): a number, not a withheld release.
  if (std::isnan(eta)) throw std::invalid_argument("poisson: the linear predictor is NaN");
  return random::poissonCount(rng, std::exp(eta));
}

}  // namespace dpsynth::core::models
