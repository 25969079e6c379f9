/// libFuzzer harness: study config JSON → studyConfigFromJson. A config is user input: every
/// problem must be bad input (exit 2 in the command line), never an internal error (exit 1) or
/// a crash; a config that loads is written canonically and loads again to the same text.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "core/error.h"
#include "core/study/study_config.h"

namespace core = dpsynth::core;
namespace study = dpsynth::core::study;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* bytes, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(bytes), size);
  study::StudyConfig loaded;
  try {
    loaded = study::studyConfigFromJson(text, "fuzz.json");
  } catch (const std::exception& e) {
    if (core::classify(e) != core::Error::Kind::badInput) {
      std::fprintf(stderr, "not classified as bad input: %s\n", e.what());
      std::abort();
    }
    return 0;
  }
  const std::string written = study::studyConfigToJson(loaded);
  try {
    if (study::studyConfigToJson(study::studyConfigFromJson(written, "written.json")) != written)
      std::abort();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "written text does not load: %s\n%s\n", e.what(), written.c_str());
    std::abort();  // what studyConfigToJson writes, studyConfigFromJson must read
  }
  return 0;
}
