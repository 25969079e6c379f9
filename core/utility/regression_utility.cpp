#include "core/utility/regression_utility.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <map>
#include <stdexcept>
#include <utility>

#include "core/exec/cancellation.h"

namespace dpsynth::core::utility {

namespace {

constexpr double kZ975 = 1.959963984540054;  // Φ⁻¹(0.975)
constexpr int kMaxIterations = 100;
constexpr double kPoissonPhi = 1e12;  // negbin without overdispersion: effectively poisson

bool logLink(RegressionFamily f) {
  return f == RegressionFamily::poisson || f == RegressionFamily::negbin;
}
bool logitLink(RegressionFamily f) {
  return f == RegressionFamily::beta || f == RegressionFamily::binomial;
}

double inverseLink(RegressionFamily f, double eta) {
  if (logLink(f)) return std::exp(std::min(eta, 700.0));
  if (logitLink(f)) return 1.0 / (1.0 + std::exp(-eta));
  return eta;
}

/// dμ/dη at η (μ given).
double muEta(RegressionFamily f, double mu) {
  if (logLink(f)) return std::max(mu, 1e-300);
  if (logitLink(f)) return std::max(mu * (1.0 - mu), 1e-300);
  return 1.0;
}

double variance(RegressionFamily f, double mu, double phi) {
  switch (f) {
    case RegressionFamily::normal:
      return 1.0;
    case RegressionFamily::poisson:
      return std::max(mu, 1e-300);
    case RegressionFamily::negbin:
      return std::max(mu + mu * mu / phi, 1e-300);
    case RegressionFamily::beta:
    case RegressionFamily::binomial:
      return std::max(mu * (1.0 - mu), 1e-300);
  }
  return 1.0;
}

/// A starting linear predictor: the link of the outcome moved inside the link's domain.
double startEta(RegressionFamily f, double y) {
  if (logLink(f)) return std::log(y + 0.5);
  if (logitLink(f)) {
    const double p = (y + 0.5) / 2.0;  // in (0.25, 0.75) for y in [0,1]
    return std::log(p / (1.0 - p));
  }
  return y;
}

/// Solves A x = b for a symmetric positive semi-definite A through its unit-diagonal scaling
/// S A S (S = diag(A)^-1/2), so that columns on very different scales (a salary next to a
/// dummy) do not look singular. Throws std::invalid_argument when A is singular.
Eigen::MatrixXd solveScaled(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  const Eigen::VectorXd diag = a.diagonal();
  if (!(diag.minCoeff() > 0) || !diag.allFinite())
    throw std::invalid_argument("regression utility: the design is singular");
  const Eigen::VectorXd s = diag.cwiseSqrt().cwiseInverse();
  const Eigen::MatrixXd scaled = s.asDiagonal() * a * s.asDiagonal();
  Eigen::LDLT<Eigen::MatrixXd> ldlt(scaled);
  if (ldlt.info() != Eigen::Success || !ldlt.isPositive() || ldlt.vectorD().minCoeff() <= 1e-12)
    throw std::invalid_argument("regression utility: the design is singular");
  return s.asDiagonal() * ldlt.solve(s.asDiagonal() * b);
}

/// XᵀWX and XᵀWz summed over blocks of rows, with a stop check between blocks: one product over
/// the 2·10^6 rows of a pMSE design took a quarter of a second (and a K × n temporary).
void normalEquations(const Eigen::MatrixXd& X, const Eigen::VectorXd& w, const Eigen::VectorXd* z,
                     Eigen::MatrixXd& xtwx, Eigen::VectorXd* xtwz, const std::stop_token& stop) {
  constexpr Eigen::Index kBlock = Eigen::Index{1} << 16;
  const Eigen::Index n = X.rows(), k = X.cols();
  xtwx = Eigen::MatrixXd::Zero(k, k);
  if (xtwz) *xtwz = Eigen::VectorXd::Zero(k);
  for (Eigen::Index at = 0; at < n; at += kBlock) {
    exec::throwIfStopped(stop);
    const Eigen::Index rows = std::min(kBlock, n - at);
    const auto block = X.middleRows(at, rows);
    const Eigen::MatrixXd xtw = block.transpose() * w.segment(at, rows).asDiagonal();
    xtwx.noalias() += xtw * block;
    if (xtwz) xtwz->noalias() += xtw * z->segment(at, rows);
  }
}

struct IrlsResult {
  Eigen::VectorXd beta;
  Eigen::MatrixXd information;  // XᵀWX at beta
  int iterations = 0;
  bool converged = false;
};

IrlsResult irls(const Eigen::VectorXd& y, const Eigen::MatrixXd& X, RegressionFamily f, double phi,
                const Eigen::VectorXd* start, const std::stop_token& stop) {
  const Eigen::Index n = X.rows();
  Eigen::VectorXd eta(n);
  if (start) {
    eta = X * *start;
  } else {
    for (Eigen::Index i = 0; i < n; ++i) eta[i] = startEta(f, y[i]);
  }
  IrlsResult r;
  r.beta = Eigen::VectorXd::Zero(X.cols());
  for (int it = 1; it <= kMaxIterations; ++it) {
    Eigen::VectorXd w(n), z(n);
    for (Eigen::Index i = 0; i < n; ++i) {
      const double mu = inverseLink(f, eta[i]);
      const double d = muEta(f, mu);
      w[i] = d * d / variance(f, mu, phi);
      z[i] = eta[i] + (y[i] - mu) / d;
    }
    Eigen::MatrixXd xtwx;
    Eigen::VectorXd xtwz;
    normalEquations(X, w, &z, xtwx, &xtwz, stop);
    const Eigen::VectorXd next = solveScaled(xtwx, xtwz);
    const double change = (next - r.beta).cwiseAbs().maxCoeff();
    r.beta = next;
    r.iterations = it;
    eta = X * r.beta;
    if (!r.beta.allFinite()) break;
    if (change <= 1e-10 * (1.0 + r.beta.cwiseAbs().maxCoeff())) {
      r.converged = true;
      break;
    }
  }
  // Information at the final β.
  Eigen::VectorXd w(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const double mu = inverseLink(f, eta[i]);
    const double d = muEta(f, mu);
    w[i] = d * d / variance(f, mu, phi);
  }
  normalEquations(X, w, nullptr, r.information, nullptr, stop);
  return r;
}

}  // namespace

GlmFit fitGlm(const Eigen::VectorXd& y, const Eigen::MatrixXd& X, RegressionFamily family,
              const std::stop_token& stop) {
  if (y.size() != X.rows())
    throw std::invalid_argument("regression utility: y and X differ in size");
  const Eigen::Index n = X.rows(), k = X.cols();
  if (k < 1 || n <= k)
    throw std::invalid_argument("regression utility: needs more records than coefficients");
  double phi = kPoissonPhi;
  IrlsResult r = irls(y, X, family, phi, nullptr, stop);
  GlmFit fit;
  if (family == RegressionFamily::negbin) {
    // Alternate β | φ (IRLS) and φ | β (moments) until φ settles.
    for (int round = 0; round < 50; ++round) {
      const Eigen::VectorXd mu =
          (X * r.beta).unaryExpr([](double e) { return std::exp(std::min(e, 700.0)); });
      const double num = mu.squaredNorm();
      const double den = ((y - mu).array().square() - mu.array()).sum();
      const double next = den > 0 ? std::min(num / den, kPoissonPhi) : kPoissonPhi;
      const bool settled = std::abs(next - phi) <= 1e-8 * phi;
      phi = next;
      r = irls(y, X, family, phi, &r.beta, stop);
      if (settled) break;
    }
    fit.phi = phi;
  }
  fit.beta = r.beta;
  fit.iterations = r.iterations;
  fit.converged = r.converged && r.beta.allFinite();
  if (family == RegressionFamily::normal || family == RegressionFamily::beta) {
    const Eigen::VectorXd eta = X * r.beta;
    double sum = 0;
    for (Eigen::Index i = 0; i < n; ++i) {
      const double mu = inverseLink(family, eta[i]);
      const double e = y[i] - mu;
      sum += e * e / variance(family, mu, phi);
    }
    fit.dispersion = sum / static_cast<double>(n - k);
  }
  const Eigen::MatrixXd cov =
      fit.dispersion * solveScaled(r.information, Eigen::MatrixXd::Identity(k, k));
  fit.se = cov.diagonal().cwiseMax(0.0).cwiseSqrt();
  return fit;
}

double ciOverlap(double loA, double hiA, double loB, double hiB) {
  if (!(hiA > loA) || !(hiB > loB))
    throw std::invalid_argument("ciOverlap: an interval has no positive width");
  const double width = std::min(hiA, hiB) - std::max(loA, loB);
  return 0.5 * (width / (hiA - loA) + width / (hiB - loB));
}

RegressionUtility compareRegressions(const Eigen::VectorXd& yConf, const Eigen::VectorXd& ySyn,
                                     const Eigen::MatrixXd& X,
                                     const std::vector<std::string>& names, RegressionFamily family,
                                     const std::stop_token& stop) {
  return compareRegressions(yConf, X, ySyn, X, names, family, stop);
}

RegressionUtility compareRegressions(const Eigen::VectorXd& yConf, const Eigen::MatrixXd& XConf,
                                     const Eigen::VectorXd& ySyn, const Eigen::MatrixXd& XSyn,
                                     const std::vector<std::string>& names, RegressionFamily family,
                                     const std::stop_token& stop) {
  const Eigen::MatrixXd& X = XConf;
  if (names.size() != static_cast<std::size_t>(X.cols()) || XSyn.cols() != X.cols())
    throw std::invalid_argument("regression utility: one name per design column is needed");
  const GlmFit conf = fitGlm(yConf, X, family, stop);
  const GlmFit syn = fitGlm(ySyn, XSyn, family, stop);
  RegressionUtility out;
  double overlapSum = 0;
  for (Eigen::Index j = 0; j < X.cols(); ++j) {
    CoefficientComparison c;
    c.name = names[static_cast<std::size_t>(j)];
    c.confidential = conf.beta[j];
    c.confidentialSe = conf.se[j];
    c.synthetic = syn.beta[j];
    c.syntheticSe = syn.se[j];
    // A zero-width interval (a perfect fit) gives no overlap fraction: NaN, not a number made up.
    c.overlap =
        c.confidentialSe > 0 && c.syntheticSe > 0
            ? ciOverlap(c.confidential - kZ975 * c.confidentialSe,
                        c.confidential + kZ975 * c.confidentialSe,
                        c.synthetic - kZ975 * c.syntheticSe, c.synthetic + kZ975 * c.syntheticSe)
            : std::numeric_limits<double>::quiet_NaN();
    c.standardized = std::abs(c.synthetic - c.confidential) / c.confidentialSe;
    overlapSum += c.overlap;
    out.maxStandardized = j == 0 ? c.standardized : std::max(out.maxStandardized, c.standardized);
    out.coefficients.push_back(c);
  }
  out.meanOverlap = overlapSum / static_cast<double>(X.cols());
  return out;
}

std::vector<GroupMean> groupMeans(
    const Eigen::VectorXd& yConf, const Eigen::VectorXd& ySyn, const Eigen::MatrixXd& X,
    const std::vector<std::string>& names,
    const std::vector<std::pair<std::string, std::string>>& referenceLevels,
    const std::stop_token& stop) {
  return groupMeans(yConf, X, ySyn, X, names, referenceLevels, stop);
}

std::vector<GroupMean> groupMeans(
    const Eigen::VectorXd& yConf, const Eigen::MatrixXd& X, const Eigen::VectorXd& ySyn,
    const Eigen::MatrixXd& XSyn, const std::vector<std::string>& names,
    const std::vector<std::pair<std::string, std::string>>& referenceLevels,
    const std::stop_token& stop) {
  if (yConf.size() != X.rows() || ySyn.size() != XSyn.rows() || XSyn.cols() != X.cols() ||
      names.size() != static_cast<std::size_t>(X.cols()))
    throw std::invalid_argument("group means: inconsistent sizes");
  // covariate -> its dummy columns, in order of first appearance.
  std::vector<std::pair<std::string, std::vector<Eigen::Index>>> covariates;
  for (Eigen::Index j = 1; j < X.cols(); ++j) {
    const std::string& name = names[static_cast<std::size_t>(j)];
    const auto eq = name.find('=');
    if (eq == std::string::npos) continue;
    const std::string cov = name.substr(0, eq);
    auto it = std::find_if(covariates.begin(), covariates.end(),
                           [&](const auto& c) { return c.first == cov; });
    if (it == covariates.end()) {
      covariates.push_back({cov, {}});
      it = std::prev(covariates.end());
    }
    it->second.push_back(j);
  }
  std::vector<GroupMean> out;
  for (const auto& [cov, columns] : covariates) {
    std::string reference = "(reference)";
    for (const auto& [c, level] : referenceLevels)
      if (c == cov) reference = level;
    // Group 0 is the reference level, group g the dummy columns[g - 1].
    std::vector<GroupMean> groups(columns.size() + 1);
    groups[0].level = reference;
    for (std::size_t g = 0; g < columns.size(); ++g)
      groups[g + 1].level = names[static_cast<std::size_t>(columns[g])].substr(cov.size() + 1);
    // A structured binding cannot be captured by a lambda before C++20's relaxation that
    // clang 14 (the sanitizer build's compiler) lacks: capture a plain reference.
    const auto& dummies = columns;
    const auto groupOf = [&dummies](const Eigen::MatrixXd& design, Eigen::Index i) {
      std::size_t g = 0;
      for (std::size_t d = 0; d < dummies.size(); ++d)
        if (design(i, dummies[d]) != 0.0) g = d + 1;
      return g;
    };
    std::vector<std::size_t> syntheticRecords(groups.size(), 0);
    exec::StopCheck check(stop);
    for (Eigen::Index i = 0; i < X.rows(); ++i) {
      check.tick();
      const std::size_t g = groupOf(X, i);
      ++groups[g].records;
      groups[g].confidential += yConf[i];
    }
    for (Eigen::Index i = 0; i < XSyn.rows(); ++i) {
      check.tick();
      const std::size_t g = groupOf(XSyn, i);
      ++syntheticRecords[g];
      groups[g].synthetic += ySyn[i];
    }
    for (std::size_t k = 0; k < groups.size(); ++k) {
      GroupMean& g = groups[k];
      if (g.records == 0) continue;
      g.covariate = cov;
      g.confidential /= static_cast<double>(g.records);
      // A level the synthetic records (a sample of the input's covariate rows when the
      // published size differs from n) happen not to hold has no synthetic mean.
      g.synthetic = syntheticRecords[k] > 0 ? g.synthetic / static_cast<double>(syntheticRecords[k])
                                            : std::numeric_limits<double>::quiet_NaN();
      out.push_back(g);
    }
  }
  return out;
}

CovariateUtility measureCovariateUtility(
    const Eigen::VectorXd& yConf, const Eigen::VectorXd& ySyn, const Eigen::MatrixXd& X,
    const std::vector<std::string>& names, RegressionFamily family,
    const std::vector<std::pair<std::string, std::string>>& referenceLevels,
    const std::stop_token& stop) {
  return measureCovariateUtility(yConf, X, ySyn, X, names, family, referenceLevels, stop);
}

CovariateUtility measureCovariateUtility(
    const Eigen::VectorXd& yConf, const Eigen::MatrixXd& XConf, const Eigen::VectorXd& ySyn,
    const Eigen::MatrixXd& XSyn, const std::vector<std::string>& names, RegressionFamily family,
    const std::vector<std::pair<std::string, std::string>>& referenceLevels,
    const std::stop_token& stop) {
  CovariateUtility u;
  // A fit that cannot be made (a singular information matrix, e.g. a synthetic count outcome
  // that is all zeros) leaves its measure NaN rather than failing the whole report.
  try {
    u.regression = compareRegressions(yConf, XConf, ySyn, XSyn, names, family, stop);
  } catch (const std::invalid_argument&) {
    u.regression.meanOverlap = std::numeric_limits<double>::quiet_NaN();
    u.regression.maxStandardized = std::numeric_limits<double>::quiet_NaN();
  }
  try {
    u.pmse = pmse(yConf, XConf, ySyn, XSyn, stop);
  } catch (const std::invalid_argument&) {
    u.pmse = std::numeric_limits<double>::quiet_NaN();
  }
  exec::throwIfStopped(stop);
  u.groups = groupMeans(yConf, XConf, ySyn, XSyn, names, referenceLevels, stop);
  for (const auto& g : u.groups) {
    if (std::isnan(g.synthetic)) continue;
    const double d = std::abs(g.confidential - g.synthetic);
    u.maxGroupMeanDiff = u.maxGroupMeanDiff ? std::max(*u.maxGroupMeanDiff, d) : d;
  }
  return u;
}

}  // namespace dpsynth::core::utility
