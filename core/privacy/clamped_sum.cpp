#include "core/privacy/clamped_sum.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/models/record_groups.h"

namespace dpsynth::core::privacy::detail {

namespace {

constexpr double kSumInf = std::numeric_limits<double>::infinity();

/// Rounding allowance per record, in units of the clamp's size: the bound must stay above ℓ as
/// computed, not only as defined. (Larger rounding, far out where terms are huge and clamped
/// anyway, is the sampler's tolerance to absorb: exact_sampler.cpp.)
constexpr double kScaleMargin = 1e-10;

/// x·y with 0·∞ taken as 0 (an interval end at exactly 0 times an unbounded one).
double product(double x, double y) { return x == 0.0 || y == 0.0 ? 0.0 : x * y; }

}  // namespace

Interval times(const Interval& a, const Interval& b) {
  const double p[4] = {product(a.lo, b.lo), product(a.lo, b.hi), product(a.hi, b.lo),
                       product(a.hi, b.hi)};
  return {*std::min_element(p, p + 4), *std::max_element(p, p + 4)};
}

Interval plus(const Interval& a, const Interval& b) { return {a.lo + b.lo, a.hi + b.hi}; }

ClampedSum::ClampedSum(const Eigen::VectorXd& y, const std::vector<double>& alpha, double lower,
                       double upper)
    : lower_(lower), upper_(upper) {
  const models::RecordGroups groups =
      models::groupRecords(y, Eigen::MatrixXd::Ones(y.size(), 1), alpha);
  outcomes_.assign(groups.y.data(), groups.y.data() + groups.active);
  for (const auto& t : groups.terms) terms_.push_back({t.pattern, t.alpha, t.count});
  const double size = std::max({std::abs(lower), std::abs(upper), 1.0});
  scale_ = size * static_cast<double>(y.size());
}

std::vector<double> ClampedSum::settledBelow() const {
  // α f <= L for every α of the outcome iff f <= L / α for the smallest (L < 0).
  std::vector<double> smallest(outcomes_.size(), 1.0);
  for (const auto& t : terms_) smallest[t.pattern] = std::min(smallest[t.pattern], t.alpha);
  std::vector<double> out(outcomes_.size());
  for (std::size_t p = 0; p < out.size(); ++p) out[p] = lower_ / smallest[p];
  return out;
}

double ClampedSum::clamp(double v) const {
  // −∞ (a zero likelihood) is clamped to L like any other value below it.
  return v < lower_ ? lower_ : (v > upper_ ? upper_ : v);
}

double ClampedSum::value(std::span<const double> f) const {
  double sum = 0.0;
  for (const auto& t : terms_) sum += t.count * clamp(t.alpha * f[t.pattern]);
  return sum;
}

BoxBound ClampedSum::bound(std::span<const PatternRange> ranges, int dim, bool meanValue,
                           const Offsets& offsets) const {
  double upper0 = 0.0, lower0 = 0.0, centre = 0.0;
  std::array<Interval, 2> slope{};
  for (const auto& t : terms_) {
    const PatternRange& r = ranges[t.pattern];
    const double hi = t.alpha * r.fHi, lo = t.alpha * r.fLo;
    upper0 += t.count * clamp(hi);
    lower0 += t.count * clamp(lo);
    if (!meanValue) continue;
    if (std::isnan(r.fCentre)) {
      meanValue = false;
      continue;
    }
    centre += t.count * clamp(t.alpha * r.fCentre);
    // ∂ clamp(α f)/∂x_j: 0 where the clamp holds, α ∂f/∂x_j where it does not; a term that
    // crosses L or U within the box may take either (its Clarke gradient spans both).
    if (hi <= lower_ || lo >= upper_) continue;
    const bool crosses = lo < lower_ || hi > upper_;
    for (int j = 0; j < dim; ++j) {
      Interval g = r.gradient[static_cast<std::size_t>(j)];
      if (std::isnan(g.lo) || std::isnan(g.hi)) meanValue = false;  // no usable slope range
      if (crosses) g = {std::min(g.lo, 0.0), std::max(g.hi, 0.0)};
      slope[static_cast<std::size_t>(j)].lo += t.count * t.alpha * g.lo;
      slope[static_cast<std::size_t>(j)].hi += t.count * t.alpha * g.hi;
    }
  }
  BoxBound out{upper0, lower0};
  if (meanValue) {
    // ℓ(x) − ℓ(c) = ∫ ∇ℓ·(x − c): for each coordinate the largest (smallest) of
    // slope·offset over the slope range and the offset range sits at an end of both.
    double upper1 = centre, lower1 = centre;
    std::array<double, 2> up{};
    for (int j = 0; j < dim; ++j) {
      const Interval& s = slope[static_cast<std::size_t>(j)];
      const Interval& o = offsets[static_cast<std::size_t>(j)];
      up[static_cast<std::size_t>(j)] = std::max(product(s.hi, o.hi), product(s.lo, o.lo));
      upper1 += up[static_cast<std::size_t>(j)];
      lower1 += std::min(product(s.lo, o.hi), product(s.hi, o.lo));
    }
    if (upper1 < out.upper) {  // false for NaN
      out.upper = upper1;
      out.spread = up;
    }
    if (!std::isnan(lower1)) out.lower = std::max(out.lower, lower1);
  }
  const double margin = kScaleMargin * scale_;
  out.upper += margin;
  out.lower -= margin;
  if (out.lower > out.upper) out.lower = out.upper;
  return out;
}

}  // namespace dpsynth::core::privacy::detail
