#include "core/random/seed.h"

#include <sys/random.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

#include "core/random/rng.h"

namespace dpsynth::core::random {

void osRandomWords(std::uint64_t* words, std::size_t count) {
  auto* bytes = reinterpret_cast<unsigned char*>(words);
  const std::size_t want = count * sizeof(std::uint64_t);
  std::size_t have = 0;
  // getrandom may return fewer bytes than asked or be interrupted by a signal: loop.
  while (have < want) {
    const ssize_t got = getrandom(bytes + have, want - have, 0);
    if (got < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(std::string("getrandom failed: ") + std::strerror(errno));
    }
    have += static_cast<std::size_t>(got);
  }
}

Seed osSeed() {
  std::uint64_t w[2];
  do {
    osRandomWords(w, 2);
  } while (w[1] == 0);  // hi == 0 marks a user seed; one chance in 2^64
  return {w[0], w[1]};
}

Seed deriveSeed(Seed seed, std::uint64_t tag) {
  if (seed.isUserSeed()) return Seed(splitMix64(seed.lo ^ tag));
  Seed out{splitMix64(seed.lo ^ tag), splitMix64(seed.hi ^ splitMix64(tag))};
  if (out.hi == 0) out.hi = 1;
  return out;
}

}  // namespace dpsynth::core::random
