#include "core/pipeline/synthesis.h"

#include <cmath>
#include <stdexcept>

#include "core/exec/cancellation.h"
#include "core/privacy/perturbed_histogram.h"
#include "core/random/rng.h"

namespace dpsynth::core::pipeline {

Synthesizer::Synthesizer(const data::Dataset& dataset, const MechanismResult& result,
                         const models::ModelSpec& spec, random::Seed seed,
                         const std::stop_token& stop)
    : dataset_(dataset), result_(result), seed_(seed) {
  if (result.ph) return;
  if (!result.final) throw std::invalid_argument("the mechanism result has no final fit");
  for (const auto& c : result.final->sample.chains)
    totalDraws_ += static_cast<std::uint64_t>(c.draws.rows());
  if (totalDraws_ == 0) throw std::invalid_argument("the final fit has no draws");
  // The posterior predictive does not depend on the weights: an unweighted model suffices.
  model_ = models::makeModel(dataset, spec, {}, stop);
}

Synthesizer::~Synthesizer() = default;

Eigen::VectorXd Synthesizer::draw(int j, const std::stop_token& stop) const {
  exec::throwIfStopped(stop);
  random::Rng rng = random::makeRng(seed_, 1000 + static_cast<std::uint64_t>(j));
  if (result_.ph) return privacy::samplePerturbedHistogram(*result_.ph, dataset_.size(), rng);
  const auto& chains = result_.final->sample.chains;
  std::uint64_t s = random::uniformIndex(rng, totalDraws_);
  std::size_t c = 0;
  while (s >= static_cast<std::uint64_t>(chains[c].draws.rows())) {
    s -= static_cast<std::uint64_t>(chains[c].draws.rows());
    ++c;
  }
  const Eigen::VectorXd u = chains[c].draws.row(static_cast<Eigen::Index>(s)).transpose();
  Eigen::VectorXd y(static_cast<Eigen::Index>(dataset_.size()));
  model_->simulate(u, rng, y);
  return y;
}

std::vector<Eigen::VectorXd> synthesize(const data::Dataset& dataset,
                                        const MechanismResult& result,
                                        const models::ModelSpec& spec, int m,
                                        random::Seed seed) {
  if (m < 1) throw std::invalid_argument("the number of synthetic datasets must be >= 1");
  const Synthesizer synthesizer(dataset, result, spec, seed);
  std::vector<Eigen::VectorXd> out;
  out.reserve(static_cast<std::size_t>(m));
  for (int j = 0; j < m; ++j) out.push_back(synthesizer.draw(j));
  return out;
}

}  // namespace dpsynth::core::pipeline
