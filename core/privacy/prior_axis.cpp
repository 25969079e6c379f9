#include "core/privacy/prior_axis.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace dpsynth::core::privacy {

namespace {

constexpr double kAxisInf = std::numeric_limits<double>::infinity();

/// The x >= a with atan(x) = atan(a) + delta, for a >= 0: measured from the pole at π/2
/// (atan x = π/2 − atan(1/x)), so that far-tail intervals keep their precision.
double upperHalf(double a, double delta) {
  const double t = std::tan(delta);
  if (a == 0.0) return t;
  const double ia = 1.0 / a;
  const double den = ia - t;
  if (!(den > 0.0)) return kAxisInf;
  return (1.0 + ia * t) / den;
}

/// The same for a <= 0, measured from the pole at −π/2 (atan x = −π/2 + atan(−1/x) for x < 0).
double lowerHalf(double a, double delta) {
  const double t = std::tan(delta);
  const double ja = std::isinf(a) ? 0.0 : -1.0 / a;
  const double den = ja + t;
  if (!std::isfinite(t) || !(den > 0.0)) return 0.0;
  return -(1.0 - ja * t) / den;
}

}  // namespace

namespace detail {

double atanDifference(double a, double b) {
  if (!(a < b)) return 0.0;
  if (a >= 1.0) {  // both in the upper tail: atan(b) − atan(a) = atan(1/a) − atan(1/b)
    const double ia = 1.0 / a;
    const double ib = std::isinf(b) ? 0.0 : 1.0 / b;
    return std::atan((ia - ib) / (1.0 + ia * ib));
  }
  if (b <= -1.0) return atanDifference(-b, -a);
  if (a < 0.0 && b > 0.0) return std::atan(b) - std::atan(a);  // opposite signs: no cancellation
  if (std::isinf(b)) return std::atan2(1.0, a);                // π/2 − atan(a), a in [0, 1)
  if (std::isinf(a)) return std::atan2(1.0, -b);               // π/2 + atan(b), b in (−1, 0]
  return std::atan((b - a) / (1.0 + a * b));                   // same sign: a·b >= 0
}

double atanAdvance(double a, double b, double delta) {
  double x;
  if (a >= 0.0) {
    x = upperHalf(a, delta);
  } else if (b <= 0.0) {
    x = lowerHalf(a, delta);
  } else {
    const double toZero = atanDifference(a, 0.0);
    x = delta <= toZero ? lowerHalf(a, delta) : upperHalf(0.0, delta - toZero);
  }
  if (std::isnan(x)) x = a;
  return std::clamp(x, a, b);
}

}  // namespace detail

double PriorAxis::lowest() const { return kind_ == Kind::cauchy ? -kAxisInf : 0.0; }

double PriorAxis::highest() const { return kind_ == Kind::unit ? 1.0 : kAxisInf; }

double PriorAxis::mass(double lo, double hi) const {
  switch (kind_) {
    case Kind::cauchy:
      return detail::atanDifference(lo / scale_, hi / scale_) / std::numbers::pi;
    case Kind::halfCauchy:
      return 2.0 * detail::atanDifference(lo / scale_, hi / scale_) / std::numbers::pi;
    case Kind::unit:
      return hi - lo;
    case Kind::paretoExcess: {
      // S(e) = (1 + e/x_m)^−α; S(lo) − S(hi) = S(lo)·(1 − ((x_m + lo)/(x_m + hi))^α).
      const double upper = std::exp(-shape_ * std::log1p(lo / scale_));
      if (std::isinf(hi)) return upper;
      return upper * -std::expm1(-shape_ * std::log1p((hi - lo) / (scale_ + lo)));
    }
  }
  return 0.0;
}

double PriorAxis::draw(double lo, double hi, double u) const {
  switch (kind_) {
    case Kind::cauchy:
    case Kind::halfCauchy: {
      const double a = lo / scale_, b = hi / scale_;
      return scale_ * detail::atanAdvance(a, b, u * detail::atanDifference(a, b));
    }
    case Kind::unit:
      return std::clamp(lo + u * (hi - lo), lo, hi);
    case Kind::paretoExcess: {
      const double share =
          std::isinf(hi) ? 1.0 : -std::expm1(-shape_ * std::log1p((hi - lo) / (scale_ + lo)));
      const double e = lo + (scale_ + lo) * std::expm1(-std::log1p(-u * share) / shape_);
      return std::clamp(std::isnan(e) ? lo : e, lo, hi);
    }
  }
  return lo;
}

double PriorAxis::logDensity(double x) const {
  switch (kind_) {
    case Kind::cauchy:
      return -std::log(std::numbers::pi * scale_) - std::log1p((x / scale_) * (x / scale_));
    case Kind::halfCauchy:
      if (x < 0.0) return -kAxisInf;
      return std::log(2.0 / (std::numbers::pi * scale_)) - std::log1p((x / scale_) * (x / scale_));
    case Kind::unit:
      return x >= 0.0 && x <= 1.0 ? 0.0 : -kAxisInf;
    case Kind::paretoExcess:
      if (x < 0.0) return -kAxisInf;
      return std::log(shape_ / scale_) - (shape_ + 1.0) * std::log1p(x / scale_);
  }
  return -kAxisInf;
}

}  // namespace dpsynth::core::privacy
