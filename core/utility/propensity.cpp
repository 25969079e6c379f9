/// pMSE (regression_utility.h) with a ridge-penalised logistic fit. An unpenalised fit has no
/// maximum when the indicator is separable (a synthetic file that is garbage: every synthetic y
/// above every confidential one): IRLS then failed and the measure fell back to a design
/// without y, reporting p̂ = c and a pMSE of 1e-32, "indistinguishable", for the worst output.
/// A penalty λ/2·|β|² on the standardised non-intercept coefficients always has a unique,
/// finite maximum: separation gives p̂ near 0 and 1, a large pMSE, while on ordinary data
/// λ = 10^-6 moves p̂ by far less than the measure's own sampling noise.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/exec/cancellation.h"
#include "core/utility/regression_utility.h"

namespace dpsynth::core::utility {

namespace {

constexpr double kRidge = 1e-6;
constexpr int kMaxNewtonSteps = 200;

/// Fitted probabilities of the ridge-penalised logistic regression of t on Z (first column the
/// intercept, unpenalised; the others are standardised here, a constant one dropped), by damped
/// Newton steps on the strictly concave penalised log-likelihood.
Eigen::VectorXd ridgeLogisticFit(const Eigen::VectorXd& t, Eigen::MatrixXd Z,
                                 const std::stop_token& stop) {
  const Eigen::Index n = Z.rows(), k = Z.cols();
  for (Eigen::Index j = 1; j < k; ++j) {
    const double mean = Z.col(j).mean();
    const double sd = std::sqrt((Z.col(j).array() - mean).square().mean());
    Z.col(j) = sd > 0 ? Eigen::VectorXd((Z.col(j).array() - mean) / sd)
                      : Eigen::VectorXd::Zero(n);
  }
  Eigen::VectorXd penalty = Eigen::VectorXd::Constant(k, kRidge);
  // The intercept is all but unpenalised; the tiny term keeps the Hessian definite even where
  // every fitted probability is 0 or 1.
  penalty[0] = 1e-12;
  // Every pass over the rows goes in blocks with a stop check between them: one pass over
  // 2·10^6 rows and a dozen columns takes a few hundred milliseconds.
  constexpr Eigen::Index kBlock = 1 << 15;
  auto objective = [&](const Eigen::VectorXd& beta) {
    double ll = 0;
    for (Eigen::Index start = 0; start < n; start += kBlock) {
      exec::throwIfStopped(stop);
      const Eigen::Index rows = std::min(kBlock, n - start);
      const Eigen::VectorXd eta = Z.middleRows(start, rows) * beta;
      for (Eigen::Index i = 0; i < rows; ++i) {
        // log(1 + e^η) computed without overflow.
        const double softplus = eta[i] > 0 ? eta[i] + std::log1p(std::exp(-eta[i]))
                                           : std::log1p(std::exp(eta[i]));
        ll += t[start + i] * eta[i] - softplus;
      }
    }
    return ll - 0.5 * (penalty.array() * beta.array().square()).sum();
  };
  auto probabilities = [&](const Eigen::VectorXd& beta) {
    Eigen::VectorXd p(n);
    for (Eigen::Index start = 0; start < n; start += kBlock) {
      exec::throwIfStopped(stop);
      const Eigen::Index rows = std::min(kBlock, n - start);
      p.segment(start, rows) = (Z.middleRows(start, rows) * beta)
                                   .unaryExpr([](double e) { return 1.0 / (1.0 + std::exp(-e)); });
    }
    return p;
  };
  Eigen::VectorXd beta = Eigen::VectorXd::Zero(k);
  double current = objective(beta);
  for (int step = 0; step < kMaxNewtonSteps; ++step) {
    exec::throwIfStopped(stop);
    const Eigen::VectorXd p = probabilities(beta);
    Eigen::VectorXd gradient = -(penalty.array() * beta.array()).matrix();
    Eigen::MatrixXd hessian = penalty.asDiagonal();
    for (Eigen::Index start = 0; start < n; start += kBlock) {
      exec::throwIfStopped(stop);
      const Eigen::Index rows = std::min(kBlock, n - start);
      const auto Zb = Z.middleRows(start, rows);
      const Eigen::VectorXd pb = p.segment(start, rows);
      const Eigen::VectorXd w = (pb.array() * (1.0 - pb.array())).matrix();
      gradient.noalias() += Zb.transpose() * (t.segment(start, rows) - pb);
      hessian.noalias() += Zb.transpose() * w.asDiagonal() * Zb;
    }
    const Eigen::VectorXd direction = hessian.ldlt().solve(gradient);
    if (!direction.allFinite()) break;
    // Halve the step until the penalised log-likelihood does not fall.
    double scale = 1.0;
    Eigen::VectorXd next = beta + direction;
    double value = objective(next);
    while (!(value >= current) && scale > 1e-10) {
      scale *= 0.5;
      next = beta + scale * direction;
      value = objective(next);
    }
    if (!(value >= current)) break;
    const double change = (next - beta).cwiseAbs().maxCoeff();
    beta = next;
    current = value;
    if (change < 1e-10) break;
  }
  return probabilities(beta);
}

}  // namespace

double pmse(const Eigen::VectorXd& yConf, const Eigen::MatrixXd& XConf,
            const Eigen::VectorXd& ySyn, const Eigen::MatrixXd& XSyn,
            const std::stop_token& stop) {
  if (yConf.size() != XConf.rows() || ySyn.size() != XSyn.rows() || XConf.cols() != XSyn.cols())
    throw std::invalid_argument("pMSE: inconsistent sizes");
  if (XConf.rows() == 0 || XSyn.rows() == 0) throw std::invalid_argument("pMSE: a file has no rows");
  if (!yConf.allFinite() || !ySyn.allFinite() || !XConf.allFinite() || !XSyn.allFinite())
    throw std::invalid_argument("pMSE: a value is not finite");
  const Eigen::Index n0 = XConf.rows(), n1 = XSyn.rows(), k = XConf.cols();
  const Eigen::Index n = n0 + n1;
  const Eigen::Index covariates = k - 1;
  // Columns: intercept, y, the design's covariate columns (X without its intercept), and y times
  // each covariate column. The interactions matter: both files share their covariate rows, so a
  // mechanism that keeps y's marginal but loses its relation to a covariate (ph) differs only in
  // them. y is centred and scaled on the pooled rows before the products are formed.
  Eigen::VectorXd y(n);
  y.head(n0) = yConf;
  y.tail(n1) = ySyn;
  const double mean = y.mean();
  const double sd = std::sqrt((y.array() - mean).square().sum() / static_cast<double>(n));
  if (sd > 0) y = (y.array() - mean) / sd;
  Eigen::MatrixXd Z(n, 2 + 2 * covariates);
  Z.col(0).setOnes();
  Z.col(1) = y;
  if (covariates > 0) {
    Z.block(0, 2, n0, covariates) = XConf.rightCols(covariates);
    Z.block(n0, 2, n1, covariates) = XSyn.rightCols(covariates);
    Z.rightCols(covariates) = Z.middleCols(2, covariates).array().colwise() * y.array();
  }
  Eigen::VectorXd indicator(n);
  indicator.head(n0).setZero();
  indicator.tail(n1).setOnes();
  const double c = static_cast<double>(n1) / static_cast<double>(n);
  const Eigen::VectorXd p = ridgeLogisticFit(indicator, std::move(Z), stop);
  return (p.array() - c).square().mean();
}

}  // namespace dpsynth::core::utility
