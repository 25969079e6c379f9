#pragma once
/// Scalar helpers for the likelihood hot path. Everything here is safe to call from several
/// chain threads at once and never throws: numerical trouble shows up as a non-finite value,
/// which the model turns into a rejected proposal (log density -infinity).
#include <boost/math/policies/policy.hpp>
#include <boost/math/special_functions/digamma.hpp>
#include <cmath>
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
