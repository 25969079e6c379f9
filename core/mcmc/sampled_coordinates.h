#pragma once
/// The model as the sampler sees it when some of its coordinates are drawn exactly
/// (Model::exactCoordinates): a model of the other coordinates only, whose log density is the
/// full model's with the exact coordinates held at fixed values (they enter it through an
/// additive term, so neither the gradient nor any difference of log densities depends on
/// them). expand() rebuilds a full point, completed with fresh exact draws.
#include <Eigen/Dense>
#include <vector>

#include "core/models/model.h"
#include "core/random/rng.h"

namespace dpsynth::core::mcmc {

class SampledCoordinates final : public models::Model {
 public:
  /// exact: the model's exactCoordinates(), ascending and non-empty. The view is used by one
  /// chain's thread only (it keeps work vectors).
  SampledCoordinates(const models::Model& model, std::vector<int> exact);

  int dim() const override { return static_cast<int>(sampled_.size()); }
  std::vector<std::string> parameterNames() const override;
  double logDensity(const Eigen::VectorXd& v, Eigen::VectorXd& grad) const override;
  /// The sampled coordinates of the full model's constrain/unconstrain (unused by the sampler).
  Eigen::VectorXd constrain(const Eigen::VectorXd& v) const override;
  Eigen::VectorXd unconstrain(const Eigen::VectorXd& theta) const override;
  Eigen::VectorXd initialPoint() const override { return project(model_.initialPoint()); }
  bool correlatedCoordinates() const override { return model_.correlatedCoordinates(); }

  /// The sampled coordinates of a full point.
  Eigen::VectorXd project(const Eigen::VectorXd& u) const;
  /// The full point of sampled coordinates v, its exact coordinates drawn with rng.
  Eigen::VectorXd expand(const Eigen::VectorXd& v, random::Rng& rng) const;

 private:
  const models::Model& model_;
  std::vector<int> sampled_;
  mutable Eigen::VectorXd full_;  ///< exact coordinates at the model's initial point
  mutable Eigen::VectorXd fullGrad_;
};

}  // namespace dpsynth::core::mcmc
