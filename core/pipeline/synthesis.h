#pragma once
/// Synthetic datasets (SPEC §5) and the report of a run (SPEC §7).
#include <Eigen/Dense>
#include <cstdint>
#include <string>
#include <vector>

#include "core/data/dataset.h"
#include "core/pipeline/stage.h"
#include "core/random/rng.h"
#include "core/utility/utility.h"

namespace dpsynth::core::pipeline {

/// m synthetic outcome vectors of result.size.rowsFor(n) records each (the published size, SPEC
/// §0). Each uses one posterior draw chosen at random from the final stage's pooled draws (for
/// ph: the noisy histogram), then y*_r ~ p(y | θ_s, X_i) with i = (*result.sourceRows)[r] (i = r
/// without source rows). Deterministic in (seed, m): dataset j uses random::makeRng(seed,
/// 1000 + j). Throws std::invalid_argument when the size differs from n without source rows.
std::vector<Eigen::VectorXd> synthesize(const data::Dataset& dataset,
                                        const MechanismResult& result,
                                        const models::ModelSpec& spec, int m,
                                        random::Seed seed);

/// The input rows whose declared covariates `rows` synthetic records take when the published
/// size differs from the n input rows: rows ≤ n, a uniformly random subset of `rows` of them;
/// rows > n, every input row once and rows − n more drawn uniformly with replacement. In a
/// random order. The covariates are public by declaration, so which rows are taken is not part
/// of the guarantee, but the choice is random (never "the first rows of the file") so that the
/// input's order says nothing.
std::vector<std::size_t> syntheticSourceRows(std::size_t n, std::size_t rows, random::Rng& rng);

}  // namespace dpsynth::core::pipeline
