/// libFuzzer harness: release file JSON of any kind → readAnyRelease. A release file comes from
/// outside: every problem must be bad input (exit 2 in the command line), never an internal
/// error or a crash; a release that loads is written by its kind's writer and loads again to
/// the same text.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <variant>

#include "core/error.h"
#include "core/infer/any_release.h"

namespace core = dpsynth::core;
namespace infer = dpsynth::core::infer;

namespace {

std::string writeRelease(const infer::AnyRelease& release) {
  struct Writer {
    std::string operator()(const infer::NaiveBayesRelease& r) const {
      return infer::releaseToJson(r);
    }
    std::string operator()(const infer::LinregRelease& r) const {
      return infer::linregReleaseToJson(r);
    }
    std::string operator()(const infer::PhReleaseFile& r) const {
      return infer::phReleaseToJson(r);
    }
  };
  return std::visit(Writer{}, release);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* bytes, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(bytes), size);
  infer::AnyRelease loaded;
  try {
    loaded = infer::readAnyRelease(text, "fuzz.json");
  } catch (const std::exception& e) {
    if (core::classify(e) != core::Error::Kind::badInput) {
      std::fprintf(stderr, "not classified as bad input: %s\n", e.what());
      std::abort();
    }
    return 0;
  }
  const std::string written = writeRelease(loaded);
  try {
    if (writeRelease(infer::readAnyRelease(written, "written.json")) != written) std::abort();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "written text does not load: %s\n%s\n", e.what(), written.c_str());
    std::abort();  // what a writer writes, readAnyRelease must read
  }
  return 0;
}
