#pragma once
/// Fourth-order central difference of a model's log density along coordinate j: the reference
/// every analytic gradient is checked against.
#include <Eigen/Dense>

#include "core/models/model.h"

namespace dpsynth::test {

inline double finiteDifference(const core::models::Model& model, Eigen::VectorXd u, int j,
                               double h) {
  const double x = u[j];
  auto at = [&](double offset) {
    u[j] = x + offset;
    return model.logDensity(u);
  };
  return (-at(2 * h) + 8 * at(h) - 8 * at(-h) + at(-2 * h)) / (12 * h);
}

}  // namespace dpsynth::test
