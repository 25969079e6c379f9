#pragma once
/// The generating distribution's value of a utility measure, where it is known: mean, median,
/// q15 and q90 of beta, poisson, negbin and nbmix generators (Boost.Math). The ECDF distances
/// and the covariate measures have no analytic value.
#include <optional>
#include <string>

#include "core/study/study_config.h"

namespace dpsynth::ui {

/// `measure` is a results column ("mean", "median", "q15", "q90"); nullopt for any other.
/// Quantiles of the count families are the smallest k with F(k) ≥ p.
std::optional<double> analyticValue(const core::study::Generator& generator,
                                    const std::string& measure);

}  // namespace dpsynth::ui
