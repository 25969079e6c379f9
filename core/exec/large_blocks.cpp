#include "core/exec/large_blocks.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace dpsynth::core::exec {

void returnLargeBlocksOnFree() {
#if defined(__GLIBC__)
  constexpr int kThresholdBytes = 256 * 1024;
  mallopt(M_MMAP_THRESHOLD, kThresholdBytes);  // setting it disables the dynamic raise
#endif
}

}  // namespace dpsynth::core::exec
