#pragma once
/// Bounded-memory min/max decimation of a growing trace: draws fall into buckets of `w`
/// consecutive draw indices and each bucket keeps only its smallest and largest value (with
/// their indices). When the buckets would exceed half the point cap, neighbouring buckets merge
/// and w doubles. The drawn trace therefore has at most `maxPoints` points, and every spike
/// (in particular the global minimum and maximum) survives.
#include <cstdint>
#include <vector>

namespace dpsynth::ui {

class TraceDecimator {
 public:
  /// maxPoints ≥ 4 (smaller values are raised to 4).
  explicit TraceDecimator(int maxPoints = 2000);

  /// Draw indices must be ≥ 0; they need not be contiguous or ordered. Non-finite values are
  /// ignored.
  void append(std::int64_t drawIndex, double value);
  void clear();

  /// Decimated trace in draw order (min and max of each bucket, or one point when they coincide).
  void points(std::vector<double>& x, std::vector<double>& y) const;
  int pointCount() const;
  std::int64_t bucketWidth() const { return width_; }
  std::int64_t drawCount() const { return draws_; }
  int maxPoints() const { return maxPoints_; }

 private:
  struct Bucket {
    std::int64_t minIndex = -1, maxIndex = -1;  ///< -1: empty
    double min = 0, max = 0;
  };
  void mergePairs();
  static void absorb(Bucket& into, const Bucket& other);

  int maxPoints_;
  std::int64_t width_ = 1;
  std::int64_t draws_ = 0;
  std::vector<Bucket> buckets_;
};

}  // namespace dpsynth::ui
