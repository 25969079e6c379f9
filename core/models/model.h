#pragma once
/// The model interface the sampler sees, and the richer synthesizer interface the privacy
/// mechanisms use. Parameters live on the unconstrained scale; log densities include the
/// log-Jacobian of the constraining transform (as Stan does).
#include <Eigen/Dense>
#include <cmath>
#include <limits>
#include <memory>
#include <span>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <vector>

#include "core/models/family.h"
#include "core/random/rng.h"

namespace dpsynth::core::data {
struct Dataset;
}

namespace dpsynth::core::models {

/// What the sampler needs: a differentiable log density on R^dim.
class Model {
 public:
  virtual ~Model() = default;
  virtual int dim() const = 0;
  /// Names of the constrained parameters, e.g. "beta[0]", "sigma[0]", "phi"; size() == dim().
  virtual std::vector<std::string> parameterNames() const = 0;
  /// Log density (up to a constant) at unconstrained u and its gradient. Returns -infinity (and
  /// leaves grad unspecified) where the density is zero or not finite; never throws for
  /// numerical trouble, so the sampler can treat it as a rejected/divergent proposal.
  virtual double logDensity(const Eigen::VectorXd& u, Eigen::VectorXd& grad) const = 0;
  double logDensity(const Eigen::VectorXd& u) const {
    Eigen::VectorXd g(dim());
    return logDensity(u, g);
  }
  virtual Eigen::VectorXd constrain(const Eigen::VectorXd& u) const = 0;
  virtual Eigen::VectorXd unconstrain(const Eigen::VectorXd& theta) const = 0;
  /// A sensible unconstrained starting point (the sampler jitters around it).
  virtual Eigen::VectorXd initialPoint() const { return Eigen::VectorXd::Zero(dim()); }
  /// True when the posterior's coordinates are expected to be correlated (regression
  /// coefficients): the sampler's automatic metric choice then adapts a dense metric.
  virtual bool correlatedCoordinates() const { return false; }
  /// Coordinates the sampler does not move (ascending): independent of the others in the
  /// posterior, with a known distribution, the log density depending on them through an
  /// additive term only. After every transition of the other coordinates, completeDraw fills
  /// them with an exact draw (negbin's w_j ~ Normal(0, 1), whose quantile of σ_j | β_j is σ_j),
  /// so that trajectories need not carry them. Empty by default.
  virtual std::vector<int> exactCoordinates() const { return {}; }
  /// Sets u's exactCoordinates() to an exact draw of their distribution.
  virtual void completeDraw(Eigen::Ref<Eigen::VectorXd> u, random::Rng& rng) const {}
};

/// How a regression's coefficients are laid out on the unconstrained scale. The posterior of
/// the reported parameters (beta[j], sigma[j], ...) is the same in every form; only the
/// geometry the sampler sees differs.
enum class Parameterisation {
  /// Regressions (K > 1): QR for poisson, beta and normal (u holds θ = R*β, see QrTransform);
  /// negbin with each σ_j integrated out, u holds θ = R*b (b_j β_j's SpikeMap coordinate) and
  /// a standard normal w_j that gives σ_j | β_j (NegbinLikelihood). Intercept-only: direct.
  automatic,
  /// u holds β itself, negbin centred (β_j ~ Normal(0, σ_j), u holds log σ_j): the form
  /// before the QR and integrated ones, kept for tests and comparisons.
  direct,
};

/// Public, user-set model settings.
struct ModelSpec {
  Family family = Family::normal;
  double sdScale = 1.0;  ///< normal family: public scale for the priors of beta and sigma
  /// Use a family's exact sufficient statistics for uncensored fits where it has them (normal;
  /// beta intercept-only): same posterior, O(K²) per gradient instead of O(patterns). False
  /// evaluates record pattern by record pattern, so that tests can compare the two.
  bool sufficientStatistics = true;
  Parameterisation parameterisation = Parameterisation::automatic;
};

/// SPEC §0/§4: record i contributes clamp(alpha_i * f_theta(x_i), lower, upper) to the log
/// pseudo-likelihood. alpha empty means all ones; infinite bounds mean no censoring. A censored
/// model needs lower < 0 <= upper (count families use upper = 0: their log-pmf is never
/// positive).
struct LikelihoodWeights {
  std::vector<double> alpha;
  double lower = -std::numeric_limits<double>::infinity();
  double upper = std::numeric_limits<double>::infinity();

  bool censored() const { return std::isfinite(lower) || std::isfinite(upper); }
};

/// A Bayesian synthesizer: the pseudo posterior of SPEC §1 for one dataset, one family, one set
/// of weights, plus the per-record log-likelihood and the posterior predictive.
class SynthesisModel : public Model {
 public:
  virtual std::size_t records() const = 0;
  virtual Family family() const = 0;
  /// out[i] = f_theta(x_i) = log p(y_i | theta, X_i): unweighted and unclamped, for all n
  /// records, at unconstrained u. out must have size records().
  virtual void recordLogLik(const Eigen::VectorXd& u, Eigen::Ref<Eigen::VectorXd> out) const = 0;
  /// One synthetic outcome per record: y*_i ~ p(y | theta(u), X_i). out has size records().
  /// Throws exec::Cancelled when `stop` is requested (10^7 draws take over half a second).
  virtual void simulate(const Eigen::VectorXd& u, random::Rng& rng, Eigen::Ref<Eigen::VectorXd> out,
                        const std::stop_token& stop = {}) const = 0;
  virtual const LikelihoodWeights& weights() const = 0;

  /// Records that share a log-likelihood value: record i's f_theta(x_i) is the value of pattern
  /// recordPatterns()[i]. Empty (the default) means every record is its own pattern, in order.
  /// Reductions over records (the Lipschitz pass) evaluate each pattern once per draw.
  virtual std::span<const std::size_t> recordPatterns() const { return {}; }
  /// Number of patterns (records() by default).
  virtual std::size_t patternCount() const { return records(); }
  /// out[p - begin] = f_theta of pattern p for p in [begin, end), at unconstrained u; out has
  /// size end - begin. Costs O(end - begin) for a model that overrides recordPatterns(); the
  /// default evaluates every record through recordLogLik.
  virtual void patternLogLik(const Eigen::VectorXd& u, std::size_t begin, std::size_t end,
                             Eigen::Ref<Eigen::VectorXd> out) const {
    if (begin > end || end > records() || static_cast<std::size_t>(out.size()) != end - begin) {
      throw std::invalid_argument("patternLogLik: bad range or output size");
    }
    if (begin == 0 && end == records()) {
      recordLogLik(u, out);
      return;
    }
    Eigen::VectorXd all(static_cast<Eigen::Index>(records()));
    recordLogLik(u, all);
    out = all.segment(static_cast<Eigen::Index>(begin), static_cast<Eigen::Index>(end - begin));
  }
};

/// Builds the synthesizer for a dataset (its family is dataset.family). Throws
/// std::invalid_argument if alpha has the wrong size or values outside [0,1], or clamp <= 0.
/// Building a model of 10^7 records takes seconds: `stop` ends it with exec::Cancelled.
std::unique_ptr<SynthesisModel> makeModel(const data::Dataset& dataset, const ModelSpec& spec,
                                          LikelihoodWeights weights = {},
                                          const std::stop_token& stop = {});

/// Draws (rows, unconstrained) of model `from` as unconstrained draws of model `to`: constrain
/// with one, unconstrain with the other. Needed wherever one model's draws are evaluated by a
/// model of other data (a reference dataset), whose QR transform differs. Both models must have
/// the same parameters (family and design names); throws std::invalid_argument otherwise.
Eigen::MatrixXd convertDraws(const Model& from, const Model& to, const Eigen::MatrixXd& draws);
Eigen::VectorXd convertDraw(const Model& from, const Model& to, const Eigen::VectorXd& u);

}  // namespace dpsynth::core::models
