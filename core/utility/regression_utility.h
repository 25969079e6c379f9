#pragma once
/// Utility measures that see the declared covariates (SPEC §5, issue 11): the marginal measures
/// of utility.h cannot tell a synthesizer that keeps the outcome–covariate relation from one
/// that draws the outcome ignoring the covariates (ph).
///
/// This module sits below core/models and core/data, so it takes plain Eigen values and its own
/// family tag; core/report maps models::Family onto it (same link and variance as the
/// synthesizer: normal identity, poisson and negbin log, beta logit).
#include <Eigen/Dense>
#include <cstddef>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

namespace dpsynth::core::utility {

/// Mean model of a GLM: link g and variance function V(μ).
/// normal: identity, V = 1; poisson: log, V = μ; negbin: log, V = μ + μ²/φ; beta: logit,
/// V = μ(1 − μ) (times a dispersion); binomial (the propensity model): logit, V = μ(1 − μ).
enum class RegressionFamily { normal, poisson, negbin, beta, binomial };

struct GlmFit {
  Eigen::VectorXd beta;   ///< K coefficients, in the order of the design's columns
  Eigen::VectorXd se;     ///< their standard errors, sqrt(diag(dispersion · (XᵀWX)⁻¹))
  double dispersion = 1;  ///< normal: RSS/(n−K); beta: Pearson χ²/(n−K); others 1
  double phi = 0;         ///< negbin only: the overdispersion used (method of moments)
  int iterations = 0;
  bool converged = false;
};

/// Iteratively reweighted least squares (Fisher scoring) for the mean model of `family`.
/// Exact maximum likelihood for normal (OLS), poisson and binomial; negbin alternates the IRLS
/// fit of β at fixed φ with a method-of-moments update φ = Σμ² / Σ((y−μ)² − μ) (a very large φ,
/// i.e. poisson, when the data show no overdispersion); beta is fitted by quasi-likelihood with
/// the logit link (consistent for the same mean coefficients, not the beta ML). Throws
/// std::invalid_argument for mismatched sizes, n <= K or a singular XᵀWX. The fits of this file
/// take seconds on 10^6 records: `stop` is checked between blocks of rows (exec::Cancelled).
GlmFit fitGlm(const Eigen::VectorXd& y, const Eigen::MatrixXd& X, RegressionFamily family,
              const std::stop_token& stop = {});

/// Confidence-interval overlap of Karr, Kohnen, Oganian, Reiter & Sanil (2006): with the
/// intersection [L, U] = [max(loA, loB), min(hiA, hiB)],
///   overlap = ½ · ((U − L)/(hiA − loA) + (U − L)/(hiB − loB)).
/// 1 for identical intervals, negative when they are disjoint (U < L). Requires hi > lo.
double ciOverlap(double loA, double hiA, double loB, double hiB);

struct CoefficientComparison {
  std::string name;
  double confidential = 0, confidentialSe = 0;
  double synthetic = 0, syntheticSe = 0;
  double overlap = 0;       ///< ciOverlap of the two 95% intervals β ± 1.959964·se
  double standardized = 0;  ///< |β_syn − β_conf| / se_conf
};

struct RegressionUtility {
  std::vector<CoefficientComparison> coefficients;  ///< all K, the intercept included
  double meanOverlap = 0;                           ///< mean of overlap over coefficients
  double maxStandardized = 0;                       ///< max of standardized over coefficients
};

/// The model's GLM fitted to (yConf, X) and to (ySyn, X): synthetic outcomes keep the
/// confidential covariate rows. names has K entries (the design names).
RegressionUtility compareRegressions(const Eigen::VectorXd& yConf, const Eigen::VectorXd& ySyn,
                                     const Eigen::MatrixXd& X,
                                     const std::vector<std::string>& names, RegressionFamily family,
                                     const std::stop_token& stop = {});

/// The same when the synthetic records have covariate rows of their own (XSyn: a published size
/// other than n takes a sample of the input's rows, SPEC §0); XSyn has X's columns.
RegressionUtility compareRegressions(const Eigen::VectorXd& yConf, const Eigen::MatrixXd& XConf,
                                     const Eigen::VectorXd& ySyn, const Eigen::MatrixXd& XSyn,
                                     const std::vector<std::string>& names, RegressionFamily family,
                                     const std::stop_token& stop = {});

/// Propensity-score mean squared error (Woo et al. 2009; Snoke et al. 2018): stacks the
/// confidential rows (indicator 0) and the synthetic rows (indicator 1), fits a logistic
/// regression of the indicator on an intercept, y, the design's covariate columns and y times
/// each covariate column (main effects and y-by-covariate interactions: the files share their
/// covariate rows, so a lost y-covariate relation shows only in the interactions), and returns
/// mean over all N rows of (p̂_i − c)² with c = nSyn / N. 0 when the two files are identical.
/// X includes the intercept column. The logistic fit carries a ridge penalty 10^-6·|β|²/2 on its
/// standardised non-intercept coefficients (propensity.cpp), so it exists when the files are
/// separable and pMSE is then large, never the "indistinguishable" of a failed fit. Throws
/// std::invalid_argument for inconsistent sizes, an empty file or a value that is not finite.
double pmse(const Eigen::VectorXd& yConf, const Eigen::MatrixXd& XConf, const Eigen::VectorXd& ySyn,
            const Eigen::MatrixXd& XSyn, const std::stop_token& stop = {});

struct GroupMean {
  std::string covariate;  ///< the declared covariate, e.g. "gender"
  std::string level;      ///< its level, e.g. "F"; the reference level as named in the file
  std::size_t records = 0;
  double confidential = 0, synthetic = 0;  ///< mean outcome of the level's records
};

/// Mean outcome per level of each categorical covariate. Categorical covariates are recognised
/// from the design names "name=level" (data::buildDataset's dummies); a record whose dummies of a
/// covariate are all 0 belongs to the reference level, named referenceLevels[covariate] when
/// given and "(reference)" otherwise. Levels in order of their first dummy column, reference
/// first.
std::vector<GroupMean> groupMeans(
    const Eigen::VectorXd& yConf, const Eigen::VectorXd& ySyn, const Eigen::MatrixXd& X,
    const std::vector<std::string>& names,
    const std::vector<std::pair<std::string, std::string>>& referenceLevels = {},
    const std::stop_token& stop = {});

/// The same with the synthetic records' own covariate rows XSyn (records = the confidential
/// count; a level no synthetic record holds has synthetic = NaN).
std::vector<GroupMean> groupMeans(
    const Eigen::VectorXd& yConf, const Eigen::MatrixXd& X, const Eigen::VectorXd& ySyn,
    const Eigen::MatrixXd& XSyn, const std::vector<std::string>& names,
    const std::vector<std::pair<std::string, std::string>>& referenceLevels = {},
    const std::stop_token& stop = {});

/// Everything above for one synthetic dataset. Built only for models with covariates. A fit that
/// fails (singular design) leaves meanOverlap / maxStandardized (coefficients empty) or pmse NaN.
struct CovariateUtility {
  RegressionUtility regression;
  double pmse = 0;
  std::vector<GroupMean> groups;
  /// max over groups of |confidential − synthetic|; none without categorical covariates.
  std::optional<double> maxGroupMeanDiff;
};
CovariateUtility measureCovariateUtility(
    const Eigen::VectorXd& yConf, const Eigen::VectorXd& ySyn, const Eigen::MatrixXd& X,
    const std::vector<std::string>& names, RegressionFamily family,
    const std::vector<std::pair<std::string, std::string>>& referenceLevels = {},
    const std::stop_token& stop = {});

/// The same when the synthetic records have covariate rows of their own (XSyn).
CovariateUtility measureCovariateUtility(
    const Eigen::VectorXd& yConf, const Eigen::MatrixXd& XConf, const Eigen::VectorXd& ySyn,
    const Eigen::MatrixXd& XSyn, const std::vector<std::string>& names, RegressionFamily family,
    const std::vector<std::pair<std::string, std::string>>& referenceLevels = {},
    const std::stop_token& stop = {});

}  // namespace dpsynth::core::utility
