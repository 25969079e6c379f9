#pragma once
/// θ | latent outcomes for the synthesizer families of SPEC §2 (intercept-only), for
/// data-augmentation chains: the family's own likelihood terms (core/models: record(), prior,
/// transforms, simulator), evaluated from running statistics of the latent records instead of
/// from a dataset, and one adapted NUTS step (core/mcmc/nuts_kernel) per sweep.
///
/// Statistics, each updated in O(1) (negbin: O(log #distinct values)) per accepted move:
///   poisson  n, Σy, Σ lgamma(y+1): the log-likelihood is affine in the family's data terms, so
///            Σ_i f(y_i) = n · f(mean data terms) exactly;
///   beta     n, Σ log y, Σ log(1 − y): affine likewise;
///   normal   n, Σ(y − c), Σ(y − c)² about a fixed public centre c: Σ_i f(y_i) = n·f(ȳ) − SSW/(2σ²)
///            with SSW = Σ(y − ȳ)²;
///   negbin   a table value → count (lgamma(y + φ) does not separate): O(#distinct values) per
///            gradient, as the grouped GLM evaluator costs.
/// Running sums are compensated (Neumaier), so they do not drift over millions of moves.
#include <Eigen/Dense>
#include <memory>
#include <string>
#include <vector>

#include "core/infer/theta_step.h"
#include "core/models/family.h"
#include "core/models/model.h"
#include "core/random/rng.h"

namespace dpsynth::core::infer {

/// The intercept-only log posterior of a family given latent outcomes (a models::Model on the
/// family's unconstrained scale, prior and log-Jacobian included), fed one outcome at a time.
class LatentOutcomeDensity : public models::Model {
 public:
  virtual void add(double y) = 0;
  virtual void move(double from, double to) = 0;
  virtual long long count() const = 0;
};

/// A family of SPEC §2 seen as the latent-record model of a data-augmentation sampler.
class LatentFamily {
 public:
  virtual ~LatentFamily() = default;
  virtual models::Family family() const = 0;
  /// Length of θ and its report names ("beta[0]", "phi", "sigma", ...).
  virtual int dim() const = 0;
  virtual std::vector<std::string> parameterNames() const = 0;
  virtual Eigen::VectorXd constrain(const Eigen::VectorXd& u) const = 0;
  virtual Eigen::VectorXd unconstrain(const Eigen::VectorXd& theta) const = 0;
  /// The family's starting point (unconstrained) for outcomes y.
  virtual Eigen::VectorXd initialPoint(const Eigen::VectorXd& y) const = 0;
  /// One outcome y ~ p(y | θ), θ constrained.
  virtual double draw(const Eigen::VectorXd& theta, random::Rng& rng) const = 0;
  /// An empty density (no outcomes yet); `centre` is the public centre of the normal family's
  /// sums (e.g. the middle of the release's bounds), unused by the other families.
  virtual std::unique_ptr<LatentOutcomeDensity> makeDensity(double centre) const = 0;
  /// A fresh per-chain θ step: NUTS (diagonal metric, max tree depth 10, target acceptance 0.8,
  /// SPEC §3) whose first `warmup` steps adapt.
  virtual std::unique_ptr<ThetaStep> makeThetaStep(int warmup, double centre) const = 0;
};

/// sdScale: the normal family's public prior scale (SPEC §2; default 1). Throws
/// std::invalid_argument for a non-positive or non-finite sdScale.
std::unique_ptr<LatentFamily> makeLatentFamily(models::Family family, double sdScale = 1.0);

}  // namespace dpsynth::core::infer
