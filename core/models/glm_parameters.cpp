#include "core/models/glm_parameters.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace dpsynth::core::models::detail {

std::vector<std::string> indexedNames(const std::string& stem, int count) {
  std::vector<std::string> names;
  names.reserve(static_cast<std::size_t>(count));
  for (int j = 0; j < count; ++j) names.push_back(stem + "[" + std::to_string(j) + "]");
  return names;
}

void requireSize(const Eigen::VectorXd& v, int size) {
  if (v.size() != size) {
    throw std::invalid_argument("parameter vector has " + std::to_string(v.size()) +
                                " entries; the model has " + std::to_string(size));
  }
}

void requireAbove(double x, double lower, const char* what) {
  if (!(x > lower) || !std::isfinite(x)) {
    throw std::invalid_argument(std::string(what) + " must be finite and greater than " +
                                std::to_string(lower) + " (got " + std::to_string(x) + ")");
  }
}

double finiteOrThrow(double x, const char* what) {
  if (!std::isfinite(x)) {
    throw std::domain_error(std::string("cannot simulate: the parameter draw gives a non-finite ") +
                            what);
  }
  return x;
}

double logMeanCount(const Eigen::VectorXd& y) {
  const double mean = y.size() > 0 ? y.mean() : 1.0;
  return std::log(std::max(mean, 0.01));
}

double addNormalPrior(const Eigen::Ref<const Eigen::VectorXd>& x, double sd,
                      Eigen::Ref<Eigen::VectorXd> grad) {
  const double precision = 1.0 / (sd * sd);
  grad.noalias() -= precision * x;
  return -0.5 * precision * x.squaredNorm();
}

double addLogHalfCauchyPrior(double v, double scale, double& grad) {
  const double r = std::exp(v) / scale;
  const double r2 = r * r;
  // d/dv [-log(1 + r²)] = -2r²/(1 + r²); written as -2/(1 + 1/r²) to survive r² = inf.
  grad += 1.0 - 2.0 / (1.0 + 1.0 / r2);
  return -std::log1p(r2) + v;
}

}  // namespace dpsynth::core::models::detail
