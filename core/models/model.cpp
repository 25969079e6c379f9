#include "core/models/model.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "core/data/dataset.h"
#include "core/models/beta_likelihood.h"
#include "core/models/glm_model.h"
#include "core/models/negbin_likelihood.h"
#include "core/models/normal_likelihood.h"
#include "core/models/poisson_likelihood.h"
#include "core/models/qr_transform.h"
#include "core/models/scale_mixture_prior.h"

namespace dpsynth::core::models {

namespace {

[[noreturn]] void reject(const std::string& message) {
  throw std::invalid_argument("model: " + message);
}

void validateDesign(const data::Dataset& dataset) {
  const auto n = static_cast<Eigen::Index>(dataset.size());
  // No records is a database too: a release whose count is confidential must run on it as on
  // its neighbour of one record (SPEC §0). Its pseudo posterior is the prior; only an
  // intercept-only model can have one (a design needs rows to have levels).
  if (n == 0 && dataset.X.cols() != 1) reject("the dataset has no records");
  if (dataset.X.rows() != n) {
    reject("the design matrix has " + std::to_string(dataset.X.rows()) + " rows for " +
           std::to_string(n) + " outcomes");
  }
  if (dataset.X.cols() < 1) reject("the design matrix needs an intercept column");
  if (!(dataset.X.col(0).array() == 1.0).all()) {
    reject("the first design column must be the intercept (all ones)");
  }
  if (!dataset.X.allFinite()) reject("the design matrix has non-finite values");
}

void validateOutcome(const data::Dataset& dataset) {
  const Family family = dataset.family;
  // Messages name the record, not its (confidential) value.
  auto fail = [](Eigen::Index i, const std::string& problem) {
    reject("the outcome of record " + std::to_string(i + 1) + " " + problem);
  };
  for (Eigen::Index i = 0; i < dataset.y.size(); ++i) {
    const double y = dataset.y[i];
    if (!std::isfinite(y)) fail(i, "is not finite");
    // Integrality is checked where the data are read; the likelihood itself only needs
    // y >= 0 (lgamma(y+1) is the continuous extension), which keeps "shape-only" models on
    // placeholder outcomes usable for simulation.
    if (isCountFamily(family) && y < 0.0) {
      fail(i, "is negative, which the " + familyName(family) + " family cannot model");
    }
    if (family == Family::beta && !(y > 0.0 && y < 1.0)) {
      fail(i, "is outside (0, 1), as the beta family needs");
    }
  }
}

void validateWeights(const LikelihoodWeights& weights, std::size_t n) {
  if (!weights.alpha.empty() && weights.alpha.size() != n) {
    reject("there are " + std::to_string(weights.alpha.size()) + " weights for " +
           std::to_string(n) + " records");
  }
  for (std::size_t i = 0; i < weights.alpha.size(); ++i) {
    const double a = weights.alpha[i];
    if (!(a >= 0.0 && a <= 1.0)) {
      reject("weight of record " + std::to_string(i + 1) + " is " + std::to_string(a) +
             "; weights must lie in [0, 1]");
    }
  }
  if (std::isnan(weights.lower) || std::isnan(weights.upper) || !(weights.lower < 0.0) ||
      !(weights.upper >= 0.0)) {
    reject("the censoring interval [" + std::to_string(weights.lower) + ", " +
           std::to_string(weights.upper) + "] must satisfy lower < 0 <= upper");
  }
}

/// The sampled form of a family's regression coefficients (Parameterisation::automatic): QR for
/// the families whose prior is a function of β alone. negbin's prior β_j ~ Normal(0, σ_j) ties
/// each coefficient to a scale of its own, which is integrated out (NegbinLikelihood); its
/// coefficients are sampled through the same QR basis and a SpikeMap per coefficient, whose
/// width is half the coefficient's data scale. Basis and widths come from the design and the
/// outcomes, never the weights, so every stage of one dataset shares one unconstrained space.
GlmForm formFor(Family family, Parameterisation parameterisation, const data::Dataset& dataset) {
  GlmForm form;
  if (parameterisation == Parameterisation::direct || dataset.X.cols() < 2) return form;
  form.regressionStart = true;
  if (family != Family::negbin) {
    form.qr = true;
    return form;
  }
  form.integratedScales = true;
  form.spikeWidths = NegbinLikelihood::spikeWidths(dataset.y, dataset.X);
  if (const auto qr = QrTransform::fromDesign(dataset.X)) {
    form.basis = qr->r();
  } else {
    // A design QR refuses (collinear, n <= K): each coefficient on its data scale instead.
    form.basis = Eigen::MatrixXd::Zero(dataset.X.cols(), dataset.X.cols());
    const std::vector<double> scales = NegbinLikelihood::dataScales(dataset.y, dataset.X);
    for (std::size_t j = 0; j < scales.size(); ++j) {
      const double d = scales[j];
      form.basis(static_cast<Eigen::Index>(j), static_cast<Eigen::Index>(j)) =
          std::isfinite(d) && d > 0.0 ? 1.0 / d : 1.0;
    }
  }
  return form;
}

}  // namespace

std::unique_ptr<SynthesisModel> makeModel(const data::Dataset& dataset, const ModelSpec& spec,
                                          LikelihoodWeights weights, const std::stop_token& stop) {
  validateDesign(dataset);
  validateOutcome(dataset);
  validateWeights(weights, dataset.size());
  if (!(spec.sdScale > 0.0) || !std::isfinite(spec.sdScale)) {
    reject("sd scale must be positive and finite (got " + std::to_string(spec.sdScale) + ")");
  }
  const Family family = dataset.family;
  const auto& y = dataset.y;
  const auto& X = dataset.X;
  const GlmForm form = formFor(family, spec.parameterisation, dataset);
  switch (family) {
    case Family::poisson:
      return std::make_unique<GlmModel<PoissonLikelihood>>(
          family, y, X, spec.sdScale, std::move(weights), form, spec.sufficientStatistics, stop);
    case Family::negbin:
      return std::make_unique<GlmModel<NegbinLikelihood>>(
          family, y, X, spec.sdScale, std::move(weights), form, spec.sufficientStatistics, stop);
    case Family::beta:
      return std::make_unique<GlmModel<BetaLikelihood>>(
          family, y, X, spec.sdScale, std::move(weights), form, spec.sufficientStatistics, stop);
    case Family::normal:
      return std::make_unique<GlmModel<NormalLikelihood>>(
          family, y, X, spec.sdScale, std::move(weights), form, spec.sufficientStatistics, stop);
  }
  reject("unknown family");
}

Eigen::VectorXd convertDraw(const Model& from, const Model& to, const Eigen::VectorXd& u) {
  return to.unconstrain(from.constrain(u));
}

Eigen::MatrixXd convertDraws(const Model& from, const Model& to, const Eigen::MatrixXd& draws) {
  if (from.dim() != to.dim() || from.parameterNames() != to.parameterNames()) {
    throw std::invalid_argument("convertDraws: the two models have different parameters");
  }
  if (draws.cols() != from.dim()) {
    throw std::invalid_argument("convertDraws: draws have " + std::to_string(draws.cols()) +
                                " columns; the model has " + std::to_string(from.dim()));
  }
  Eigen::MatrixXd out(draws.rows(), draws.cols());
  for (Eigen::Index s = 0; s < draws.rows(); ++s) {
    out.row(s) = convertDraw(from, to, draws.row(s).transpose()).transpose();
  }
  return out;
}

}  // namespace dpsynth::core::models
