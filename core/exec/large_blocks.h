#pragma once
/// glibc's malloc serves a block of 128 KiB or more from its own mmap, returned to the system on
/// free, but raises that threshold to the size of each such block freed (up to 32 MiB): after
/// the first freed vector of 10^6 numbers every later one comes from the heap, where freed space
/// stays part of the process. At 10^6 records that left 30 MB more resident than ever in use at
/// once (283 MB peak RSS for a 253 MB peak heap). A fixed threshold keeps every large block
/// mapped, so resident memory follows the memory in use.
namespace dpsynth::core::exec {

/// Fixes the threshold at 256 KiB (one call at start-up, before threads). Nothing elsewhere
/// than glibc; never fails.
void returnLargeBlocksOnFree();

}  // namespace dpsynth::core::exec
