#pragma once
/// Scalar helpers for the likelihood hot path. Everything here is safe to call from several
/// chain threads at once and never throws: numerical trouble shows up as a non-finite value,
/// which the model turns into a rejected proposal (log density -infinity).
#include <Eigen/Dense>
#include <boost/math/policies/policy.hpp>
#include <boost/math/special_functions/digamma.hpp>
#include <cmath>
#include <cstddef>
#include <numbers>

#if !defined(__GLIBC__) && !defined(__APPLE__)
#include <boost/math/special_functions/gamma.hpp>
#endif

namespace dpsynth::core::models::detail {

/// Stay in double precision (the default policy promotes to long double, which is several times
/// slower) and report poles/overflow as values instead of exceptions.
using FastPolicy = boost::math::policies::policy<
    boost::math::policies::domain_error<boost::math::policies::ignore_error>,
    boost::math::policies::pole_error<boost::math::policies::ignore_error>,
    boost::math::policies::overflow_error<boost::math::policies::ignore_error>,
    boost::math::policies::evaluation_error<boost::math::policies::ignore_error>,
    boost::math::policies::promote_double<false>>;

inline constexpr double kHalfLog2Pi = 0.91893853320467274178;  // log(2π)/2

/// log Γ(x) for x > 0. std::lgamma writes the global `signgam`, a data race when chains run in
/// parallel threads; the reentrant variant does not.
inline double logGamma(double x) {
#if defined(__GLIBC__) || defined(__APPLE__)
  int sign = 0;
  return ::lgamma_r(x, &sign);
#else
  return boost::math::lgamma(x, FastPolicy());
#endif
}

inline double digamma(double x) { return boost::math::digamma(x, FastPolicy()); }

/// log Γ(x) and ψ(x) in one evaluation for x > 0 (beta regression needs both at λφ and λ(1 − φ)
/// for every record): below 10 the argument is shifted up, z = x + n, keeping the product
/// P = Π(x + k) and its derivative P′ so that log Γ(x) = log Γ(z) − log P and
/// ψ(x) = ψ(z) − P′/P; at z ≥ 10 both come from Stirling's series, sharing log z and 1/z².
/// Two logs and one division where glibc's lgamma and Boost's digamma cost about four times
/// that. Absolute error ≤ 1e-14 (relative near log Γ's zeros at 1 and 2 is larger; the
/// log-likelihood is a sum, so only the absolute error matters there).
inline double logGammaDigamma(double x, double& psi) {
  constexpr double kShift = 10.0;
  double p = 1.0, dp = 0.0;  // Π(x + k) and its derivative in x
  double z = x;
  while (z < kShift) {
    dp = dp * z + p;
    p *= z;
    z += 1.0;
  }
  const double inv = 1.0 / z;
  const double inv2 = inv * inv;
  const double logZ = std::log(z);
  // Σ B_2k / (2k(2k − 1) z^(2k−1)), k = 1..7.
  const double series =
      inv *
      (1.0 / 12.0 -
       inv2 * (1.0 / 360.0 -
               inv2 * (1.0 / 1260.0 -
                       inv2 * (1.0 / 1680.0 -
                               inv2 * (1.0 / 1188.0 - inv2 * (691.0 / 360360.0 - inv2 / 156.0))))));
  double logGamma = (z - 0.5) * logZ - z + kHalfLog2Pi + series;
  // log z − 1/(2z) − Σ B_2k / (2k z^2k), k = 1..7.
  psi =
      logZ - 0.5 * inv -
      inv2 * (1.0 / 12.0 -
              inv2 * (1.0 / 120.0 -
                      inv2 * (1.0 / 252.0 -
                              inv2 * (1.0 / 240.0 - inv2 * (1.0 / 132.0 - inv2 * (691.0 / 32760.0 -
                                                                                  inv2 / 12.0))))));
  if (p != 1.0) {
    logGamma -= std::log(p);
    psi -= dp / p;
  }
  return logGamma;
}

/// logGammaDigamma for x[0, n), n a multiple of 4, into logGamma and psi: every lane is shifted
/// by ten, z = x + 10, whatever its x (a lane-dependent shift would need select(), which
/// Eigen 3.4 evaluates element by element), so that four lanes at a time stay in registers
/// and run in Eigen's packets (logs, products, one division). x ≥ 10 then simply uses the
/// series further out. Same accuracy as logGammaDigamma for x < 10²⁹ (beyond, Π(x + k)
/// overflows and the result is NaN, which the model turns into a rejected proposal).
inline void logGammaDigammaBlock(const double* x, std::size_t n, double* logGamma, double* psi) {
  using Lanes = Eigen::Array4d;
  for (std::size_t i = 0; i < n; i += 4) {
    const Lanes v = Eigen::Map<const Lanes>(x + i);
    Lanes p = v;
    Lanes dp = Lanes::Ones();
    for (int k = 1; k < 10; ++k) {  // P = Π_{k<10}(x + k), P′ by the product rule
      const Lanes factor = v + static_cast<double>(k);
      dp = dp * factor + p;
      p *= factor;
    }
    const Lanes z = v + 10.0;
    const Lanes inv = z.inverse();
    const Lanes inv2 = inv * inv;
    const Lanes logZ = z.log();
    const Lanes series =
        inv *
        (1.0 / 12.0 -
         inv2 * (1.0 / 360.0 -
                 inv2 * (1.0 / 1260.0 -
                         inv2 * (1.0 / 1680.0 - inv2 * (1.0 / 1188.0 - inv2 * (691.0 / 360360.0 -
                                                                               inv2 / 156.0))))));
    Eigen::Map<Lanes>(logGamma + i) = (z - 0.5) * logZ - z + kHalfLog2Pi + series - p.log();
    Eigen::Map<Lanes>(psi + i) =
        logZ - 0.5 * inv -
        inv2 *
            (1.0 / 12.0 -
             inv2 * (1.0 / 120.0 -
                     inv2 * (1.0 / 252.0 -
                             inv2 * (1.0 / 240.0 - inv2 * (1.0 / 132.0 - inv2 * (691.0 / 32760.0 -
                                                                                 inv2 / 12.0)))))) -
        dp / p;
  }
}

/// log(1 + e^x) without overflow for large x or loss of precision for very negative x.
inline double log1pExp(double x) {
  if (x > 36.0) return x + std::exp(-x);
  if (x < -36.0) return std::exp(x);
  return std::log1p(std::exp(x));
}

/// 1 / (1 + e^-x), accurate in both tails.
inline double logistic(double x) {
  if (x >= 0.0) return 1.0 / (1.0 + std::exp(-x));
  const double e = std::exp(x);
  return e / (1.0 + e);
}

inline double logit(double p) { return std::log(p) - std::log1p(-p); }

}  // namespace dpsynth::core::models::detail
