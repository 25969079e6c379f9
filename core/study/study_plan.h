#pragma once
/// What a study runs: its cells (mechanism × ε × tuning), the seed of each replicate and which
/// replicates a shard owns. Pure functions of the config, so shards on different machines agree.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/pipeline/mechanism.h"
#include "core/study/study_config.h"

namespace dpsynth::core::study {

/// One cell of the grid: a mechanism at one ε and tuning point. Axes a mechanism does not use
/// are left out (nullopt) instead of repeated: unweighted, lw, cw, lw-final and cw-final do
/// not take an ε target (their ε is an outcome, 2Δ; pipeline::usesEpsilonTarget), only the weighted
/// ones take c and g, only weighted-e and censor-w take a downscale. So every cell is a distinct
/// computation.
struct StudyCell {
  pipeline::Mechanism mechanism = pipeline::Mechanism::unweighted;
  std::optional<double> epsilon;
  std::optional<double> c, g;
  bool hasDownscale = false;
  std::optional<double> downscale;  ///< when hasDownscale: a value, or nullopt = auto

  /// The settings the pipeline runs for this cell (PH bounds and bins from the config; beta
  /// defaults to [0, 1]).
  pipeline::MechanismConfig mechanismConfig(const StudyConfig& config) const;
  friend bool operator==(const StudyCell&, const StudyCell&) = default;
};

/// The cells in a fixed order: mechanisms as listed, then ε, c, g, downscale as listed.
std::vector<StudyCell> studyCells(const StudyConfig& config);

/// The seed of replicate r (0-based) of a study with seed `seed`:
///   replicateSeed(seed, r) = splitMix64(splitMix64(seed) ^ (r + 1) · 0x9E3779B97F4A7C15).
/// It drives everything in that replicate (data draw, sampler, synthesis, PH noise), so a
/// replicate's rows depend only on (config, r), not on threads, shards or the order of work.
std::uint64_t replicateSeed(std::uint64_t seed, int replicate);

/// Shard i of N (0-based i < N): owns the replicates r with r mod N == i.
struct Shard {
  int index = 0;
  int count = 1;
  bool owns(int replicate) const { return replicate % count == index; }
  /// Parses "i/N" with 0 <= i < N (0-based, as $SLURM_ARRAY_TASK_ID and GNU parallel's {%}-1
  /// give); throws std::invalid_argument saying what is wrong.
  static Shard parse(const std::string& text);
};

/// The replicates of [0, R) that the shard owns, ascending.
std::vector<int> shardReplicates(const StudyConfig& config, const Shard& shard);

}  // namespace dpsynth::core::study
