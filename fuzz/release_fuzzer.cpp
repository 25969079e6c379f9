/// libFuzzer harness: release file JSON → releaseFromJson. A release file comes from outside:
/// every problem must be bad input (exit 2 in the command line), never an internal error or a
/// crash; a release that loads is written and loads again to the same text.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "core/error.h"
#include "core/infer/release_file.h"

namespace core = dpsynth::core;
namespace infer = dpsynth::core::infer;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* bytes, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(bytes), size);
  infer::NaiveBayesRelease loaded;
  try {
    loaded = infer::releaseFromJson(text, "fuzz.json");
  } catch (const std::exception& e) {
    if (core::classify(e) != core::Error::Kind::badInput) {
      std::fprintf(stderr, "not classified as bad input: %s\n", e.what());
      std::abort();
    }
    return 0;
  }
  const std::string written = infer::releaseToJson(loaded);
  try {
    if (infer::releaseToJson(infer::releaseFromJson(written, "written.json")) != written)
      std::abort();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "written text does not load: %s\n%s\n", e.what(), written.c_str());
    std::abort();  // what releaseToJson writes, releaseFromJson must read
  }
  return 0;
}
