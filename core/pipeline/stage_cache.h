#pragma once
/// Thread-safe cache of stage results keyed by everything a stage depends on (data, model,
/// weights, clamp, sampler settings, initial points). Changing k re-uses the unweighted and LW
/// fits; changing ε for censor-w re-uses the LW weights.
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>

#include "core/pipeline/stage.h"

namespace dpsynth::core::pipeline {

class StageCache {
 public:
  StagePtr find(const std::string& key) const;
  void insert(const std::string& key, StagePtr stage);
  void clear();
  std::size_t size() const;
  /// Number of stages actually run (not served from the cache) since construction or clear().
  std::size_t misses() const;
  std::size_t hits() const;

 private:
  mutable std::mutex mutex_;
  std::unordered_map<std::string, StagePtr> stages_;
  mutable std::size_t hits_ = 0;
  mutable std::size_t misses_ = 0;
};

}  // namespace dpsynth::core::pipeline
