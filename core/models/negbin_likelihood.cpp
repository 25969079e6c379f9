#include "core/models/negbin_likelihood.h"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <stdexcept>

#include "core/models/glm_parameters.h"
#include "core/models/sufficient_stats.h"

namespace dpsynth::core::models {

std::vector<std::string> NegbinLikelihood::parameterNames() const {
  auto names = detail::indexedNames("beta", shape_.coefficients);
  const auto sigmas = detail::indexedNames("sigma", shape_.coefficients);
  names.insert(names.end(), sigmas.begin(), sigmas.end());
  names.emplace_back("phi");
  return names;
}

namespace {

std::uint64_t nextLikelihoodId() {
  static std::atomic<std::uint64_t> next{1};
  return next.fetch_add(1);
}

}  // namespace

NegbinLikelihood::NegbinLikelihood(GlmShape shape)
    : shape_(std::move(shape)),
      integrated_(shape_.integratedScales && !shape_.interceptOnly),
      id_(nextLikelihoodId()) {
  if (!integrated_) return;
  const int k = shape_.coefficients;
  if (shape_.basis.rows() != k || shape_.basis.cols() != k ||
      static_cast<int>(shape_.spikeWidths.size()) != k) {
    throw std::invalid_argument("negbin: integrated scales need a K x K basis and K widths");
  }
  for (double width : shape_.spikeWidths) spikes_.emplace_back(width);
  basis_.emplace(shape_.basis);
}

const NegbinLikelihood::SpikePoint& NegbinLikelihood::spikePoint(const Eigen::VectorXd& u) const {
  thread_local SpikePoint point;
  const int k = shape_.coefficients;
  if (point.owner == id_ && point.head.size() == k && point.head == u.head(k)) return point;
  point.owner = 0;  // until complete (an exception below must not leave a half-written point)
  point.head = u.head(k);
  Eigen::VectorXd& b = point.beta;
  b = point.head;
  basis_->thetaToBeta(b);  // b = basis⁻¹θ
  point.slope.resize(k);
  point.logPrior.resize(k);
  point.dLogPrior.resize(k);
  for (int j = 0; j < k; ++j) {
    b[j] = spikes_[static_cast<std::size_t>(j)].toBeta(b[j], point.slope[j], point.logPrior[j],
                                                       point.dLogPrior[j]);
  }
  point.owner = id_;
  return point;
}

void NegbinLikelihood::coefficients(const Eigen::VectorXd& u, Eigen::VectorXd& beta) const {
  const int k = shape_.coefficients;
  if (!integrated_) {
    beta = u.head(k);
    return;
  }
  beta = spikePoint(u).beta;
}

void NegbinLikelihood::addCoefficientGradient(const Eigen::VectorXd& u,
                                              const Eigen::VectorXd& gBeta,
                                              Eigen::VectorXd& grad) const {
  const int k = shape_.coefficients;
  if (!integrated_) {
    grad.head(k) += gBeta;
    return;
  }
  thread_local Eigen::VectorXd g;  // no allocation per gradient
  g = spikePoint(u).slope.cwiseProduct(gBeta);
  basis_->betaGradientToTheta(g);  // ∂/∂θ = basis⁻ᵀ ∂/∂b
  grad.head(k) += g;
}

Eigen::VectorXd NegbinLikelihood::constrain(const Eigen::VectorXd& u) const {
  detail::requireSize(u, dim());
  const int k = shape_.coefficients;
  Eigen::VectorXd theta(dim());
  if (!integrated_) {
    theta.head(k) = u.head(k);
    theta.segment(k, k) = u.segment(k, k).array().exp();
  } else {
    Eigen::VectorXd beta;
    coefficients(u, beta);
    theta.head(k) = beta;
    for (int j = 0; j < k; ++j) theta[k + j] = ScaleMixturePrior::sigmaFromScore(beta[j], u[k + j]);
  }
  theta[2 * k] = std::exp(-u[2 * k]);
  return theta;
}

Eigen::VectorXd NegbinLikelihood::unconstrain(const Eigen::VectorXd& theta) const {
  detail::requireSize(theta, dim());
  const int k = shape_.coefficients;
  for (int j = 0; j < k; ++j) detail::requireAbove(theta[k + j], 0.0, "negbin sigma");
  detail::requireAbove(theta[2 * k], 0.0, "negbin phi");
  Eigen::VectorXd u(dim());
  if (!integrated_) {
    u.head(k) = theta.head(k);
    u.segment(k, k) = theta.segment(k, k).array().log();
  } else {
    Eigen::VectorXd b(k);
    for (int j = 0; j < k; ++j) {
      b[j] = spikes_[static_cast<std::size_t>(j)].fromBeta(theta[j]);
      u[k + j] = ScaleMixturePrior::normalScore(theta[j], theta[k + j]);
    }
    u.head(k).noalias() = shape_.basis.triangularView<Eigen::Upper>() * b;
  }
  u[2 * k] = -std::log(theta[2 * k]);
  return u;
}

Eigen::VectorXd NegbinLikelihood::initialPoint(const Eigen::VectorXd& y) const {
  Eigen::VectorXd u = Eigen::VectorXd::Zero(dim());  // σ_j = 1, or w_j = 0 (σ_j | β_j's median)
  u[0] = detail::logMeanCount(y);
  // Method of moments for the overdispersion: var = μ + τμ², kept inside a sane range.
  const double mean = std::max(y.size() > 0 ? y.mean() : 1.0, 0.01);  // none: an empty database
  const double var = y.size() > 1 ? (y.array() - y.mean()).square().sum() / (y.size() - 1) : 0.0;
  const double tau = std::clamp((var - mean) / (mean * mean), 1e-3, 1e2);
  u[auxIndex()] = std::log(tau);
  if (integrated_) {  // β = (log mean, 0, ..., 0) in the sampled coordinates
    const int k = shape_.coefficients;
    Eigen::VectorXd b = Eigen::VectorXd::Zero(k);
    b[0] = spikes_[0].fromBeta(u[0]);
    u.head(k).noalias() = shape_.basis.triangularView<Eigen::Upper>() * b;
  }
  return u;
}

void NegbinLikelihood::indexOutcomes(std::vector<Data>& data) {
  std::vector<double> values;
  values.reserve(data.size());
  for (const Data& d : data) values.push_back(d.y);
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  distinct_.clear();
  for (double v : values) distinct_.push_back(NegbinLikelihood::data(v));
  for (Data& d : data) {
    d.outcome =
        static_cast<int>(std::lower_bound(values.begin(), values.end(), d.y) - values.begin());
  }
}

NegbinLikelihood::PassData NegbinLikelihood::passData(const RecordGroups& groups,
                                                      const std::vector<Data>& data) const {
  PassData out;
  out.outcomeWeight.assign(distinct_.size(), 0.0);
  CompensatedSum constant;
  for (std::size_t p = 0; p < groups.active; ++p) {
    const double w = groups.weight[static_cast<Eigen::Index>(p)];
    const Data& d = data[p];
    if (d.outcome < 0 || static_cast<std::size_t>(d.outcome) >= distinct_.size()) {
      throw std::logic_error("NegbinLikelihood::passData: outcomes not indexed");
    }
    out.outcomeWeight[static_cast<std::size_t>(d.outcome)] += w;
    constant.add(-w * d.logGammaY1);
  }
  out.constant = constant.value();
  static_assert(sizeof(PhiTerms) == 2 * sizeof(double) && offsetof(PhiTerms, logGammaRatio) == 0);
  out.tableIndex.reserve(data.size());
  out.logGammaY1.reserve(data.size());
  for (const Data& d : data) {
    out.tableIndex.push_back(2 * d.outcome);
    out.logGammaY1.push_back(d.logGammaY1);
  }
  return out;
}

void NegbinLikelihood::phiTermSums(const PassData& passData, const Params& p, double& ratios,
                                   double& digammas) const {
  // The distinct outcomes come in increasing order, so the small counts' Σ_{k<y} log(φ + k) and
  // Σ 1/(φ + k) are prefix sums: the same additions in the same order as logGammaRatio's loop
  // for each y, done once. The other outcomes' log Γ(y + φ) and ψ(y + φ) go to the vector
  // kernel together (≤ 1e-14 from libm's and Boost's, as the kernels' terms).
  thread_local std::vector<double> x, weight, logGamma, psi;
  x.clear();
  weight.clear();
  double prefixValue = 0.0, prefixDigamma = 0.0;
  int prefixCount = 0;
  for (std::size_t i = 0; i < distinct_.size(); ++i) {
    const double w = passData.outcomeWeight[i];
    if (w == 0.0) continue;
    const Data& d = distinct_[i];
    if (d.smallCount >= 0) {
      for (; prefixCount < d.smallCount; ++prefixCount) {
        prefixValue += std::log(p.phi + prefixCount);
        prefixDigamma += 1.0 / (p.phi + prefixCount);
      }
      ratios += w * prefixValue;
      digammas += w * prefixDigamma;
    } else if (p.phi > kLargePhi) {  // Stirling's difference (logGammaRatio)
      double digammaDiff = 0.0;
      ratios += w * logGammaRatio<true>(d, p, digammaDiff);
      digammas += w * digammaDiff;
    } else {
      x.push_back(d.y + p.phi);
      weight.push_back(w);
    }
  }
  if (x.empty()) return;
  logGamma.resize(x.size());
  psi.resize(x.size());
  if (!kernels::logGammaDigammaValues(x.data(), x.size(), logGamma.data(), psi.data())) {
    for (std::size_t i = 0; i < x.size(); ++i) {
      logGamma[i] = detail::logGamma(x[i]);
      psi[i] = detail::digamma(x[i]);
    }
  }
  for (std::size_t i = 0; i < x.size(); ++i) {
    ratios += weight[i] * (logGamma[i] - p.logGammaPhi);
    digammas += weight[i] * (psi[i] - p.digammaPhi);
  }
}

bool NegbinLikelihood::vectorPass(const PassData& passData, const RecordGroups& groups,
                                  const kernels::Design& design, const Eigen::VectorXd& u,
                                  double& logLik, double& gradAux, double* gCoef) const {
  const Params p = params(u);
  kernels::PassSums sums;
  if (!kernels::negbinPass(design, groups.y.data(), p.phi, p.logPhi, sums, gCoef)) return false;
  // Σ_p w_p (lgamma(y_p + φ) − lgamma(φ)) and Σ_p w_p (ψ(y_p + φ) − ψ(φ)), per distinct y.
  double ratios = 0.0, digammas = 0.0;
  phiTermSums(passData, p, ratios, digammas);
  logLik = ratios + passData.constant + sums.logLik;
  gradAux = -p.phi * (digammas + sums.aux);  // φ = e^{−u}
  return true;
}

bool NegbinLikelihood::vectorValues(const PassData& passData, const RecordGroups& groups,
                                    const std::vector<Data>& data, const kernels::Design& design,
                                    std::size_t first, const Eigen::VectorXd& u,
                                    double* out) const {
  const auto count = static_cast<std::size_t>(design.n);
  const Params p = tabulate<false>(params(u), count);
  if (p.table != nullptr && passData.tableIndex.size() == data.size()) {
    // The φ-terms gathered in the kernel: the same sum in the same order as the loop below.
    return kernels::negbinTableValues(design, groups.y.data() + first, p.phi, p.logPhi,
                                      &p.table[0].logGammaRatio, passData.tableIndex.data() + first,
                                      passData.logGammaY1.data() + first, out);
  }
  if (!kernels::negbinValues(design, groups.y.data() + first, p.phi, p.logPhi, out)) return false;
  // The φ-terms per pattern, as record(): from the table when it paid to build one.
  for (std::size_t k = 0; k < count; ++k) {
    const Data& d = data[first + k];
    double unused = 0.0;
    const double ratio = p.table && d.outcome >= 0 ? p.table[d.outcome].logGammaRatio
                                                   : logGammaRatio<false>(d, p, unused);
    out[k] += ratio - d.logGammaY1;
  }
  return true;
}

NegbinLikelihood::PhiTerms* NegbinLikelihood::phiTable(std::size_t size) {
  thread_local std::vector<PhiTerms> table;
  if (table.size() < size) table.resize(size);
  return table.data();
}

std::vector<double> NegbinLikelihood::dataScales(const Eigen::VectorXd& y,
                                                 const Eigen::MatrixXd& X) {
  // Fisher information of β at a common mean: Σ_i w xᵢxᵢᵀ with the NB2 weight w = μφ/(μ + φ),
  // μ the mean count and φ from the moments. Only the order of magnitude matters.
  const double mean = std::max(y.size() > 0 ? y.mean() : 1.0, 0.01);  // none: an empty database
  const double var = y.size() > 1 ? (y.array() - y.mean()).square().sum() / (y.size() - 1) : 0.0;
  const double phi = std::clamp(mean * mean / std::max(var - mean, 1e-12), 1e-3, 1e6);
  const double weight = mean * phi / (mean + phi);
  Eigen::MatrixXd information = weight * (X.transpose() * X);
  information.diagonal().array() += 1e-12 * information.diagonal().maxCoeff();
  const Eigen::MatrixXd covariance =
      information.ldlt().solve(Eigen::MatrixXd::Identity(X.cols(), X.cols()));
  std::vector<double> scales(static_cast<std::size_t>(X.cols()));
  for (Eigen::Index j = 0; j < X.cols(); ++j) {
    const double d = std::sqrt(covariance(j, j));
    scales[static_cast<std::size_t>(j)] =
        d > 0.0 && std::isfinite(d) ? d : std::numeric_limits<double>::infinity();
  }
  return scales;
}

std::vector<double> NegbinLikelihood::spikeWidths(const Eigen::VectorXd& y,
                                                  const Eigen::MatrixXd& X) {
  std::vector<double> widths;
  for (double d : dataScales(y, X)) {
    const double w = kSpikeWidthShare * d;
    widths.push_back(std::isfinite(w) && w > 0.0 ? std::min(w, SpikeMap::kMaxWidth)
                                                 : SpikeMap::kMaxWidth);
  }
  return widths;
}

double NegbinLikelihood::logPrior(const Eigen::VectorXd& u, Eigen::VectorXd& grad) const {
  const int k = shape_.coefficients;
  double lp = 0.0;
  if (!integrated_) {
    for (int j = 0; j < k; ++j) {
      const double beta = u[j];
      const double s = u[k + j];
      const double invVar = std::exp(-2.0 * s);
      const double var = std::exp(2.0 * s);
      // β_j | σ_j: −log σ_j − β²/(2σ²). σ_j half-t(3): −2 log(1 + σ²/3), Jacobian +log σ_j;
      // the two log σ_j cancel.
      lp += -0.5 * beta * beta * invVar - 0.5 * (kSigmaNu + 1.0) * std::log1p(var / kSigmaNu);
      grad[j] -= beta * invVar;
      grad[k + j] += beta * beta * invVar - (kSigmaNu + 1.0) / (1.0 + kSigmaNu * invVar);
    }
  } else {
    // log p(β_j) + log dβ_j/db_j per coefficient (the prior density of b), mapped to θ through
    // the constant basis; w_j ~ Normal(0, 1).
    const SpikePoint& point = spikePoint(u);
    thread_local Eigen::VectorXd g;
    g = point.dLogPrior;
    for (int j = 0; j < k; ++j) {
      lp += point.logPrior[j];
      const double w = u[k + j];
      lp -= 0.5 * w * w;
      grad[k + j] -= w;
    }
    basis_->betaGradientToTheta(g);
    grad.head(k) += g;
  }
  lp += detail::addLogHalfCauchyPrior(u[2 * k], kTauScale, grad[2 * k]);
  return lp;
}

double NegbinLikelihood::draw(random::Rng& rng, double eta, const Params& p) const {
  if (std::isnan(eta)) throw std::invalid_argument("negbin: the linear predictor is NaN");
  detail::finiteOrThrow(p.phi, "dispersion");
  // Any mean, however large (a draw in the prior's tail): a number, not a withheld release.
  return random::negativeBinomialCount(rng, std::exp(eta), p.phi);
}

}  // namespace dpsynth::core::models
