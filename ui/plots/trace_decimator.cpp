#include "ui/plots/trace_decimator.h"

#include <algorithm>
#include <cmath>

namespace dpsynth::ui {

TraceDecimator::TraceDecimator(int maxPoints) : maxPoints_(std::max(maxPoints, 4)) {}

void TraceDecimator::clear() {
  buckets_.clear();
  width_ = 1;
  draws_ = 0;
}

void TraceDecimator::absorb(Bucket& into, const Bucket& other) {
  if (other.minIndex < 0) return;
  if (into.minIndex < 0) {
    into = other;
    return;
  }
  // Ties keep the earlier draw so the output does not depend on arrival order.
  if (other.min < into.min || (other.min == into.min && other.minIndex < into.minIndex)) {
    into.min = other.min;
    into.minIndex = other.minIndex;
  }
  if (other.max > into.max || (other.max == into.max && other.maxIndex < into.maxIndex)) {
    into.max = other.max;
    into.maxIndex = other.maxIndex;
  }
}

void TraceDecimator::mergePairs() {
  std::vector<Bucket> merged((buckets_.size() + 1) / 2);
  for (size_t i = 0; i < buckets_.size(); ++i) absorb(merged[i / 2], buckets_[i]);
  buckets_ = std::move(merged);
  width_ *= 2;
}

void TraceDecimator::append(std::int64_t drawIndex, double value) {
  if (drawIndex < 0 || !std::isfinite(value)) return;
  const auto capacity = static_cast<std::int64_t>(maxPoints_ / 2);
  while (drawIndex / width_ >= capacity) mergePairs();
  const auto bucket = static_cast<size_t>(drawIndex / width_);
  if (bucket >= buckets_.size()) buckets_.resize(bucket + 1);
  absorb(buckets_[bucket], Bucket{drawIndex, drawIndex, value, value});
  ++draws_;
}

void TraceDecimator::points(std::vector<double>& x, std::vector<double>& y) const {
  x.clear();
  y.clear();
  for (const Bucket& b : buckets_) {
    if (b.minIndex < 0) continue;
    if (b.minIndex == b.maxIndex) {
      x.push_back(static_cast<double>(b.minIndex));
      y.push_back(b.min);
    } else if (b.minIndex < b.maxIndex) {
      x.insert(x.end(), {static_cast<double>(b.minIndex), static_cast<double>(b.maxIndex)});
      y.insert(y.end(), {b.min, b.max});
    } else {
      x.insert(x.end(), {static_cast<double>(b.maxIndex), static_cast<double>(b.minIndex)});
      y.insert(y.end(), {b.max, b.min});
    }
  }
}

int TraceDecimator::pointCount() const {
  int n = 0;
  for (const Bucket& b : buckets_) {
    if (b.minIndex >= 0) n += b.minIndex == b.maxIndex ? 1 : 2;
  }
  return n;
}

}  // namespace dpsynth::ui
