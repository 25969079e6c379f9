#pragma once
/// Generated regression datasets for benchmarks and scale tests, built as numbers (no CSV text):
/// a million records as text would cost more memory than the fit itself.
#include <cstddef>
#include <cstdint>

#include "core/data/dataset.h"

namespace dpsynth::core::data {

/// Linear regression with three numeric covariates and one four-level one:
///   x1, x2, x3 ~ N(0, 1); group ∈ {a, b, c, d} with probabilities 0.4, 0.3, 0.2, 0.1 (a is the
///   reference level of the dummies "group=b", "group=c", "group=d");
///   y ~ N(10 + 1.5 x1 − 0.8 x2 + 0.3 x3 + (0, 0.5, −0.4, 1.0)[group], 2²).
/// Design: (Intercept), x1, x2, x3, group=b, group=c, group=d. Every record is its own pattern.
Dataset normalRegressionSample(std::size_t n, std::uint64_t seed);

/// Poisson regression with two public covariates as a statistical agency would have them:
///   region ∈ {north, south, east, west} uniformly (north the reference level);
///   household ∈ {1, ..., 6} (persons, P = 0.25, 0.3, 0.2, 0.15, 0.07, 0.03);
///   y ~ Poisson(exp(log 4 + 0.3 (household − 3) + (0, 0.4, −0.3, 0.1)[region])).
/// Design: (Intercept), household, region=south, region=east, region=west.
Dataset poissonRegressionSample(std::size_t n, std::uint64_t seed);

}  // namespace dpsynth::core::data
