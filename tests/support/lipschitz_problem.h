#pragma once
/// A random Lipschitz problem: n outcomes, S draws of (mean, log sd), weights with ties at 0.
#include <Eigen/Dense>
#include <cstdint>
#include <vector>

#include "core/random/rng.h"

namespace dpsynth::test {

struct Problem {
  std::vector<double> y;
  Eigen::MatrixXd draws;
  std::vector<double> alpha;
};

inline Problem makeProblem(std::uint64_t seed, int n, int S) {
  core::random::Rng rng = core::random::makeRng(seed);
  Problem p;
  p.y.resize(static_cast<std::size_t>(n));
  for (double& v : p.y) v = core::random::normal(rng, 1.0, 2.0);
  p.draws.resize(S, 2);
  for (int s = 0; s < S; ++s) {
    p.draws(s, 0) = core::random::normal(rng, 1.0, 0.7);
    p.draws(s, 1) = core::random::normal(rng, 0.0, 0.8);
  }
  p.alpha.resize(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) p.alpha[i] = (i % 5 == 0) ? 0.0 : core::random::uniform01(rng);
  return p;
}

}  // namespace dpsynth::test
