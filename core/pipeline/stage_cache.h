#pragma once
/// Thread-safe cache of stage results keyed by everything a stage depends on (data, model,
/// weights, clamp, sampler settings, initial points). Changing k re-uses the unweighted and LW
/// fits; changing ε for censor-w re-uses the LW weights.
///
/// Bounded in bytes: a stage holds its draws and, per record, its weights and Lipschitz bounds,
/// so a studio session on 10^6 records that tries many settings would otherwise keep every fit
/// it ever made. When an insert takes the cache over its bound, the least recently used stages
/// go first; a stage larger than the bound alone is not kept. A hit shares the cached stage's
/// draws (StageResult::sample) instead of copying them.
#include <cstddef>
#include <cstdint>
#include <list>
#include <mutex>
#include <string>
#include <unordered_map>

#include "core/pipeline/stage.h"

namespace dpsynth::core::pipeline {

/// The memory a stage holds (its draws, weights, per-record and per-draw bounds, posterior
/// summaries), an estimate in bytes for the cache's bound.
std::size_t stageBytes(const StageResult& stage);

class StageCache {
 public:
  /// 2 GiB: a few dozen fits of 10^6 records, far beyond any study replicate.
  static constexpr std::size_t kDefaultMaxBytes = std::size_t{2} << 30;

  explicit StageCache(std::size_t maxBytes = kDefaultMaxBytes) : maxBytes_(maxBytes) {}

  /// The stage under key (null when absent), now the most recently used.
  StagePtr find(const std::string& key) const;
  /// Keeps the stage under key, then drops least recently used stages until the cache is
  /// within its bound (a stage larger than the bound alone is not kept).
  void insert(const std::string& key, StagePtr stage);
  void clear();
  std::size_t size() const;
  /// Bytes held (stageBytes of every stage kept) and the bound.
  std::size_t bytes() const;
  std::size_t maxBytes() const { return maxBytes_; }
  /// Number of stages actually run (not served from the cache) since construction or clear().
  std::size_t misses() const;
  std::size_t hits() const;
  /// Stages dropped to keep the bound since construction or clear().
  std::size_t evictions() const;

 private:
  struct Entry {
    StagePtr stage;
    std::size_t bytes = 0;
    std::list<std::string>::iterator use;  ///< position in uses_
  };
  void evictLocked();

  std::size_t maxBytes_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, Entry> stages_;
  mutable std::list<std::string> uses_;  ///< keys, most recently used first
  std::size_t bytes_ = 0;
  mutable std::size_t hits_ = 0;
  mutable std::size_t misses_ = 0;
  std::size_t evictions_ = 0;
};

}  // namespace dpsynth::core::pipeline
