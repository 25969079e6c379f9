#pragma once
/// Parameter names an analyst can read: the models call their coefficients beta[0..K-1] (the
/// report's stable keys); tables, plots and plot exports show the design column each belongs
/// to instead ("intercept", "age", "gender=M").
#include <string>
#include <vector>

namespace dpsynth::core::models {

/// names with beta[j] replaced by design column j ("(Intercept)" as "intercept") and
/// sigma[j] by "sigma[<column j>]"; other names (phi, sigma) and out-of-range indices are kept.
std::vector<std::string> parameterLabels(const std::vector<std::string>& names,
                                         const std::vector<std::string>& designNames);

}  // namespace dpsynth::core::models
