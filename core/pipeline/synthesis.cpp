#include "core/pipeline/synthesis.h"

#include <cmath>
#include <stdexcept>

#include "core/privacy/perturbed_histogram.h"
#include "core/random/rng.h"

namespace dpsynth::core::pipeline {

std::vector<Eigen::VectorXd> synthesize(const data::Dataset& dataset,
                                        const MechanismResult& result,
                                        const models::ModelSpec& spec, int m,
                                        random::Seed seed) {
  if (m < 1) throw std::invalid_argument("the number of synthetic datasets must be >= 1");
  std::vector<Eigen::VectorXd> out;
  out.reserve(static_cast<std::size_t>(m));
  const auto n = static_cast<Eigen::Index>(dataset.size());

  if (result.ph) {
    for (int j = 0; j < m; ++j) {
      random::Rng rng = random::makeRng(seed, 1000 + static_cast<std::uint64_t>(j));
      out.push_back(privacy::samplePerturbedHistogram(*result.ph, dataset.size(), rng));
    }
    return out;
  }
  if (!result.final) throw std::invalid_argument("the mechanism result has no final fit");

  // The posterior predictive does not depend on the weights: an unweighted model suffices.
  auto model = models::makeModel(dataset, spec);
  const auto& chains = result.final->sample.chains;
  std::uint64_t total = 0;
  for (const auto& c : chains) total += static_cast<std::uint64_t>(c.draws.rows());
  if (total == 0) throw std::invalid_argument("the final fit has no draws");
  for (int j = 0; j < m; ++j) {
    random::Rng rng = random::makeRng(seed, 1000 + static_cast<std::uint64_t>(j));
    std::uint64_t s = random::uniformIndex(rng, total);
    std::size_t c = 0;
    while (s >= static_cast<std::uint64_t>(chains[c].draws.rows())) {
      s -= static_cast<std::uint64_t>(chains[c].draws.rows());
      ++c;
    }
    const Eigen::VectorXd u = chains[c].draws.row(static_cast<Eigen::Index>(s)).transpose();
    Eigen::VectorXd y(n);
    model->simulate(u, rng, y);
    out.push_back(std::move(y));
  }
  return out;
}

}  // namespace dpsynth::core::pipeline
