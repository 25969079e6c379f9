#include "core/pipeline/synthesis.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/exec/cancellation.h"
#include "core/privacy/perturbed_histogram.h"
#include "core/random/rng.h"

namespace dpsynth::core::pipeline {

namespace {

/// rows outcomes with record r drawn from the model at its source row's covariates. One pass of
/// model.simulate gives every input row one draw; a source row taken k times needs k passes,
/// so the passes run over the records grouped by occurrence (O(passes·n + rows)).
Eigen::VectorXd simulateRows(const models::SynthesisModel& model, const Eigen::VectorXd& u,
                             const std::vector<std::size_t>& sources, std::size_t n,
                             random::Rng& rng, const std::stop_token& stop) {
  std::vector<std::size_t> seen(n, 0);
  std::vector<std::size_t> occurrence(sources.size());
  std::size_t passes = 0;
  for (std::size_t r = 0; r < sources.size(); ++r) {
    occurrence[r] = seen[sources[r]]++;
    passes = std::max(passes, occurrence[r] + 1);
  }
  std::vector<std::vector<std::size_t>> byPass(passes);
  for (std::size_t r = 0; r < sources.size(); ++r) byPass[occurrence[r]].push_back(r);
  Eigen::VectorXd out(static_cast<Eigen::Index>(sources.size()));
  Eigen::VectorXd draw(static_cast<Eigen::Index>(n));
  for (const auto& records : byPass) {
    exec::throwIfStopped(stop);
    model.simulate(u, rng, draw, stop);
    for (std::size_t r : records)
      out[static_cast<Eigen::Index>(r)] = draw[static_cast<Eigen::Index>(sources[r])];
  }
  return out;
}

/// `rows` records at the intercept with outcomes inside the family's support: the shape of an
/// intercept-only model, from which the posterior predictive draws `rows` outcomes.
data::Dataset placeholderRecords(const data::Dataset& dataset, std::size_t rows) {
  data::Dataset out;
  out.file = dataset.file;
  out.outcomeName = dataset.outcomeName;
  out.family = dataset.family;
  out.designNames = dataset.designNames;
  const double inside = dataset.family == models::Family::beta ? 0.5 : 0.0;
  out.y = Eigen::VectorXd::Constant(static_cast<Eigen::Index>(rows), inside);
  out.X = Eigen::MatrixXd::Ones(static_cast<Eigen::Index>(rows), 1);
  return out;
}

}  // namespace

std::vector<std::size_t> syntheticSourceRows(std::size_t n, std::size_t rows, random::Rng& rng) {
  if (n == 0) throw std::invalid_argument("syntheticSourceRows: the data have no rows");
  std::vector<std::size_t> all(n);
  for (std::size_t i = 0; i < n; ++i) all[i] = i;
  for (std::size_t i = n; i > 1; --i)  // Fisher–Yates
    std::swap(all[i - 1], all[static_cast<std::size_t>(random::uniformIndex(rng, i))]);
  if (rows <= n) {
    all.resize(rows);
    return all;
  }
  all.reserve(rows);
  for (std::size_t r = n; r < rows; ++r)
    all.push_back(static_cast<std::size_t>(random::uniformIndex(rng, n)));
  // The repeats were appended: shuffle again so that they are not all at the end.
  for (std::size_t i = rows; i > 1; --i)
    std::swap(all[i - 1], all[static_cast<std::size_t>(random::uniformIndex(rng, i))]);
  return all;
}

Synthesizer::Synthesizer(const data::Dataset& dataset, const MechanismResult& result,
                         const models::ModelSpec& spec, random::Seed seed,
                         const std::stop_token& stop)
    : dataset_(dataset), result_(result), seed_(seed), rows_(result.size.rowsFor(dataset.size())) {
  const std::vector<std::size_t>* sources = result.sourceRows.get();
  // A release whose count is confidential runs on an empty database as on any other (SPEC §0):
  // without covariates its ñ records copy nothing, so they need no source rows.
  const bool fromNothing = dataset.size() == 0 && dataset.interceptOnly() && !sources;
  if (sources ? sources->size() != rows_ : rows_ != dataset.size() && !fromNothing)
    throw std::invalid_argument(
        "synthesize: the published size differs from the data's without one source row per "
        "synthetic record");
  if (result.ph) return;
  if (!result.final) throw std::invalid_argument("the mechanism result has no final fit");
  for (const auto& c : result.final->sample->chains)
    totalDraws_ += static_cast<std::uint64_t>(c.draws.rows());
  if (totalDraws_ == 0) throw std::invalid_argument("the final fit has no draws");
  // The posterior predictive does not depend on the weights: an unweighted model suffices. It
  // only draws, so it skips the sufficient statistics (a normal regression's QR of the whole
  // design: twice the design's size at its peak), which only the log density reads.
  models::ModelSpec drawing = spec;
  drawing.sufficientStatistics = false;
  if (fromNothing) {
    // The draws stay valid on the stand-in: an intercept-only model samples its parameters in
    // the direct form (models::makeModel's formFor), whose coordinates do not depend on the
    // records, so both models read u alike.
    empty_ = std::make_unique<data::Dataset>(placeholderRecords(dataset, rows_));
    model_ = models::makeModel(*empty_, drawing, {}, stop);
    return;
  }
  model_ = models::makeModel(dataset, drawing, {}, stop);
}

Synthesizer::~Synthesizer() = default;

Eigen::VectorXd Synthesizer::draw(int j, const std::stop_token& stop) const {
  exec::throwIfStopped(stop);
  random::Rng rng = random::makeRng(seed_, 1000 + static_cast<std::uint64_t>(j));
  if (result_.ph) return privacy::samplePerturbedHistogram(*result_.ph, rows_, rng);
  const auto& chains = result_.final->sample->chains;
  std::uint64_t s = random::uniformIndex(rng, totalDraws_);
  std::size_t c = 0;
  while (s >= static_cast<std::uint64_t>(chains[c].draws.rows())) {
    s -= static_cast<std::uint64_t>(chains[c].draws.rows());
    ++c;
  }
  const Eigen::VectorXd u = chains[c].draws.row(static_cast<Eigen::Index>(s)).transpose();
  if (result_.sourceRows)
    return simulateRows(*model_, u, *result_.sourceRows, dataset_.size(), rng, stop);
  Eigen::VectorXd y(static_cast<Eigen::Index>(empty_ ? rows_ : dataset_.size()));
  model_->simulate(u, rng, y, stop);
  return y;
}

std::vector<Eigen::VectorXd> synthesize(const data::Dataset& dataset, const MechanismResult& result,
                                        const models::ModelSpec& spec, int m, random::Seed seed) {
  if (m < 1) throw std::invalid_argument("the number of synthetic datasets must be >= 1");
  const Synthesizer synthesizer(dataset, result, spec, seed);
  std::vector<Eigen::VectorXd> out;
  out.reserve(static_cast<std::size_t>(m));
  for (int j = 0; j < m; ++j) out.push_back(synthesizer.draw(j));
  return out;
}

}  // namespace dpsynth::core::pipeline
