#include "core/privacy/cell_target.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "core/privacy/family_targets.h"

namespace dpsynth::core::privacy {

void ExactProblem::validate() const {
  const auto n = static_cast<std::size_t>(y.size());
  // n = 0 is allowed: the target of an empty database is the prior (SPEC §0: a release whose
  // count is confidential runs on it as on any neighbour).
  if (!alpha.empty() && alpha.size() != n)
    throw std::invalid_argument("exact sampler: " + std::to_string(alpha.size()) + " weights for " +
                                std::to_string(n) + " records");
  for (double a : alpha)
    if (!(a >= 0.0 && a <= 1.0))
      throw std::invalid_argument("exact sampler: weights must lie in [0, 1]");
  if (!std::isfinite(lower) || !std::isfinite(upper) || !(lower < 0.0) || !(upper >= 0.0))
    throw std::invalid_argument(
        "exact sampler: the censoring interval must be finite with L < 0 <= U");
  if (!(sdScale > 0.0) || !std::isfinite(sdScale))
    throw std::invalid_argument("exact sampler: the sd scale must be finite and > 0");
  // Messages name the record, never its (confidential) value.
  for (std::size_t i = 0; i < n; ++i) {
    const double v = y[static_cast<Eigen::Index>(i)];
    bool ok = std::isfinite(v);
    if (models::isCountFamily(family)) ok = ok && v >= 0.0 && v == std::floor(v);
    if (family == models::Family::beta) ok = ok && v > 0.0 && v < 1.0;
    if (!ok)
      throw std::invalid_argument("exact sampler: the outcome of record " + std::to_string(i + 1) +
                                  " is outside the " + models::familyName(family) +
                                  " family's support");
  }
}

std::unique_ptr<CellTarget> makeCellTarget(const ExactProblem& problem) {
  problem.validate();
  switch (problem.family) {
    case models::Family::poisson:
      return detail::makePoissonTarget(problem);
    case models::Family::negbin:
      return detail::makeNegbinTarget(problem);
    case models::Family::beta:
      return detail::makeBetaTarget(problem);
    case models::Family::normal:
      return detail::makeNormalTarget(problem);
  }
  throw std::invalid_argument("exact sampler: unknown family");
}

}  // namespace dpsynth::core::privacy
