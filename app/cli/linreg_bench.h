#pragma once
/// dpsynth bench's data-augmentation case for the linear-regression release (issue 12: 1,000
/// sweeps with n = 100,000 under 10 s on 2 cores).
#include <nlohmann/json.hpp>

namespace dpsynth::cli {

/// 004 §5's regression (p = 2, m = (0.9, −1.17), Σ = I, σ² = 2, bounds ±10, ε = 1) with
/// n = 100,000 (10,000 with quick): 1,000 sweeps (100 with quick) as one chain on one thread,
/// then as two chains of half as many on two threads. Prints a small table and fills
/// out["linreg_da"].
void benchLinregDataAugmentation(bool quick, nlohmann::json& out);

}  // namespace dpsynth::cli
