#include "core/mcmc/sampled_coordinates.h"

#include <stdexcept>

namespace dpsynth::core::mcmc {

SampledCoordinates::SampledCoordinates(const models::Model& model, std::vector<int> exact)
    : model_(model), full_(model.initialPoint()), fullGrad_(model.dim()) {
  std::vector<bool> isExact(static_cast<std::size_t>(model.dim()), false);
  for (int j : exact) {
    if (j < 0 || j >= model.dim()) throw std::invalid_argument("exact coordinate out of range");
    isExact[static_cast<std::size_t>(j)] = true;
  }
  for (int j = 0; j < model.dim(); ++j)
    if (!isExact[static_cast<std::size_t>(j)]) sampled_.push_back(j);
  if (sampled_.empty()) throw std::invalid_argument("every coordinate is drawn exactly");
}

std::vector<std::string> SampledCoordinates::parameterNames() const {
  const auto names = model_.parameterNames();
  std::vector<std::string> out;
  for (int j : sampled_) out.push_back(names[static_cast<std::size_t>(j)]);
  return out;
}

double SampledCoordinates::logDensity(const Eigen::VectorXd& v, Eigen::VectorXd& grad) const {
  for (std::size_t i = 0; i < sampled_.size(); ++i)
    full_[sampled_[i]] = v[static_cast<Eigen::Index>(i)];
  const double lp = model_.logDensity(full_, fullGrad_);
  grad.resize(dim());
  for (std::size_t i = 0; i < sampled_.size(); ++i)
    grad[static_cast<Eigen::Index>(i)] = fullGrad_[sampled_[i]];
  return lp;
}

Eigen::VectorXd SampledCoordinates::project(const Eigen::VectorXd& u) const {
  Eigen::VectorXd v(dim());
  for (std::size_t i = 0; i < sampled_.size(); ++i)
    v[static_cast<Eigen::Index>(i)] = u[sampled_[i]];
  return v;
}

Eigen::VectorXd SampledCoordinates::expand(const Eigen::VectorXd& v, random::Rng& rng) const {
  Eigen::VectorXd u = full_;
  for (std::size_t i = 0; i < sampled_.size(); ++i)
    u[sampled_[i]] = v[static_cast<Eigen::Index>(i)];
  model_.completeDraw(u, rng);
  return u;
}

Eigen::VectorXd SampledCoordinates::constrain(const Eigen::VectorXd& v) const {
  Eigen::VectorXd u = full_;
  for (std::size_t i = 0; i < sampled_.size(); ++i)
    u[sampled_[i]] = v[static_cast<Eigen::Index>(i)];
  return project(model_.constrain(u));
}

Eigen::VectorXd SampledCoordinates::unconstrain(const Eigen::VectorXd&) const {
  throw std::logic_error("SampledCoordinates: unconstrain needs the full parameter vector");
}

}  // namespace dpsynth::core::mcmc
