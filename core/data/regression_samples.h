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

/// A count or beta regression with covariates on scales four orders of magnitude apart, as in a
/// survey file: region ∈ {north, south, east, west} and sector ∈ {public, private, nonprofit}
/// uniformly (first level the reference; west and nonprofit without an effect), age uniform in
/// [20, 65] (one decimal) and income uniform in [10⁴, 10⁵] (whole units);
///   η = 0.2 + (0, 0.3, −0.2, 0)[region] + (0, 0.4, 0)[sector] + 0.01 age + 8·10⁻⁶ income,
/// negbin: NB2(e^η, φ = 2); poisson: Poisson(e^{η − 1}); beta: logit φ = η − 1.2 − 0.015 age −
/// 1.1·10⁻⁵ income, y ~ Beta(20φ, 20(1 − φ)) (y rounded to six decimals inside (0, 1)).
/// Design: (Intercept), region=south, region=east, region=west, sector=private,
/// sector=nonprofit, age, income.
Dataset surveyRegressionSample(models::Family family, std::size_t n, std::uint64_t seed);

/// A negbin regression with five continuous covariates (every record its own pattern): age in
/// [20, 65], income in [10⁴, 10⁵], hours in [0, 60], distance log-uniform in [0.1, 100] and
/// score ~ N(0, 1); η = 0.5 + 0.01 age + 5·10⁻⁶ income + 0.005 hours − 0.1 log10 distance +
/// 0.2 score, y ~ NB2(e^η, φ = 2). Design: (Intercept), age, income, hours, distance, score.
Dataset continuousNegbinSample(std::size_t n, std::uint64_t seed);

}  // namespace dpsynth::core::data
