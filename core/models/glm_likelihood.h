#pragma once
/// The contract between the generic GLM evaluator (GlmModel) and a family. The evaluator owns
/// the plumbing shared by every family: linear predictor η = Xβ, grouping of identical records,
/// weights and clamping, gradient of β via Xᵀ(w ⊙ ∂f/∂η). A family supplies the per-record
/// log-likelihood with its derivatives, the prior, the transforms and the simulator.
///
/// Unconstrained layout shared by all families: u = (β_0..β_{K-1}, family-specific rest). At most
/// one likelihood parameter besides η (the "auxiliary": negbin φ, beta λ, normal σ) lives at
/// auxIndex(); other coordinates (negbin σ_j) enter the prior only.
#include <Eigen/Dense>
#include <concepts>
#include <stop_token>
#include <string>
#include <vector>

#include "core/models/record_groups.h"
#include "core/models/regression_kernels.h"
#include "core/random/rng.h"

namespace dpsynth::core::models {

/// Dimensions and public settings a family needs to lay out its parameters.
struct GlmShape {
  int coefficients = 1;       ///< K, columns of the design (intercept first)
  bool interceptOnly = true;  ///< K == 1 (X is a column of ones)
  double sdScale = 1.0;       ///< public prior scale (normal family)
  /// Families with a hierarchical coefficient prior (negbin), regressions only: integrate each
  /// coefficient's scale σ_j out and sample the coefficients as θ = basis·b, b_j the SpikeMap
  /// coordinate of β_j of width spikeWidths[j] (see NegbinLikelihood).
  bool integratedScales = false;
  std::vector<double> spikeWidths;
  Eigen::MatrixXd basis;  ///< K × K upper triangular with a positive diagonal
};

/// One record's log-likelihood f and its partial derivatives with respect to η and to the
/// unconstrained auxiliary coordinate (0 for families without one).
struct RecordTerms {
  double f = 0.0;
  double dEta = 0.0;
  double dAux = 0.0;
};

/// What GlmModel requires of a family type L. Data: data-only terms precomputed per distinct
/// outcome (lgamma(y+1), log y, ...). Params: per-call constants from u that do not depend on η
/// (φ, lgamma(φ), ...). EtaTerms: constants that depend on η and Params only; for
/// intercept-only models they are computed once per call instead of once per record. The
/// template flag says whether derivatives are needed (recordLogLik skips the digammas).
template <class L>
concept GlmLikelihood = std::constructible_from<L, GlmShape> &&
    requires(const L& lik, const Eigen::VectorXd& v, Eigen::VectorXd& grad, double x,
             const typename L::Data& data, const typename L::Params& params,
             const typename L::EtaTerms& eta, random::Rng& rng) {
  { lik.dim() } -> std::same_as<int>;
  { lik.auxIndex() } -> std::same_as<int>;  ///< -1 when the family has no auxiliary
  { lik.parameterNames() } -> std::same_as<std::vector<std::string>>;
  { lik.constrain(v) } -> std::same_as<Eigen::VectorXd>;
  { lik.unconstrain(v) } -> std::same_as<Eigen::VectorXd>;   ///< throws std::invalid_argument
  { lik.initialPoint(v) } -> std::same_as<Eigen::VectorXd>;  ///< from the outcomes y
  /// log prior + log-Jacobian at u; adds its gradient into grad.
  { lik.logPrior(v, grad) } -> std::same_as<double>;
  { L::data(x) } -> std::same_as<typename L::Data>;
  { lik.params(v) } -> std::same_as<typename L::Params>;
  { L::template etaTerms<true>(x, params) } -> std::same_as<typename L::EtaTerms>;
  { L::template record<true>(data, x, eta, params) } -> std::same_as<RecordTerms>;
  { lik.draw(rng, x, params) } -> std::same_as<double>;
};

/// Optional for a family: an exact shortcut for uncensored fits. Sufficient holds statistics of
/// the pattern outcomes and weights (built once per model from the groups and the per-pattern
/// data terms); sufficientLogLik returns Σ_p w_p f_p at u and adds its gradient into grad, in
/// O(K²) whatever the number of records. usesSufficient() says whether it applies to this shape.
/// Censored fits never use it (each record's contribution is clamped on its own).
template <class L>
concept SufficientLikelihood = GlmLikelihood<L> &&
    requires(const L& lik, const typename L::Sufficient& stats, const RecordGroups& groups,
             const std::vector<typename L::Data>& data, const Eigen::VectorXd& u,
             const typename L::Params& params, Eigen::VectorXd& grad, const std::stop_token& stop) {
  { lik.usesSufficient() } -> std::same_as<bool>;
  { L::sufficient(groups, data, stop) } -> std::same_as<typename L::Sufficient>;
  { lik.sufficientLogLik(stats, u, params, grad) } -> std::same_as<double>;
};

/// Optional capability of a family: coefficients that are a non-linear function of u (negbin's
/// β_j = g_j((basis⁻¹θ)_j)). The evaluator then forms η = X·coefficients(u) and passes the
/// gradient with respect to β back through addCoefficientGradient; otherwise β = u.head(K).
template <class L>
concept TransformedCoefficients = requires(const L& lik, const Eigen::VectorXd& u,
                                           Eigen::VectorXd& out) {
  { lik.transformsCoefficients() } -> std::same_as<bool>;
  /// out (size K) = β at u.
  lik.coefficients(u, out);
  /// grad += (∂β/∂u)ᵀ gBeta, for gBeta = ∂(log likelihood)/∂β.
  lik.addCoefficientGradient(u, u, out);
};

/// The most patterns GlmModel hands a family's block kernel at once.
inline constexpr std::size_t kMaxPatternBlock = 256;

/// Optional capability of a family: the terms of a block of n ≤ kMaxPatternBlock patterns at
/// once (f into f; with kGrad ∂f/∂η into dEta and ∂f/∂aux into dAux), vectorised with Eigen's
/// packet functions. A pattern must get the same bits wherever it sits in a block (the
/// Lipschitz pass tiles patterns otherwise than the gradient does), so kernels pad blocks to
/// whole packets instead of finishing with scalar code.
template <class L>
concept BlockLikelihood = requires(const typename L::Data* data, const double* eta, std::size_t n,
                                   const typename L::Params& params, double* out) {
  L::template block<true>(data, eta, n, params, out, out, out);
};

/// Optional capability of a family: terms that depend on the outcome and the auxiliary only
/// (negbin's lgamma(y + φ) − lgamma(φ)), tabulated once per call over the distinct outcomes
/// instead of once per pattern. indexOutcomes runs once per model on the pattern data (it may
/// number them); tabulate<kGrad>(params, n) returns params that carry the table when it pays
/// for n pattern evaluations (otherwise params as they were), valid until the next call on the
/// same thread.
template <class L>
concept OutcomeTable = requires(L& lik, const L& constLik, std::vector<typename L::Data>& data,
                                const typename L::Params& params) {
  lik.indexOutcomes(data);
  { constLik.template tabulate<true>(params, std::size_t{0}) } -> std::same_as<typename L::Params>;
};

/// Optional capability of a family: the uncensored regression pass in the vector kernels of
/// regression_kernels.h. passData builds, once per model, what the kernel reads besides the
/// design (per-pattern arrays, weights per distinct outcome, constant sums); vectorPass then
/// returns Σ_p w_p f_p, its derivative in the auxiliary coordinate and the gradient with respect
/// to design.coef (gCoef, K values), or false when the CPU has no kernel (the generic pass runs);
/// vectorValues each pattern's f. passData covers every pattern; vectorPass is used for
/// uncensored fits only.
template <class L>
concept VectorPass = requires(const L& lik, const RecordGroups& groups,
                              const std::vector<typename L::Data>& data,
                              const typename L::PassData& passData, const kernels::Design& design,
                              const Eigen::VectorXd& u, double& out, double* gCoef) {
  { lik.passData(groups, data) } -> std::same_as<typename L::PassData>;
  { lik.vectorPass(passData, groups, design, u, out, out, gCoef) } -> std::same_as<bool>;
  /// Each pattern's f for patterns [first, first + design.n) (design.x starts at pattern first)
  /// into gCoef[0, design.n): the Lipschitz pass.
  {
    lik.vectorValues(passData, groups, data, design, std::size_t{0}, u, gCoef)
    } -> std::same_as<bool>;
};

/// Optional capability of a family: coordinates drawn exactly instead of by the sampler
/// (Model::exactCoordinates), none when the list is empty.
template <class L>
concept ExactlyDrawnCoordinates = requires(const L& lik, Eigen::Ref<Eigen::VectorXd> u,
                                           random::Rng& rng) {
  { lik.exactCoordinates() } -> std::same_as<std::vector<int>>;
  lik.completeDraw(u, rng);
};

/// Optional capability of a family: a better starting point for a regression (K > 1) than its
/// initialPoint(y), computed from the design too. u is initialPoint(y) on entry (family
/// coordinates, β in the head) and is updated in place.
template <class L>
concept RegressionStart = requires(const L& lik, const Eigen::VectorXd& y, const Eigen::MatrixXd& X,
                                   Eigen::VectorXd& u, const std::stop_token& stop) {
  lik.regressionStart(y, X, u, stop);
};

}  // namespace dpsynth::core::models
