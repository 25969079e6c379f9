#include "core/pipeline/stage_cache.h"

namespace dpsynth::core::pipeline {

StagePtr StageCache::find(const std::string& key) const {
  std::lock_guard lock(mutex_);
  auto it = stages_.find(key);
  if (it == stages_.end()) {
    ++misses_;
    return nullptr;
  }
  ++hits_;
  return it->second;
}

void StageCache::insert(const std::string& key, StagePtr stage) {
  std::lock_guard lock(mutex_);
  stages_[key] = std::move(stage);
}

void StageCache::clear() {
  std::lock_guard lock(mutex_);
  stages_.clear();
  hits_ = misses_ = 0;
}

std::size_t StageCache::size() const {
  std::lock_guard lock(mutex_);
  return stages_.size();
}

std::size_t StageCache::misses() const {
  std::lock_guard lock(mutex_);
  return misses_;
}

std::size_t StageCache::hits() const {
  std::lock_guard lock(mutex_);
  return hits_;
}

}  // namespace dpsynth::core::pipeline
