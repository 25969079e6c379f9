#pragma once
/// Synthetic datasets (SPEC §5) and the report of a run (SPEC §7).
#include <Eigen/Dense>
#include <cstdint>
#include <string>
#include <vector>

#include "core/data/dataset.h"
#include "core/pipeline/stage.h"
#include "core/utility/utility.h"

namespace dpsynth::core::pipeline {

/// m synthetic outcome vectors. Each uses one posterior draw chosen at random from the final
/// stage's pooled draws (for ph: the noisy histogram), then y*_i ~ p(y | θ_s, X_i). Deterministic
/// in (seed, m): dataset j uses random::makeRng(seed, 1000 + j).
std::vector<Eigen::VectorXd> synthesize(const data::Dataset& dataset,
                                        const MechanismResult& result,
                                        const models::ModelSpec& spec, int m,
                                        random::Seed seed);

}  // namespace dpsynth::core::pipeline
