#include "core/data/populate_pages.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>

namespace dpsynth::core::data {

void populatePages(void* data, std::size_t bytes) {
#if defined(__linux__)
#ifndef MADV_POPULATE_WRITE
  constexpr int MADV_POPULATE_WRITE = 23;  // Linux 5.14; older headers lack the name
#endif
  constexpr std::size_t kWorthIt = std::size_t{1} << 20;  // below 1 MiB the faults are cheap
  if (data == nullptr || bytes < kWorthIt) return;
  static const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  const auto begin = (reinterpret_cast<std::uintptr_t>(data) + page - 1) / page * page;
  const auto end = (reinterpret_cast<std::uintptr_t>(data) + bytes) / page * page;
  if (end <= begin) return;
  // An error (EINVAL on older kernels, ENOMEM) only means the pages fault in one by one.
  (void)::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_POPULATE_WRITE);
#else
  (void)data;
  (void)bytes;
#endif
}

}  // namespace dpsynth::core::data
