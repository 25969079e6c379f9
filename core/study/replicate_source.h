#pragma once
/// The data of one replicate, as numbers (never through CSV text): a draw from the config's
/// generator, or the analyst's file resampled with replacement (an internal study, never a
/// release).
#include <cstdint>
#include <memory>
#include <optional>
#include <stop_token>

#include "core/data/dataset.h"
#include "core/study/study_config.h"

namespace dpsynth::core::study {

class ReplicateSource {
 public:
  /// Reads and types the bootstrap file once (DataError for a bad file); nothing to read for a
  /// generator.
  explicit ReplicateSource(const StudyConfig& config);
  /// A bootstrap of data already typed in memory (the studio's loaded data, which may be a
  /// bundled sample with no file): `original` is resampled, config.source.n records per
  /// replicate (0 = original's size); the config's bootstrap file is not read.
  ReplicateSource(const StudyConfig& config, data::Dataset original);

  /// The dataset of a replicate from makeRng(seed): n generated values (beta draws that round
  /// to 0 or 1 are redrawn, the family needs the open interval), or n records drawn uniformly
  /// with replacement from the file (outcome and design rows together). Covariate text is not
  /// carried (no synthetic file is written from a study). 10^7 draws take most of a second:
  /// `stop` is checked every 2^16 records (exec::Cancelled).
  data::Dataset draw(std::uint64_t seed, const std::stop_token& stop = {}) const;
  std::size_t size() const { return n_; }

  /// Public reference data every replicate's censor-w and weighted-e take their weight function
  /// from (RunSettings::weightReference, SPEC §0), as in a release with reference weights; its
  /// design must be the replicates'. Null (the default): weights from each replicate's data.
  void setWeightReference(std::shared_ptr<const data::Dataset> reference) {
    weightReference_ = std::move(reference);
  }
  const std::shared_ptr<const data::Dataset>& weightReference() const { return weightReference_; }

 private:
  std::optional<Generator> generator_;
  std::optional<data::Dataset> original_;
  std::size_t n_ = 0;
  std::shared_ptr<const data::Dataset> weightReference_;
};

}  // namespace dpsynth::core::study
