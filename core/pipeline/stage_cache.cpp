#include "core/pipeline/stage_cache.h"

namespace dpsynth::core::pipeline {

std::size_t stageBytes(const StageResult& s) {
  constexpr std::size_t kDouble = sizeof(double);
  std::size_t bytes = sizeof(StageResult);
  bytes += s.alpha.capacity() * kDouble;
  bytes += static_cast<std::size_t>(s.lipschitz.perRecord.size() + s.lipschitz.perRecordRaw.size() +
                                    s.lipschitz.perDrawMax.size()) *
           kDouble;
  bytes += s.posterior.capacity() * sizeof(mcmc::ParameterSummary);
  for (const auto& chain : s.sample->chains)
    bytes +=
        sizeof(chain) + static_cast<std::size_t>(chain.draws.size() + chain.inverseMetric.size() +
                                                 chain.inverseMetricDense.size()) *
                            kDouble;
  return bytes;
}

StagePtr StageCache::find(const std::string& key) const {
  std::lock_guard lock(mutex_);
  auto it = stages_.find(key);
  if (it == stages_.end()) {
    ++misses_;
    return nullptr;
  }
  ++hits_;
  uses_.splice(uses_.begin(), uses_, it->second.use);
  return it->second.stage;
}

void StageCache::insert(const std::string& key, StagePtr stage) {
  if (!stage) return;
  const std::size_t bytes = stageBytes(*stage);
  std::lock_guard lock(mutex_);
  if (auto it = stages_.find(key); it != stages_.end()) {
    bytes_ -= it->second.bytes;
    uses_.erase(it->second.use);
    stages_.erase(it);
  }
  if (bytes > maxBytes_) {
    ++evictions_;  // never kept: it alone would exceed the bound
    return;
  }
  uses_.push_front(key);
  stages_[key] = {std::move(stage), bytes, uses_.begin()};
  bytes_ += bytes;
  evictLocked();
}

void StageCache::evictLocked() {
  while (bytes_ > maxBytes_ && !uses_.empty()) {
    const auto it = stages_.find(uses_.back());
    bytes_ -= it->second.bytes;
    stages_.erase(it);
    uses_.pop_back();
    ++evictions_;
  }
}

void StageCache::clear() {
  std::lock_guard lock(mutex_);
  stages_.clear();
  uses_.clear();
  bytes_ = 0;
  hits_ = misses_ = evictions_ = 0;
}

std::size_t StageCache::size() const {
  std::lock_guard lock(mutex_);
  return stages_.size();
}

std::size_t StageCache::bytes() const {
  std::lock_guard lock(mutex_);
  return bytes_;
}

std::size_t StageCache::misses() const {
  std::lock_guard lock(mutex_);
  return misses_;
}

std::size_t StageCache::hits() const {
  std::lock_guard lock(mutex_);
  return hits_;
}

std::size_t StageCache::evictions() const {
  std::lock_guard lock(mutex_);
  return evictions_;
}

}  // namespace dpsynth::core::pipeline
