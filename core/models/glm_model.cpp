#include "core/models/glm_model.h"

namespace dpsynth::core::models::detail {

EvalScratch evalScratch(std::size_t patterns) {
  // Grows to the largest model seen on this thread and is then reused: no allocation in the
  // sampler's inner loop.
  thread_local std::vector<double> buffer;
  constexpr std::size_t kArrays = 5;
  if (buffer.size() < kArrays * patterns) buffer.resize(kArrays * patterns);
  double* base = buffer.data();
  return {base, base + patterns, base + 2 * patterns, base + 3 * patterns, base + 4 * patterns};
}

CoefficientScratch& coefficientScratch() {
  thread_local CoefficientScratch scratch;
  return scratch;
}

}  // namespace dpsynth::core::models::detail
