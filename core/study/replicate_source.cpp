#include "core/study/replicate_source.h"

#include "core/data/csv_table.h"
#include "core/data/data_file.h"
#include "core/exec/cancellation.h"
#include "core/random/rng.h"

namespace dpsynth::core::study {
namespace {

namespace rnd = random;

double generatedValue(const Generator& g, rnd::Rng& rng) {
  const auto& p = g.parameters;
  switch (g.kind) {
    case Generator::Kind::beta: {
      double v = 0;
      do {
        v = rnd::beta(rng, p[0], p[1]);
      } while (!(v > 0.0 && v < 1.0));
      return v;
    }
    case Generator::Kind::poisson:
      return static_cast<double>(rnd::poisson(rng, p[0]));
    case Generator::Kind::negbin:
      return static_cast<double>(rnd::negativeBinomial(rng, p[0], p[1]));
    case Generator::Kind::nbmix: {
      // The component draw comes first, as in data::generateSample's nbmix.
      const bool first = rnd::uniform01(rng) < p[0];
      return static_cast<double>(first ? rnd::negativeBinomial(rng, p[1], p[2])
                                       : rnd::negativeBinomial(rng, p[3], p[4]));
    }
    case Generator::Kind::normal:
      return rnd::normal(rng, p[0], p[1]);
  }
  return 0;
}

}  // namespace

ReplicateSource::ReplicateSource(const StudyConfig& config) : n_(config.source.n) {
  if (config.source.generator) {
    generator_ = config.source.generator;
    return;
  }
  const Bootstrap& b = *config.source.bootstrap;
  data::DatasetSpec spec;
  spec.outcome = b.outcome;
  spec.covariates = b.covariates;
  spec.family = b.family;
  spec.referenceLevels = b.referenceLevels;
  original_ = data::buildDataset(data::readDataFile(b.file), spec);
  if (n_ == 0) n_ = original_->size();
}

ReplicateSource::ReplicateSource(const StudyConfig& config, data::Dataset original)
    : original_(std::move(original)), n_(config.source.n) {
  if (n_ == 0) n_ = original_->size();
}

data::Dataset ReplicateSource::draw(std::uint64_t seed, const std::stop_token& stop) const {
  rnd::Rng rng = rnd::makeRng(rnd::Seed(seed));
  const auto n = static_cast<Eigen::Index>(n_);
  if (generator_) {
    Eigen::VectorXd y(n);
    for (Eigen::Index i = 0; i < n; ++i) {
      if ((i & 65535) == 0) exec::throwIfStopped(stop);
      y[i] = generatedValue(*generator_, rng);
    }
    exec::throwIfStopped(stop);
    Eigen::MatrixXd ones = Eigen::MatrixXd::Ones(n, 1);
    return data::numericDataset("y", generator_->family(), std::move(y), std::move(ones),
                                {"(Intercept)"}, stop);
  }
  const data::Dataset& d = *original_;
  Eigen::VectorXd y(n);
  Eigen::MatrixXd X(n, d.X.cols());
  for (Eigen::Index i = 0; i < n; ++i) {
    if ((i & 65535) == 0) exec::throwIfStopped(stop);
    const auto j = static_cast<Eigen::Index>(rnd::uniformIndex(rng, d.size()));
    y[i] = d.y[j];
    X.row(i) = d.X.row(j);
  }
  return data::numericDataset(d.outcomeName, d.family, std::move(y), std::move(X), d.designNames,
                              stop);
}

}  // namespace dpsynth::core::study
