#include "core/models/glm_model.h"

namespace dpsynth::core::models::detail {

namespace {

/// Grows to the largest request seen on this thread and is then reused: no allocation in the
/// sampler's inner loop.
double* threadBuffer(std::size_t values) {
  thread_local std::vector<double> buffer;
  if (buffer.size() < values) buffer.resize(values);
  return buffer.data();
}

}  // namespace

EvalScratch evalScratch(std::size_t patterns) {
  constexpr std::size_t kArrays = 5;
  double* base = threadBuffer(kArrays * patterns);
  return {base, base + patterns, base + 2 * patterns, base + 3 * patterns, base + 4 * patterns};
}

double* evalColumn(std::size_t patterns) { return threadBuffer(patterns); }

CoefficientScratch& coefficientScratch() {
  thread_local CoefficientScratch scratch;
  return scratch;
}

}  // namespace dpsynth::core::models::detail
