#pragma once
/// The generic GLM evaluator: one implementation of SynthesisModel shared by every family.
/// Per call it computes η once per distinct record pattern (once in total for intercept-only
/// models), asks the family for f, ∂f/∂η and ∂f/∂aux, combines them with the weights and the
/// clamp, and forms the coefficient gradient as Xᵀ(w ⊙ ∂f/∂η). No heap allocation per call: work
/// arrays are per thread, so one const model can serve several chain threads at once. Uncensored
/// fits of families with exact sufficient statistics (glm_likelihood.h) skip the patterns
/// altogether. Regressions of families with a VectorPass (poisson, negbin, beta) run their
/// uncensored pass and their Lipschitz values in the vector kernels of regression_kernels.h
/// where the CPU has them.
///
/// Regressions can be sampled in a better-conditioned form (GlmForm): with QR the sampled
/// coefficients are θ = R*β and the pattern design rows are those of Q* = XR*⁻¹ (QrTransform);
/// a family with TransformedCoefficients (negbin) maps its own coordinates to β.
/// The family always sees β: its prior is evaluated at β = R*⁻¹θ and the gradient mapped back
/// (the Jacobian of a linear map is constant), and constrain()/unconstrain() report β.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "core/exec/cancellation.h"
#include "core/models/design_cells.h"
#include "core/models/glm_likelihood.h"
#include "core/models/glm_parameters.h"
#include "core/models/model.h"
#include "core/models/qr_transform.h"
#include "core/models/record_groups.h"

namespace dpsynth::core::models {

namespace detail {

/// Per-thread work arrays, each with room for `patterns` values. Valid until the next call on
/// the same thread.
struct EvalScratch {
  double* eta = nullptr;
  double* f = nullptr;
  double* dEta = nullptr;
  double* dAux = nullptr;
  double* weight = nullptr;
};
EvalScratch evalScratch(std::size_t patterns);
/// One per-thread work array of `patterns` values (the same storage as evalScratch's): what
/// simulate and recordLogLik need, so that a thread which only draws or evaluates records never
/// holds five arrays of n values (40 MB at 10⁶ records, kept for the thread's life).
double* evalColumn(std::size_t patterns);

template <class L>
struct SufficientOf {
  using type = std::monostate;
};
template <class L>
requires SufficientLikelihood<L>
struct SufficientOf<L> {
  using type = typename L::Sufficient;
};

template <class L>
struct PassDataOf {
  using type = std::monostate;
};
template <class L>
requires VectorPass<L>
struct PassDataOf<L> {
  using type = typename L::PassData;
};

/// Per-thread vectors for the coefficient transforms (resized on use; no allocation once a
/// thread has seen a model of the same dimension).
struct CoefficientScratch {
  Eigen::VectorXd point;  ///< u in the family's coordinates (β instead of θ)
  Eigen::VectorXd grad;   ///< prior gradient in the family's coordinates
  Eigen::VectorXd beta;   ///< β for η = Xβ (TransformedCoefficients)
  Eigen::VectorXd gBeta;  ///< ∂ log likelihood / ∂β
  Eigen::VectorXd etaBeta;  ///< β = R*⁻¹θ for η = Xβ (QR with the design kept as X)
};
CoefficientScratch& coefficientScratch();

}  // namespace detail

/// How a GlmModel lays out a regression's coefficients on the unconstrained scale.
struct GlmForm {
  /// Sample θ = R*β (QR). Ignored for intercept-only models and for designs QrTransform
  /// refuses (n ≤ K, (nearly) collinear columns): they keep β.
  bool qr = false;
  /// Families with TransformedCoefficients (negbin): integrate the coefficients' scales out and
  /// sample θ = basis·b (GlmShape). Ignored for intercept-only models.
  bool integratedScales = false;
  std::vector<double> spikeWidths;
  Eigen::MatrixXd basis;
  /// Families with RegressionStart: start regressions there instead of at initialPoint(y).
  /// Ignored for intercept-only models.
  bool regressionStart = false;
};

template <GlmLikelihood L>
class GlmModel final : public SynthesisModel {
 public:
  /// Patterns per block of the regression passes: a block's design rows (K·2 KB) and work
  /// arrays stay in L1/L2 between forming η and the gradient.
  static constexpr Eigen::Index kPatternBlock = static_cast<Eigen::Index>(kMaxPatternBlock);
  /// X must have K >= 1 columns, the first all ones; weights must already be validated.
  /// sufficientStatistics: use the family's exact shortcut where it applies (ModelSpec).
  /// Grouping 10^7 records takes seconds, and each later step (QR, the starting point, the
  /// sufficient statistics) tens of milliseconds at 10^6: `stop` is checked between them and
  /// ends the construction with exec::Cancelled.
  GlmModel(Family family, const Eigen::VectorXd& y, const Eigen::MatrixXd& X, double sdScale,
           LikelihoodWeights weights, const GlmForm& form = {}, bool sufficientStatistics = true,
           const std::stop_token& stop = {})
      : family_(family),
        shape_{static_cast<int>(X.cols()),
               X.cols() == 1,
               sdScale,
               X.cols() > 1 && form.integratedScales,
               form.spikeWidths,
               form.basis},
        lik_(shape_),
        weights_(std::move(weights)),
        groups_(groupRecords(y, X, weights_.alpha, stop, /*withTerms=*/weights_.censored())),
        clamped_(weights_.censored()),
        qr_((exec::throwIfStopped(stop), form.qr && X.cols() > 1) ? QrTransform::fromDesign(X, stop)
                                                                  : std::nullopt),
        transformed_(transformsCoefficients(lik_)),
        initial_((exec::throwIfStopped(stop), toSampled(startingPoint(y, X, form, stop)))) {
    if (qr_ && transformed_) {
      throw std::logic_error("GlmModel: QR needs coefficients that are u itself");
    }
    // The vector kernels read the design in cells (DesignCells): its indicator columns must stay
    // as they are, so η = Xβ with β = R*⁻¹θ. Otherwise, with QR, groups_.X holds the rows of
    // Q*, so that η = Q*θ.
    if constexpr (VectorPass<L>) {
      if (!shape_.interceptOnly && groups_.patterns() > 0) {
        cells_.emplace(orderByCells(groups_, stop));
      }
    }
    exec::throwIfStopped(stop);
    if (qr_ && !cells_) groups_.X = qr_->designToQ(std::move(groups_.X), stop);
    exec::throwIfStopped(stop);
    data_.reserve(groups_.patterns());
    for (Eigen::Index p = 0; p < groups_.y.size(); ++p) data_.push_back(L::data(groups_.y[p]));
    if constexpr (OutcomeTable<L>) lik_.indexOutcomes(data_);
    exec::throwIfStopped(stop);
    if constexpr (SufficientLikelihood<L>) {
      if (sufficientStatistics && !clamped_ && groups_.active > 0 && lik_.usesSufficient()) {
        sufficient_.emplace(L::sufficient(groups_, data_, stop));
      }
    }
    if constexpr (VectorPass<L>) {
      if (cells_ && !sufficient_) {
        passData_.emplace(lik_.passData(groups_, data_));
        const auto active = static_cast<Eigen::Index>(groups_.active);
        unitWeights_ = (groups_.weight.head(active).array() == 1.0).all();
      }
    }
  }

  int dim() const override { return lik_.dim(); }
  std::vector<std::string> parameterNames() const override { return lik_.parameterNames(); }
  Eigen::VectorXd constrain(const Eigen::VectorXd& u) const override {
    detail::requireSize(u, dim());
    if (!qr_) return lik_.constrain(u);
    Eigen::VectorXd v = u;
    qr_->thetaToBeta(v.head(shape_.coefficients));
    return lik_.constrain(v);
  }
  Eigen::VectorXd unconstrain(const Eigen::VectorXd& theta) const override {
    return toSampled(lik_.unconstrain(theta));
  }
  Eigen::VectorXd initialPoint() const override { return initial_; }
  bool correlatedCoordinates() const override { return !shape_.interceptOnly; }
  std::vector<int> exactCoordinates() const override {
    if constexpr (ExactlyDrawnCoordinates<L>) return lik_.exactCoordinates();
    return {};
  }
  void completeDraw(Eigen::Ref<Eigen::VectorXd> u, random::Rng& rng) const override {
    if constexpr (ExactlyDrawnCoordinates<L>) lik_.completeDraw(u, rng);
  }
  std::size_t records() const override { return groups_.recordPattern.size(); }
  Family family() const override { return family_; }
  const LikelihoodWeights& weights() const override { return weights_; }
  /// Number of distinct (y, X row) patterns the likelihood is evaluated on.
  std::size_t patterns() const { return groups_.patterns(); }
  /// True when logDensity uses the family's exact sufficient statistics.
  bool usesSufficientStatistics() const { return sufficient_.has_value(); }
  std::span<const std::size_t> recordPatterns() const override { return groups_.recordPattern; }
  std::size_t patternCount() const override { return groups_.patterns(); }
  void patternLogLik(const Eigen::VectorXd& u, std::size_t begin, std::size_t end,
                     Eigen::Ref<Eigen::VectorXd> out) const override;
  /// The QR transform in use, if any.
  const std::optional<QrTransform>& qr() const { return qr_; }

  double logDensity(const Eigen::VectorXd& u, Eigen::VectorXd& grad) const override;
  void recordLogLik(const Eigen::VectorXd& u, Eigen::Ref<Eigen::VectorXd> out) const override;
  void simulate(const Eigen::VectorXd& u, random::Rng& rng, Eigen::Ref<Eigen::VectorXd> out,
                const std::stop_token& stop = {}) const override;

 private:
  static bool transformsCoefficients(const L& lik) {
    if constexpr (TransformedCoefficients<L>) {
      return lik.transformsCoefficients();
    } else {
      return false;
    }
  }
  Eigen::VectorXd startingPoint(const Eigen::VectorXd& y, const Eigen::MatrixXd& X,
                                const GlmForm& form, const std::stop_token& stop) const {
    Eigen::VectorXd u = lik_.initialPoint(y);
    if constexpr (RegressionStart<L>) {
      if (form.regressionStart && !shape_.interceptOnly) lik_.regressionStart(y, X, u, stop);
    }
    return u;
  }
  /// Family coordinates (β) to sampled ones (θ = R*β with QR).
  Eigen::VectorXd toSampled(Eigen::VectorXd v) const {
    if (qr_) qr_->betaToTheta(v.head(shape_.coefficients));
    return v;
  }
  /// The family's per-call parameters, with its outcome table (OutcomeTable) when it pays for
  /// `evaluations` pattern evaluations.
  template <bool kGrad>
  typename L::Params paramsFor(const Eigen::VectorXd& u, std::size_t evaluations) const {
    if constexpr (OutcomeTable<L>) {
      return lik_.template tabulate<kGrad>(lik_.params(u), evaluations);
    } else {
      return lik_.params(u);
    }
  }
  /// Calls sink(p, RecordTerms) for patterns [0, count); ∂f/∂η and ∂f/∂aux only with kGrad.
  /// The sink is a template parameter so that the per-pattern work inlines into one loop.
  template <bool kGrad, class Sink>
  void forEachPattern(const Eigen::VectorXd& u, const typename L::Params& params, std::size_t count,
                      const detail::EvalScratch& s, Sink&& sink) const;
  /// η of patterns [0, count) into s.eta.
  void linearPredictor(const Eigen::VectorXd& u, std::size_t count,
                       const detail::EvalScratch& s) const;
  /// f, ∂f/∂η and ∂f/∂aux of patterns [p0, p0 + len) at their η: the family's vectorised
  /// kernel (BlockLikelihood) or its per-pattern terms.
  template <bool kGrad>
  void blockTerms(const typename L::Params& params, std::size_t p0, std::size_t len,
                  const double* eta, double* f, double* dEta, double* dAux) const;
  /// The coefficients η is formed with: u's head, or β for a family that maps u to β or when
  /// the design is kept as X under QR (etaInBeta()).
  const double* etaCoefficients(const Eigen::VectorXd& u) const;
  /// True when η = Xβ although the sampler moves θ = R*β: gradients with respect to the
  /// coefficients η is formed with are mapped to θ (mapEtaGradient).
  bool etaInBeta() const { return qr_.has_value() && cells_.has_value(); }
  /// ∂/∂β to ∂/∂θ in place when etaInBeta().
  void mapEtaGradient(Eigen::Ref<Eigen::VectorXd> g) const {
    if (etaInBeta()) qr_->betaGradientToTheta(g);
  }
  /// The design of a kernel pass over patterns [first, first + count): its cells clipped to
  /// the range.
  kernels::Design kernelDesign(const double* coef, std::size_t first, std::size_t count) const;
  /// Uncensored regressions: Σ_p w_p f_p into logLik, Σ_p w_p ∂f_p/∂aux into gradAux and
  /// Xᵀ(w ⊙ ∂f/∂η) into gCoef, in one pass over blocks of patterns: each block's design rows
  /// form its η and, still in cache, its share of the gradient, so the design is read once
  /// per gradient (at 10⁶ records it is the memory traffic that sets the pace).
  /// coef: the coefficients η is formed with (etaCoefficients).
  void fusedRegressionPass(const double* coef, const typename L::Params& params, double& logLik,
                           double& gradAux, Eigen::VectorXd& gCoef) const;
  /// The same sums from the family's vector kernel (VectorPass); false when it has none for
  /// this CPU or this design.
  bool vectorRegressionPass(const Eigen::VectorXd& u, const double* coef, double& logLik,
                            double& gradAux, Eigen::VectorXd& gCoef) const;
  /// An uncensored regression's log density from its prior and likelihood sums: gCoef mapped
  /// to the sampled coordinates and added with gradAux into grad.
  double finishRegression(const Eigen::VectorXd& u, double logPrior, double logLik, double gradAux,
                          Eigen::VectorXd& gCoef, Eigen::VectorXd& grad) const;

  Family family_;
  GlmShape shape_;
  L lik_;
  LikelihoodWeights weights_;
  RecordGroups groups_;  ///< groups_.X: the design η is computed from (Q* rows with QR, unless
                         ///< in cells)
  bool clamped_;
  std::optional<QrTransform> qr_;
  bool transformed_;  ///< the family maps u to β (TransformedCoefficients)
  Eigen::VectorXd initial_;
  std::vector<typename L::Data> data_;  ///< data-only terms per pattern
  std::optional<typename detail::SufficientOf<L>::type> sufficient_;
  std::optional<typename detail::PassDataOf<L>::type> passData_;  ///< VectorPass
  std::optional<DesignCells> cells_;  ///< regressions of VectorPass families: patterns in cells
  bool unitWeights_ = false;          ///< every active pattern's weight is 1 (kernels::Design)
};

template <GlmLikelihood L>
void GlmModel<L>::linearPredictor(const Eigen::VectorXd& u, std::size_t count,
                                  const detail::EvalScratch& s) const {
  Eigen::Map<Eigen::VectorXd> eta(s.eta, static_cast<Eigen::Index>(count));
  if (shape_.interceptOnly) {
    eta.setConstant(u[0]);
    return;
  }
  const Eigen::Map<const Eigen::VectorXd> c(etaCoefficients(u), shape_.coefficients);
  eta.noalias() = groups_.X.topRows(static_cast<Eigen::Index>(count)) * c;
}

template <GlmLikelihood L>
template <bool kGrad, class Sink>
void GlmModel<L>::forEachPattern(const Eigen::VectorXd& u, const typename L::Params& params,
                                 std::size_t count, const detail::EvalScratch& s,
                                 Sink&& sink) const {
  if (shape_.interceptOnly) {
    // η is shared by every record: its terms (lgamma(λφ), log(μ+φ), ...) are computed once.
    const double eta = u[0];
    const auto terms = L::template etaTerms<kGrad>(eta, params);
    for (std::size_t p = 0; p < count; ++p) {
      sink(p, L::template record<kGrad>(data_[p], eta, terms, params));
    }
  } else {
    linearPredictor(u, count, s);
    for (std::size_t p = 0; p < count; ++p) {
      const double eta = s.eta[p];
      const auto terms = L::template etaTerms<kGrad>(eta, params);
      sink(p, L::template record<kGrad>(data_[p], eta, terms, params));
    }
  }
}

template <GlmLikelihood L>
template <bool kGrad>
void GlmModel<L>::blockTerms(const typename L::Params& params, std::size_t p0, std::size_t len,
                             const double* eta, double* f, double* dEta, double* dAux) const {
  if constexpr (BlockLikelihood<L>) {
    L::template block<kGrad>(data_.data() + p0, eta, len, params, f, dEta, dAux);
  } else {
    for (std::size_t k = 0; k < len; ++k) {
      const auto terms = L::template etaTerms<kGrad>(eta[k], params);
      const RecordTerms r = L::template record<kGrad>(data_[p0 + k], eta[k], terms, params);
      f[k] = r.f;
      if constexpr (kGrad) {
        dEta[k] = r.dEta;
        dAux[k] = r.dAux;
      }
    }
  }
}

template <GlmLikelihood L>
const double* GlmModel<L>::etaCoefficients(const Eigen::VectorXd& u) const {
  if constexpr (TransformedCoefficients<L>) {
    if (transformed_) {
      Eigen::VectorXd& beta = detail::coefficientScratch().beta;
      lik_.coefficients(u, beta);
      return beta.data();
    }
  }
  if (etaInBeta()) {
    Eigen::VectorXd& beta = detail::coefficientScratch().etaBeta;
    beta = u.head(shape_.coefficients);
    qr_->thetaToBeta(beta);
    return beta.data();
  }
  return u.data();
}

template <GlmLikelihood L>
kernels::Design GlmModel<L>::kernelDesign(const double* coef, std::size_t first,
                                          std::size_t count) const {
  const DesignCells& cells = *cells_;
  kernels::Design design;
  design.x = groups_.X.data() + first;
  design.stride = groups_.X.rows();
  design.k = shape_.coefficients;
  design.n = static_cast<std::ptrdiff_t>(count);
  design.weight = groups_.weight.data() + first;
  design.coef = coef;
  design.readColumn = cells.readColumns.data();
  design.readColumns = static_cast<int>(cells.readColumns.size());
  design.cellColumn = cells.cellColumns.data();
  design.cellColumns = static_cast<int>(cells.cellColumns.size());
  // The cells that meet [first, first + count).
  const auto begin = static_cast<std::ptrdiff_t>(first);
  const auto end = static_cast<std::ptrdiff_t>(first + count);
  const auto firstCell = std::upper_bound(cells.start.begin(), cells.start.end() - 1, begin) - 1;
  const auto lastCell = std::lower_bound(firstCell, cells.start.end() - 1, end);
  const auto c0 = firstCell - cells.start.begin();
  design.cells = static_cast<int>(lastCell - firstCell);
  design.cellStart = cells.start.data() + c0;
  design.cellValue = cells.values.data() + c0 * design.cellColumns;
  design.origin = begin;
  return design;
}

template <GlmLikelihood L>
void GlmModel<L>::fusedRegressionPass(const double* coef, const typename L::Params& params,
                                      double& logLik, double& gradAux,
                                      Eigen::VectorXd& gCoef) const {
  const Eigen::Index K = shape_.coefficients;
  const Eigen::Map<const Eigen::VectorXd> c(coef, K);
  gCoef.setZero(K);
  const auto active = static_cast<Eigen::Index>(groups_.active);
  const double* weight = groups_.weight.data();
  constexpr Eigen::Index kBlock = kPatternBlock;
  alignas(64) double eta[kBlock], f[kBlock], dEta[kBlock], dAux[kBlock];
  // The sums run in locals: through the references every addition went to memory and back
  // (the compiler cannot rule out that they alias the work arrays), a store-to-load chain per
  // pattern. The same additions in the same order.
  double sumLogLik = logLik, sumAux = gradAux;
  for (Eigen::Index p0 = 0; p0 < active; p0 += kBlock) {
    const Eigen::Index len = std::min(kBlock, active - p0);
    const auto rows = groups_.X.block(p0, 0, len, K);
    Eigen::Map<Eigen::VectorXd> etaBlock(eta, len);
    etaBlock.noalias() = rows * c;
    blockTerms<true>(params, static_cast<std::size_t>(p0), static_cast<std::size_t>(len), eta, f,
                     dEta, dAux);
    for (Eigen::Index k = 0; k < len; ++k) {
      const double w = weight[p0 + k];
      sumLogLik += w * f[k];
      dEta[k] *= w;
      sumAux += w * dAux[k];
    }
    gCoef.noalias() += rows.transpose() * Eigen::Map<const Eigen::VectorXd>(dEta, len);
  }
  logLik = sumLogLik;
  gradAux = sumAux;
}

template <GlmLikelihood L>
bool GlmModel<L>::vectorRegressionPass(const Eigen::VectorXd& u, const double* coef, double& logLik,
                                       double& gradAux, Eigen::VectorXd& gCoef) const {
  if constexpr (VectorPass<L>) {
    if (!passData_) return false;
    kernels::Design design = kernelDesign(coef, 0, groups_.active);
    design.unitWeights = unitWeights_;
    gCoef.resize(shape_.coefficients);
    return lik_.vectorPass(*passData_, groups_, design, u, logLik, gradAux, gCoef.data());
  } else {
    return false;
  }
}

template <GlmLikelihood L>
double GlmModel<L>::finishRegression(const Eigen::VectorXd& u, double logPrior, double logLik,
                                     double gradAux, Eigen::VectorXd& gCoef,
                                     Eigen::VectorXd& grad) const {
  constexpr double kNegInf = -std::numeric_limits<double>::infinity();
  if (!std::isfinite(logLik)) return kNegInf;
  bool mapped = false;
  if constexpr (TransformedCoefficients<L>) {
    if (transformed_) {
      lik_.addCoefficientGradient(u, gCoef, grad);
      mapped = true;
    }
  }
  if (!mapped) {
    mapEtaGradient(gCoef);
    grad.head(shape_.coefficients) += gCoef;
  }
  if (lik_.auxIndex() >= 0) grad[lik_.auxIndex()] += gradAux;
  const double total = logPrior + logLik;
  if (!std::isfinite(total) || !grad.allFinite()) return kNegInf;
  return total;
}

template <GlmLikelihood L>
double GlmModel<L>::logDensity(const Eigen::VectorXd& u, Eigen::VectorXd& grad) const {
  constexpr double kNegInf = -std::numeric_limits<double>::infinity();
  detail::requireSize(u, dim());
  grad.setZero(dim());
  if (!u.allFinite()) return kNegInf;
  // An uncensored regression under QR with η = Xβ forms β once, for the prior and for η, and
  // maps the sum of the two β-gradients to θ once (finishRegression).
  const bool regression = !clamped_ && !shape_.interceptOnly;
  bool shareBeta = regression && qr_ && etaInBeta();
  if constexpr (SufficientLikelihood<L>) shareBeta = shareBeta && !sufficient_;
  const double* sharedBeta = nullptr;
  double logPrior = 0.0;
  if (!qr_) {
    logPrior = lik_.logPrior(u, grad);
  } else {
    // The prior is on β = R*⁻¹θ; its gradient maps back through R*⁻ᵀ.
    detail::CoefficientScratch& c = detail::coefficientScratch();
    const int k = shape_.coefficients;
    c.point = u;
    qr_->thetaToBeta(c.point.head(k));
    c.grad.setZero(dim());
    logPrior = lik_.logPrior(c.point, c.grad);
    if (shareBeta) {
      sharedBeta = c.point.data();  // grad's head stays ∂ log prior/∂β until finishRegression
    } else {
      qr_->betaGradientToTheta(c.grad.head(k));
    }
    grad = c.grad;
  }
  if (!std::isfinite(logPrior)) return kNegInf;

  const std::size_t active = groups_.active;
  if (active == 0) {
    if (sharedBeta) qr_->betaGradientToTheta(grad.head(shape_.coefficients));
    return grad.allFinite() ? logPrior : kNegInf;
  }
  if constexpr (SufficientLikelihood<L>) {
    if (sufficient_) {
      const double total = logPrior + lik_.sufficientLogLik(*sufficient_, u, lik_.params(u), grad);
      if (!std::isfinite(total) || !grad.allFinite()) return kNegInf;
      return total;
    }
  }
  if (regression) {
    Eigen::VectorXd& gCoef = detail::coefficientScratch().gBeta;
    const double* coef = sharedBeta ? sharedBeta : etaCoefficients(u);
    double logLik = 0.0, gradAux = 0.0;
    if (!vectorRegressionPass(u, coef, logLik, gradAux, gCoef)) {
      fusedRegressionPass(coef, paramsFor<true>(u, active), logLik, gradAux, gCoef);
    }
    if (sharedBeta) {
      gCoef += grad.head(shape_.coefficients);
      grad.head(shape_.coefficients).setZero();
    }
    return finishRegression(u, logPrior, logLik, gradAux, gCoef, grad);
  }
  const auto params = paramsFor<true>(u, active);
  // Only censored fits keep per-pattern values; the uncensored passes fold them as they go.
  const detail::EvalScratch s = clamped_ ? detail::evalScratch(active) : detail::EvalScratch{};
  double logLik = 0.0;
  double gradAux = 0.0;
  double gradIntercept = 0.0;
  const double* weightedDEta = s.dEta;  // w ⊙ ∂f/∂η, for the regression gradient Xᵀ(w ⊙ ∂f/∂η)
  if (!clamped_) {
    // Every active pattern has weight > 0: one fused pass, nothing stored but w ⊙ ∂f/∂η.
    const double* weight = groups_.weight.data();
    // (An uncensored regression returned above.)
    forEachPattern<true>(u, params, active, s, [&](std::size_t p, const RecordTerms& r) {
      const double w = weight[p];
      logLik += w * r.f;
      gradIntercept += w * r.dEta;
      gradAux += w * r.dAux;
    });
  } else {
    forEachPattern<true>(u, params, active, s, [&](std::size_t p, const RecordTerms& r) {
      s.f[p] = r.f;
      s.dEta[p] = r.dEta;
      s.dAux[p] = r.dAux;
    });
    // Effective weight of each pattern in the gradient: Σ α over its records whose
    // contribution is not clamped (a clamped record is constant in θ).
    const double lower = weights_.lower;
    const double upper = weights_.upper;
    std::fill(s.weight, s.weight + active, 0.0);
    for (const auto& t : groups_.terms) {
      const double v = t.alpha * s.f[t.pattern];
      if (std::isnan(v)) return kNegInf;
      if (v > upper) {
        logLik += t.count * upper;
      } else if (v < lower) {
        logLik += t.count * lower;
      } else {
        logLik += t.count * v;
        s.weight[t.pattern] += t.count * t.alpha;
      }
    }
    // A pattern whose records are all clamped contributes nothing, even if its derivatives
    // overflowed (its f may be -inf, clamped to L).
    for (std::size_t p = 0; p < active; ++p) {
      const double w = s.weight[p];
      s.dEta[p] = w == 0.0 ? 0.0 : w * s.dEta[p];
      gradIntercept += s.dEta[p];
      if (w != 0.0) gradAux += w * s.dAux[p];
    }
  }
  if (!std::isfinite(logLik)) return kNegInf;

  if (shape_.interceptOnly) {
    grad[0] += gradIntercept;
  } else {
    const Eigen::Map<const Eigen::VectorXd> weighted(weightedDEta,
                                                     static_cast<Eigen::Index>(active));
    bool done = false;
    if constexpr (TransformedCoefficients<L>) {
      if (transformed_) {
        Eigen::VectorXd& gBeta = detail::coefficientScratch().gBeta;
        gBeta.noalias() =
            groups_.X.topRows(static_cast<Eigen::Index>(active)).transpose() * weighted;
        lik_.addCoefficientGradient(u, gBeta, grad);
        done = true;
      }
    }
    if (!done && etaInBeta()) {
      Eigen::VectorXd& gBeta = detail::coefficientScratch().gBeta;
      gBeta.noalias() = groups_.X.topRows(static_cast<Eigen::Index>(active)).transpose() * weighted;
      mapEtaGradient(gBeta);
      grad.head(shape_.coefficients) += gBeta;
    } else if (!done) {
      grad.head(shape_.coefficients).noalias() +=
          groups_.X.topRows(static_cast<Eigen::Index>(active)).transpose() * weighted;
    }
  }
  if (lik_.auxIndex() >= 0) grad[lik_.auxIndex()] += gradAux;

  const double total = logPrior + logLik;
  if (!std::isfinite(total) || !grad.allFinite()) return kNegInf;
  return total;
}

template <GlmLikelihood L>
void GlmModel<L>::recordLogLik(const Eigen::VectorXd& u, Eigen::Ref<Eigen::VectorXd> out) const {
  detail::requireSize(u, dim());
  if (static_cast<std::size_t>(out.size()) != records()) {
    throw std::invalid_argument("recordLogLik: output has " + std::to_string(out.size()) +
                                " entries; the model has " + std::to_string(records()) +
                                " records");
  }
  const std::size_t count = groups_.patterns();
  double* f = detail::evalColumn(count);
  patternLogLik(u, 0, count, Eigen::Map<Eigen::VectorXd>(f, static_cast<Eigen::Index>(count)));
  for (std::size_t i = 0; i < groups_.recordPattern.size(); ++i) {
    out[static_cast<Eigen::Index>(i)] = f[groups_.recordPattern[i]];
  }
}

template <GlmLikelihood L>
void GlmModel<L>::patternLogLik(const Eigen::VectorXd& u, std::size_t begin, std::size_t end,
                                Eigen::Ref<Eigen::VectorXd> out) const {
  detail::requireSize(u, dim());
  if (begin > end || end > groups_.patterns() ||
      static_cast<std::size_t>(out.size()) != end - begin) {
    throw std::invalid_argument("patternLogLik: bad pattern range or output size");
  }
  const auto params = paramsFor<false>(u, end - begin);
  const auto count = static_cast<Eigen::Index>(end - begin);
  const auto first = static_cast<Eigen::Index>(begin);
  double* f = out.data();
  if (shape_.interceptOnly) {
    const double eta = u[0];
    const auto terms = L::template etaTerms<false>(eta, params);
    for (Eigen::Index k = 0; k < count; ++k) {
      f[k] =
          L::template record<false>(data_[static_cast<std::size_t>(first + k)], eta, terms, params)
              .f;
    }
    return;
  }
  // η_p = Σ_j X_pj c_j summed in column order for every pattern, so that a pattern's value
  // does not depend on the range it is evaluated in (a tiled pass over patterns gives the same
  // bits as recordLogLik); then the block's terms at once.
  const double* c = etaCoefficients(u);
  constexpr Eigen::Index kBlock = kPatternBlock;
  const Eigen::MatrixXd& X = groups_.X;
  const Eigen::Index K = shape_.coefficients;
  if constexpr (VectorPass<L>) {
    if (passData_) {
      const kernels::Design design = kernelDesign(c, begin, end - begin);
      if (lik_.vectorValues(*passData_, groups_, data_, design, begin, u, f)) return;
    }
  }
  const double* x = X.data() + first;
  const Eigen::Index stride = X.rows();
  alignas(64) double eta[kBlock];
  for (Eigen::Index k0 = 0; k0 < count; k0 += kBlock) {
    const Eigen::Index len = std::min(kBlock, count - k0);
    for (Eigen::Index b = 0; b < len; ++b) eta[b] = x[k0 + b] * c[0];
    for (Eigen::Index j = 1; j < K; ++j) {
      const double* column = x + j * stride + k0;
      const double cj = c[j];
      for (Eigen::Index b = 0; b < len; ++b) eta[b] += column[b] * cj;
    }
    blockTerms<false>(params, static_cast<std::size_t>(first + k0), static_cast<std::size_t>(len),
                      eta, f + k0, nullptr, nullptr);
  }
}

template <GlmLikelihood L>
void GlmModel<L>::simulate(const Eigen::VectorXd& u, random::Rng& rng,
                           Eigen::Ref<Eigen::VectorXd> out, const std::stop_token& stop) const {
  detail::requireSize(u, dim());
  if (static_cast<std::size_t>(out.size()) != records()) {
    throw std::invalid_argument("simulate: output has " + std::to_string(out.size()) +
                                " entries; the model has " + std::to_string(records()) +
                                " records");
  }
  const std::size_t count = groups_.patterns();
  detail::EvalScratch s;
  s.eta = detail::evalColumn(count);
  linearPredictor(u, count, s);
  const auto params = lik_.params(u);
  exec::StopCheck check(stop, 1u << 12);
  for (std::size_t i = 0; i < groups_.recordPattern.size(); ++i) {
    check.tick();
    out[static_cast<Eigen::Index>(i)] = lik_.draw(rng, s.eta[groups_.recordPattern[i]], params);
  }
}

}  // namespace dpsynth::core::models
